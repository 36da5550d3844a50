#include "process/Process.h"

#include "process/StageCell.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cc::process {

namespace {
using Clock = std::chrono::steady_clock;

Error sysError(const std::string &what) {
  return makeError(what + ": " + std::strerror(errno));
}

// Under RLIMIT_AS an allocation fails instead of the kernel's OOM killer
// stepping in; a program that is not ours can only say so in its own
// words before dying.
bool reportsOutOfMemory(const std::string &err) {
  for (const char *marker :
       {"std::bad_alloc", "out of memory", "Out of memory", "MemoryError",
        "Cannot allocate memory", "memory exhausted",
        "out_of_memory_error"}) // Z3's, when it escapes the C API
    if (err.find(marker) != std::string::npos)
      return true;
  return false;
}

// A sanitizer build (the libFuzzer target with CC_SANITIZE=address) reserves
// terabytes of shadow address space at start-up: under any RLIMIT_AS every
// later mapping would fail, so the child would die of the limit itself.
// There the limit is not set, and the timeout alone bounds a run.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||     \
    __has_feature(thread_sanitizer)
#define CC_SHADOW_MEMORY 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CC_SHADOW_MEMORY 1
#endif
#ifdef CC_SHADOW_MEMORY
constexpr bool kAddressSpaceLimit = false;
#else
constexpr bool kAddressSpaceLimit = true;
#endif

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() = default;
  Pipe(const Pipe &) = delete;
  ~Pipe() { closeBoth(); }
  bool open() { return pipe2(fd, O_CLOEXEC) == 0; }
  void close(int i) {
    if (fd[i] >= 0)
      ::close(fd[i]);
    fd[i] = -1;
  }
  void closeBoth() { close(0), close(1); }
};

// Writing to a child that closed its stdin must not kill us with SIGPIPE:
// block it in this thread and discard a pending one afterwards.
class SigpipeGuard {
public:
  SigpipeGuard() {
    sigset_t pipeSet;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
  }
  ~SigpipeGuard() {
    sigset_t pipeSet, pending;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE)) {
      timespec zero{0, 0};
      sigtimedwait(&pipeSet, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }

private:
  sigset_t old;
};

// One forked child and what it has sent so far.
struct Running {
  pid_t pid = -1;
  Pipe in, out, err;
  size_t written = 0; // of the stdin text
  bool killed = false;
  bool reaped = false;
  int status = 0;
  ProcessResult result;
  bool reading() const { return out.fd[0] >= 0 || err.fd[0] >= 0; }
};

// In the child, after the fork: its descriptors, limits and signal mask;
// never returns.
[[noreturn]] void enterChild(std::vector<Running> &children, Running &c,
                             int outputFile, const ChildOptions &options,
                             const ChildMain &main) {
  // The other children's pipes are not this one's to hold open.
  for (Running &other : children)
    if (&other != &c)
      other.in.closeBoth(), other.out.closeBoth(), other.err.closeBoth();
  if (options.ownProcessGroup)
    setpgid(0, 0);
  dup2(c.in.fd[0], 0);
  if (outputFile >= 0) {
    dup2(outputFile, 1);
    dup2(outputFile, 2);
  } else if (!options.keepStderr) {
    dup2(c.err.fd[1], 2);
  }
  uint64_t memory = options.limits.memoryBytes;
  if (memory && kAddressSpaceLimit) {
    rlimit limit{memory, memory};
    setrlimit(RLIMIT_AS, &limit);
  }
  for (const auto &[name, value] : options.env)
    setenv(name.c_str(), value.c_str(), 1);
  sigset_t none;
  sigemptyset(&none);
  pthread_sigmask(SIG_SETMASK, &none, nullptr);
  // _exit: the parent's atexit handlers and stdio buffers are not ours.
  _exit(main(c.out.fd[1]));
}

void killChild(Running &c, const ChildOptions &options) {
  if (c.pid > 0 && !c.reaped)
    ::kill(options.ownProcessGroup ? -c.pid : c.pid, SIGKILL);
}

// Appends a read to stdout (stream 0) or stderr (stream 1): stdout up to
// maxOut (0: no bound) and then it flags the overflow, stderr cut to its
// tail.
void appendBounded(ProcessResult &r, int stream, const char *data, size_t n,
                   size_t maxOut) {
  if (stream == 0) {
    r.out.append(data, n);
    r.outputOverflow = maxOut && r.out.size() > maxOut;
    return;
  }
  r.err.append(data, n);
  if (r.err.size() > 2 * kKeptStderrBytes)
    r.err.erase(0, r.err.size() - kKeptStderrBytes);
}

// Feeds stdin and drains stdout and stderr of every child until they close
// them or the deadline passes; a child past its output bound is killed.
Error pump(std::vector<Running> &children, const ChildOptions &options,
           Clock::time_point deadline) {
  const std::string &text = options.stdinText;
  char buf[65536];
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<Running *, int>> who; // child, 0 out 1 err 2 in
    for (Running &c : children) {
      if (c.result.outputOverflow && !c.killed) {
        killChild(c, options);
        c.killed = true;
        c.out.close(0), c.err.close(0), c.in.close(1);
      }
      int streams[3] = {c.out.fd[0], c.err.fd[0], c.in.fd[1]};
      for (int s = 0; s < 3; ++s)
        if (streams[s] >= 0) {
          fds.push_back({streams[s], short(s == 2 ? POLLOUT : POLLIN), 0});
          who.push_back({&c, s});
        }
    }
    if (fds.empty())
      return Error();
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - Clock::now())
                    .count();
    if (left <= 0) {
      for (Running &c : children)
        c.result.timedOut = c.reading() || c.in.fd[1] >= 0;
      return Error();
    }
    if (poll(fds.data(), fds.size(), int(std::min<long long>(left, 1000))) <
        0) {
      if (errno == EINTR)
        continue;
      return sysError("poll failed");
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      auto [c, s] = who[k];
      if (!(fds[k].revents & (POLLIN | POLLOUT | POLLHUP | POLLERR)))
        continue;
      if (s == 2) {
        ssize_t n = write(c->in.fd[1], text.data() + c->written,
                          text.size() - c->written);
        if (n > 0)
          c->written += size_t(n);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
          c->written = text.size(); // the child stopped reading
        if (c->written == text.size())
          c->in.close(1);
        continue;
      }
      Pipe &p = s == 0 ? c->out : c->err;
      ssize_t n = read(p.fd[0], buf, sizeof buf);
      if (n > 0)
        appendBounded(c->result, s, buf, size_t(n), options.maxOutputBytes);
      else if (n == 0 || (errno != EINTR && errno != EAGAIN))
        p.close(0);
    }
  }
}

// Waits for a child within the deadline (killing it past it); a child
// usually exits right after closing its pipes, so the wait backs off from
// 0.1 ms.
Error reap(Running &c, const ChildOptions &options,
           Clock::time_point deadline) {
  bool killed = c.killed || c.result.timedOut;
  if (killed && !c.killed) {
    killChild(c, options);
    c.killed = true;
  }
  useconds_t pause = 100;
  while (true) {
    pid_t r = waitpid(c.pid, &c.status, c.killed ? 0 : WNOHANG);
    if (r == c.pid)
      break;
    if (r < 0 && errno != EINTR)
      return sysError("waitpid failed");
    if (Clock::now() >= deadline) {
      c.result.timedOut = true;
      killChild(c, options);
      c.killed = true;
    } else if (r == 0) {
      usleep(pause);
      pause = std::min<useconds_t>(pause * 2, 10000);
    }
  }
  c.reaped = true;
  ProcessResult &res = c.result;
  if (WIFSIGNALED(c.status) && !c.killed)
    res.signal = WTERMSIG(c.status);
  else if (WIFEXITED(c.status))
    res.exitCode = WEXITSTATUS(c.status);
  bool marked = options.cell && options.cell->outOfMemory();
  res.outOfMemory = options.limits.memoryBytes && !c.killed &&
                    (res.signal || res.exitCode) &&
                    (marked || reportsOutOfMemory(res.err));
  return Error();
}

Clock::time_point deadlineOf(const RunLimits &limits) {
  // An unbounded run is about 30 years (a time_point cannot hold inf).
  double seconds = std::clamp(limits.timeoutSeconds, 0.0, 1e9);
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
}

// Forks every child; on failure, kills those already started.
Error forkAll(std::vector<Running> &children,
              const std::vector<ChildMain> &mains, int outputFile,
              const ChildOptions &options) {
  for (size_t i = 0; i < mains.size(); ++i) {
    Running &c = children[i];
    bool captureErr = outputFile < 0 && !options.keepStderr;
    if (!c.in.open() || !c.out.open() || (captureErr && !c.err.open()))
      return sysError("cannot create pipes");
    c.pid = fork();
    if (c.pid < 0)
      return sysError("cannot fork");
    if (c.pid == 0)
      enterChild(children, c, outputFile, options, mains[i]);
    // Also here, to win the race with a kill.
    if (options.ownProcessGroup)
      setpgid(c.pid, c.pid);
    c.in.close(0), c.out.close(1), c.err.close(1);
    fcntl(c.in.fd[1], F_SETFL, O_NONBLOCK);
    if (options.stdinText.empty())
      c.in.close(1);
  }
  return Error();
}
} // namespace

std::string ProcessResult::how() const {
  if (timedOut)
    return "timed out";
  if (signal)
    return "crashed with signal " + std::to_string(signal) + " (" +
           strsignal(signal) + ")";
  return "exited with status " + std::to_string(exitCode);
}

std::vector<Expected<ProcessResult>>
runChildren(const std::vector<ChildMain> &mains, const ChildOptions &options) {
  auto failAll = [&](const Error &e) {
    return std::vector<Expected<ProcessResult>>(mains.size(), e);
  };
  SigpipeGuard guard;
  // Buffered output would be written once by us and once by each child.
  std::fflush(nullptr);
  int outputFile = -1;
  if (!options.outputPath.empty()) {
    int mode = options.appendOutput ? O_APPEND : O_TRUNC;
    outputFile = open(options.outputPath.c_str(),
                      O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | mode, 0644);
    if (outputFile < 0)
      return failAll(sysError("cannot open '" + options.outputPath + "'"));
  }
  std::vector<Running> children(mains.size());
  Clock::time_point deadline = deadlineOf(options.limits);
  Error failed = forkAll(children, mains, outputFile, options);
  if (outputFile >= 0)
    close(outputFile);
  if (!failed)
    failed = pump(children, options, deadline);
  std::vector<Expected<ProcessResult>> results;
  for (Running &c : children) {
    if (c.pid <= 0) {
      results.push_back(failed ? failed : makeError("cannot fork"));
      continue;
    }
    if (failed)
      c.killed = true, killChild(c, options);
    Error e = reap(c, options, deadline);
    if (failed || e)
      results.push_back(failed ? failed : e);
    else
      results.push_back(std::move(c.result));
  }
  return results;
}

Expected<ProcessResult> runChild(const ChildMain &main,
                                 const ChildOptions &options) {
  return std::move(runChildren({main}, options).front());
}

Expected<ProcessResult> runShell(const std::string &command,
                                 const ChildOptions &options) {
  bool toFile = !options.outputPath.empty();
  auto shell = [&](int outFd) {
    if (!toFile)
      dup2(outFd, 1);
    execl("/bin/sh", "sh", "-c", command.c_str(), (char *)nullptr);
    return 127;
  };
  return runChild(shell, options);
}

Expected<ProcessResult> runShell(const std::string &command,
                                 const std::string &stdinText,
                                 RunLimits limits) {
  ChildOptions o;
  o.stdinText = stdinText;
  o.limits = limits;
  o.maxOutputBytes = kMaxExternalOutputBytes;
  return runShell(command, o);
}

Expected<ProcessResult> runProgram(const std::vector<std::string> &argv,
                                   const ChildOptions &options) {
  if (argv.empty())
    return makeError("no program to run");
  bool toFile = !options.outputPath.empty();
  auto program = [&](int outFd) {
    if (!toFile)
      dup2(outFd, 1);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    return 127;
  };
  return runChild(program, options);
}

std::string memoryNote(const ProcessResult &r, uint64_t limitBytes) {
  if (!r.outOfMemory)
    return "";
  return std::string(" (") + kOutOfMemory + ": limit " +
         std::to_string(limitBytes >> 20) + " MiB)";
}

Expected<Background> Background::start(const std::function<int()> &main) {
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    return sysError("cannot fork");
  if (pid == 0)
    _exit(main());
  return Background(pid);
}

Background::~Background() {
  if (id > 0 && !exited) {
    ::kill(id, SIGKILL);
    wait();
  }
}

bool Background::running() {
  if (id <= 0 || exited)
    return false;
  pid_t r = waitpid(id, &status, WNOHANG);
  exited = r == id;
  return r == 0;
}

void Background::kill(int signal) {
  if (id > 0)
    ::kill(id, signal);
}

int Background::wait() {
  if (id <= 0)
    return -1;
  while (!exited && waitpid(id, &status, 0) < 0 && errno == EINTR) {
  }
  id = -1;
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

} // namespace cc::process
