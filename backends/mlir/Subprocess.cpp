// Child processes with a time limit: external compilers, isolated workers.
#include "backends/mlir/Internal.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cc::mlirbackend {

namespace {
Error sysError(const std::string &what) {
  return makeError(what + ": " + std::strerror(errno));
}

// Under RLIMIT_AS an allocation fails instead of the kernel's OOM killer
// stepping in; programs then say so in their own words before dying.
bool reportsOutOfMemory(const std::string &err) {
  for (const char *marker :
       {"std::bad_alloc", "out of memory", "Out of memory", "MemoryError",
        "Cannot allocate memory", "memory exhausted"})
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
  ~Pipe() { closeBoth(); }
  void close(int i) {
    if (fd[i] >= 0)
      ::close(fd[i]);
    fd[i] = -1;
  }
  void closeBoth() { close(0); close(1); }
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
// Appends a read to stdout (stream 0) or stderr (stream 1): stdout up to
// maxOut (0: no bound) and then it flags the overflow, stderr cut to its tail.
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
} // namespace

Expected<ProcessResult> runChild(const std::function<int(int outFd)> &child,
                                 const ChildOptions &options,
                                 double timeoutSeconds) {
  SigpipeGuard guard;
  Pipe in, out, err;
  if (pipe2(in.fd, O_CLOEXEC) || pipe2(out.fd, O_CLOEXEC) ||
      pipe2(err.fd, O_CLOEXEC))
    return sysError("cannot create pipes");
  pid_t pid = fork();
  if (pid < 0)
    return sysError("cannot fork");
  if (pid == 0) {
    if (options.ownProcessGroup)
      setpgid(0, 0);
    dup2(in.fd[0], 0);
    dup2(err.fd[1], 2);
    if (options.memoryLimitBytes && kAddressSpaceLimit) {
      rlimit limit{options.memoryLimitBytes, options.memoryLimitBytes};
      setrlimit(RLIMIT_AS, &limit);
    }
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, nullptr);
    // _exit: the parent's atexit handlers and stdio buffers are not ours.
    _exit(child(out.fd[1]));
  }
  // Also here, to win the race with kill() below.
  if (options.ownProcessGroup)
    setpgid(pid, pid);
  const std::string &stdinText = options.stdinText;
  auto killChild = [&] { kill(options.ownProcessGroup ? -pid : pid, SIGKILL); };
  in.close(0);
  out.close(1);
  err.close(1);
  fcntl(in.fd[1], F_SETFL, O_NONBLOCK);

  ProcessResult result;
  size_t written = 0;
  if (stdinText.empty())
    in.close(1);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(timeoutSeconds);
  char buf[65536];
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      result.timedOut = true;
      break;
    }
    if (result.outputOverflow)
      break;
    pollfd fds[3] = {{out.fd[0], POLLIN, 0},
                     {err.fd[0], POLLIN, 0},
                     {in.fd[1], POLLOUT, 0}};
    if (poll(fds, 3, int(std::min<long long>(left, 1000))) < 0) {
      if (errno == EINTR)
        continue;
      killChild();
      waitpid(pid, nullptr, 0);
      return sysError("poll failed");
    }
    if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      ssize_t n = write(in.fd[1], stdinText.data() + written,
                        stdinText.size() - written);
      if (n > 0)
        written += size_t(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        written = stdinText.size(); // the child stopped reading
      if (written == stdinText.size())
        in.close(1);
    }
    Pipe *pipes[2] = {&out, &err};
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t n = read(pipes[i]->fd[0], buf, sizeof buf);
      if (n > 0)
        appendBounded(result, i, buf, size_t(n), options.maxOutputBytes);
      else if (n == 0 || (errno != EINTR && errno != EAGAIN))
        pipes[i]->close(0);
    }
  }
  bool killed = result.timedOut || result.outputOverflow;
  if (killed)
    killChild();
  // The outputs are closed; the command may still be running (it closed
  // them early), so wait for it within the deadline too.
  int status = 0;
  // Backs off from 0.1 ms: an isolated worker usually exits right after
  // closing its pipes, and every run pays this wait.
  useconds_t pause = 100;
  while (true) {
    pid_t r = waitpid(pid, &status, killed ? 0 : WNOHANG);
    if (r == pid)
      break;
    if (r < 0 && errno != EINTR)
      return sysError("waitpid failed");
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timedOut = true;
      killChild();
    } else if (r == 0) {
      usleep(pause);
      pause = std::min<useconds_t>(pause * 2, 10000);
    }
  }
  if (WIFSIGNALED(status) && !killed)
    result.signal = WTERMSIG(status);
  else if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  result.outOfMemory = options.memoryLimitBytes && !killed &&
                       (result.signal || result.exitCode) &&
                       reportsOutOfMemory(result.err);
  return result;
}

std::string memoryNote(const ProcessResult &r, uint64_t limitBytes) {
  if (!r.outOfMemory)
    return "";
  return std::string(" (") + kOutOfMemory + ": limit " +
         std::to_string(limitBytes >> 20) + " MiB)";
}

Expected<ProcessResult> runShell(const std::string &command,
                                 const std::string &stdinText,
                                 double timeoutSeconds,
                                 uint64_t memoryLimitBytes) {
  auto shell = [&](int outFd) {
    dup2(outFd, 1);
    execl("/bin/sh", "sh", "-c", command.c_str(), (char *)nullptr);
    return 127;
  };
  return runChild(shell,
                  {stdinText, /*ownProcessGroup=*/true, memoryLimitBytes,
                   kMaxExternalOutputBytes},
                  timeoutSeconds);
}

} // namespace cc::mlirbackend
