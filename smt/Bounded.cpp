// verifyPipeline under a wall-clock budget, in a forked child: neither Z3
// nor an MLIR pass can be interrupted, so the only safe bound is a process
// that can be killed. The child streams one JSON line per checked step, so
// the steps done before a kill or a crash are kept.
#include "smt/Validate.h"

#include <nlohmann/json.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace cc::smt {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

json stepToJson(const StepCheck &s) {
  return {{"pass", s.pass},          {"pattern", s.pattern},
          {"function", s.function},  {"verdict", verdictName(s.verdict)},
          {"reason", s.reason},      {"seconds", s.seconds},
          {"before", s.before},      {"after", s.after},
          {"cex", s.counterexample}, {"cached", s.cached}};
}

StepCheck stepFromJson(const json &j) {
  StepCheck s;
  s.pass = j.value("pass", "");
  s.pattern = j.value("pattern", "");
  s.function = j.value("function", "");
  std::string v = j.value("verdict", "");
  for (TvVerdict t : {TvVerdict::Correct, TvVerdict::Incorrect,
                      TvVerdict::Unknown, TvVerdict::Timeout})
    if (v == verdictName(t))
      s.verdict = t;
  s.reason = j.value("reason", "");
  s.seconds = j.value("seconds", 0.0);
  s.before = j.value("before", "");
  s.after = j.value("after", "");
  s.counterexample = j.value("cex", "");
  s.cached = j.value("cached", false);
  return s;
}

void writeLine(int fd, const json &j) {
  std::string line = j.dump() + "\n";
  for (size_t done = 0; done < line.size();) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += size_t(n);
  }
}

[[noreturn]] void child(int fd, const std::string &module,
                        const std::string &pipeline, const TvOptions &options,
                        bool perRewrite) {
  auto steps = verifyPipeline(
      module, pipeline, options, perRewrite,
      [&](const StepCheck &s) { writeLine(fd, {{"step", stepToJson(s)}}); },
      [&](const std::string &pass) { writeLine(fd, {{"pass", pass}}); });
  if (steps)
    writeLine(fd, {{"end", "ok"}});
  else
    writeLine(fd, {{"end", "error"}, {"error", steps.error().message()}});
  ::_exit(0);
}

// What the child wrote before EOF or `deadline` (then `outOfTime`).
std::string readUntil(int fd, Clock::time_point deadline, bool &outOfTime) {
  std::string buf;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - Clock::now())
                    .count();
    pollfd p{fd, POLLIN, 0};
    int rc =
        left > 0 ? ::poll(&p, 1, int(std::min<long long>(left, 60000))) : 0;
    if (rc == 0 && Clock::now() < deadline)
      continue; // a long budget is waited for in slices
    if (rc < 0 && errno == EINTR)
      continue;
    if (rc == 0) {
      outOfTime = true;
      return buf;
    }
    char chunk[8192];
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return buf; // EOF: the child is done or dead
    buf.append(chunk, size_t(n));
  }
}

// The child's lines into `r`; whether it wrote its end.
bool parseLines(const std::string &buf, BoundedCheck &r) {
  bool ended = false;
  std::istringstream in(buf);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object())
      continue; // a line cut short by the kill
    if (j.contains("pass")) {
      r.pass = j.value("pass", "");
    } else if (j.contains("step")) {
      r.steps.push_back(stepFromJson(j["step"]));
    } else if (j.value("end", "") == "ok") {
      ended = true;
    } else if (j.value("end", "") == "error") {
      ended = true;
      r.end = BoundedCheck::End::Failed;
      r.error = j.value("error", "");
    }
  }
  return ended;
}
} // namespace

BoundedCheck verifyPipelineBounded(const std::string &module,
                                   const std::string &pipeline,
                                   const TvOptions &options, bool perRewrite,
                                   double budgetSeconds) {
  BoundedCheck r;
  auto start = Clock::now();
  int fds[2];
  if (::pipe(fds) != 0) {
    r.end = BoundedCheck::End::Failed;
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    r.end = BoundedCheck::End::Failed;
    r.error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1], module, pipeline, options, perRewrite);
  }
  ::close(fds[1]);

  // An infinite budget is about 30 years (a time_point cannot hold inf).
  auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(std::min(budgetSeconds, 1e9)));
  bool outOfTime = false;
  std::string buf = readUntil(fds[0], deadline, outOfTime);
  if (outOfTime)
    ::kill(pid, SIGKILL);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  bool ended = parseLines(buf, r);
  if (outOfTime) {
    r.end = BoundedCheck::End::OutOfTime;
  } else if (!ended) {
    r.end = BoundedCheck::End::Crashed;
    r.error = WIFSIGNALED(status)
                  ? std::string("signal ") + std::to_string(WTERMSIG(status)) +
                        " (" + strsignal(WTERMSIG(status)) + ")"
                  : "exit status " + std::to_string(WEXITSTATUS(status));
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

} // namespace cc::smt
