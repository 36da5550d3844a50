#include "process/Pool.h"

#include "process/Wire.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cc::process {

namespace {
double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void closeFd(int &fd) {
  if (fd >= 0)
    close(fd);
  fd = -1;
}

std::string tail(const std::string &s, size_t n) {
  return s.size() <= n ? s : s.substr(s.size() - n);
}
} // namespace

std::string WorkerPool::Event::how() const {
  if (kind == TimedOut)
    return "worker did not answer in time";
  if (signal)
    return "worker killed by signal " + std::to_string(signal) + " (" +
           strsignal(signal) + ")";
  return "worker exited with status " + std::to_string(exitCode);
}

std::string WorkerPool::Event::detail() const {
  return how() + (stderrTail.empty() ? "" : "; stderr: " + stderrTail) +
         (restartError.empty()
              ? ""
              : "; could not start a new worker: " + restartError);
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::stop() {
  for (Slot &s : slots)
    if (s.pid > 0)
      reap(s, SIGKILL);
}

void WorkerPool::workerMain(int in, int out) {
  // Dies with the coordinator; a SIGINT meant for the campaign is the
  // coordinator's to handle (it lets running cases finish).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_DFL);
  while (true) {
    std::optional<std::string> request = readFrame(in);
    if (!request)
      _exit(0); // the coordinator closed the pipe: done
    if (!writeFrame(out, serve(*request)))
      _exit(1);
  }
}

Error WorkerPool::spawn(Slot &slot) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
    return makeError(std::string("cannot create worker pipes: ") +
                     std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0)
    return makeError(std::string("cannot fork a worker: ") +
                     std::strerror(errno));
  if (pid == 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    dup2(err[1], 2);
    // Other workers' pipe ends are not ours to hold open.
    for (Slot &s : slots) {
      closeFd(s.toWorker);
      closeFd(s.fromWorker);
      closeFd(s.errFromWorker);
    }
    workerMain(in[0], out[1]);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  slot = Slot{};
  slot.pid = pid;
  slot.toWorker = in[1];
  slot.fromWorker = out[0];
  slot.errFromWorker = err[0];
  fcntl(slot.fromWorker, F_SETFL, O_NONBLOCK);
  fcntl(slot.errFromWorker, F_SETFL, O_NONBLOCK);
  return Error();
}

void WorkerPool::reap(Slot &slot, int sig) {
  if (sig)
    kill(slot.pid, sig);
  waitpid(slot.pid, nullptr, 0);
  closeFd(slot.toWorker);
  closeFd(slot.fromWorker);
  closeFd(slot.errFromWorker);
  slot.pid = -1;
  slot.busy = false;
}

Error WorkerPool::start() {
  // A worker that died leaves its pipe unread: no SIGPIPE for us.
  signal(SIGPIPE, SIG_IGN);
  slots.resize(size_t(count));
  for (Slot &s : slots)
    CC_TRY(spawn(s));
  return Error();
}

void WorkerPool::submit(int worker, const std::string &request,
                        double timeoutSeconds) {
  Slot &s = slots[size_t(worker)];
  s.busy = true;
  s.pending.clear();
  s.deadline = now() + timeoutSeconds;
  (void)writeFrame(s.toWorker, request);
}

Error WorkerPool::replaceExited(int i, std::vector<Event> &events) {
  Slot &s = slots[size_t(i)];
  int status = 0;
  waitpid(s.pid, &status, 0);
  Event died = Event::of(Event::Died, i);
  if (WIFSIGNALED(status))
    died.signal = WTERMSIG(status);
  else
    died.exitCode = WEXITSTATUS(status);
  died.stderrTail = s.stderrTail;
  s.pid = -1; // already reaped
  closeFd(s.toWorker);
  closeFd(s.fromWorker);
  closeFd(s.errFromWorker);
  if (s.busy)
    events.push_back(std::move(died));
  s.busy = false;
  return spawn(s);
}

Error WorkerPool::readFrom(int i, bool isErr, std::vector<Event> &events) {
  Slot &s = slots[size_t(i)];
  int fd = isErr ? s.errFromWorker : s.fromWorker;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    if (isErr)
      s.stderrTail = tail(s.stderrTail + std::string(buf, size_t(n)), 8192);
    else
      s.pending.append(buf, size_t(n));
  }
  if (isErr)
    return Error();
  if (std::optional<std::string> reply = takeFrame(s.pending)) {
    Event &r = events.emplace_back(Event::of(Event::Reply, i));
    r.reply = std::move(*reply);
    s.pending.clear();
    s.busy = false;
    return Error();
  }
  return n == 0 ? replaceExited(i, events) : Error();
}

Expected<std::vector<WorkerPool::Event>> WorkerPool::wait(double maxSeconds) {
  std::vector<Event> events;
  std::vector<pollfd> fds;
  std::vector<std::pair<int, bool>> who; // (worker, is stderr)
  double until = now() + maxSeconds;
  for (int i = 0; i < count; ++i) {
    Slot &s = slots[size_t(i)];
    if (s.pid < 0)
      continue;
    fds.push_back({s.fromWorker, POLLIN, 0});
    who.push_back({i, false});
    fds.push_back({s.errFromWorker, POLLIN, 0});
    who.push_back({i, true});
    if (s.busy)
      until = std::min(until, s.deadline);
  }
  int ms = int(std::max(0.0, until - now()) * 1000) + 1;
  if (poll(fds.data(), fds.size(), ms) < 0 && errno != EINTR)
    return makeError(std::string("poll failed: ") + std::strerror(errno));
  for (size_t k = 0; k < fds.size(); ++k) {
    auto [i, isErr] = who[k];
    if (slots[size_t(i)].pid >= 0 &&
        (fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
      CC_TRY(readFrom(i, isErr, events));
  }
  double t = now();
  for (int i = 0; i < count; ++i) {
    Slot &s = slots[size_t(i)];
    if (s.pid <= 0 || !s.busy || t < s.deadline)
      continue;
    Event &hung = events.emplace_back(Event::of(Event::TimedOut, i));
    hung.stderrTail = s.stderrTail;
    reap(s, SIGKILL);
    if (Error e = spawn(s))
      hung.restartError = e.message();
  }
  return events;
}

} // namespace cc::process
