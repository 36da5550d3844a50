// verifyPipeline under a wall-clock budget, in a forked child: neither Z3
// nor an MLIR pass can be interrupted, so the only safe bound is a process
// that can be killed. The child sends one frame per checked step
// (process/Wire.h), so the steps done before a kill or a crash are kept.
#include "smt/Validate.h"

#include "process/Process.h"
#include "process/StageCell.h"
#include "process/Wire.h"

#include <chrono>
#include <cstring>
#include <functional>

namespace cc::smt {
namespace {

using Clock = std::chrono::steady_clock;
using process::WireReader;
using process::WireWriter;

// What a frame of the child says.
enum class Message : uint64_t { Pass, Step, Ended, Failed };

void writeStep(WireWriter &w, const StepCheck &s) {
  w.str(s.pass).str(s.pattern).str(s.function).u64(uint64_t(s.verdict));
  w.str(s.reason).f64(s.seconds).str(s.before).str(s.after);
  w.str(s.counterexample).u64(s.cached);
}

StepCheck readStep(WireReader &r) {
  StepCheck s;
  s.pass = r.str();
  s.pattern = r.str();
  s.function = r.str();
  uint64_t verdict = r.u64();
  s.verdict = verdict <= uint64_t(TvVerdict::Timeout) ? TvVerdict(verdict)
                                                      : TvVerdict::Unknown;
  s.reason = r.str();
  s.seconds = r.f64();
  s.before = r.str();
  s.after = r.str();
  s.counterexample = r.str();
  s.cached = r.u64();
  return s;
}

void send(int fd, Message m, const std::function<void(WireWriter &)> &body) {
  WireWriter w;
  w.u64(uint64_t(m));
  body(w);
  process::writeFrame(fd, w.bytes());
}

int child(int fd, const std::string &module, const std::string &pipeline,
          const TvOptions &options, bool perRewrite) {
  auto steps = verifyPipeline(
      module, pipeline, options, perRewrite,
      [&](const StepCheck &s) {
        send(fd, Message::Step, [&](WireWriter &w) { writeStep(w, s); });
      },
      [&](const std::string &pass) {
        send(fd, Message::Pass, [&](WireWriter &w) { w.str(pass); });
      });
  if (steps)
    send(fd, Message::Ended, [](WireWriter &) {});
  else
    send(fd, Message::Failed,
         [&](WireWriter &w) { w.str(steps.error().message()); });
  return 0;
}

// The child's frames into `r`; whether it sent its end.
bool readFrames(const std::string &out, BoundedCheck &r) {
  bool ended = false;
  for (const std::string &f : process::frames(out)) {
    WireReader in(f);
    switch (Message(in.u64())) {
    case Message::Pass:
      r.pass = in.str();
      break;
    case Message::Step:
      r.steps.push_back(readStep(in));
      break;
    case Message::Ended:
      ended = true;
      break;
    case Message::Failed:
      ended = true;
      r.end = BoundedCheck::End::Failed;
      r.error = in.str();
      break;
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
  // A pass or a query that exhausts memory ends the child under RunLimits'
  // memory bound, reported as such, not as a crash.
  process::StageCell cell;
  process::ChildOptions co;
  co.ownProcessGroup = false;
  co.keepStderr = true;
  co.limits = {budgetSeconds, RunLimits().memoryBytes};
  co.cell = cell.ok() ? &cell : nullptr;
  auto ran = process::runChild(
      [&](int fd) {
        if (cell.ok())
          process::noteOutOfMemoryIn(cell);
        return child(fd, module, pipeline, options, perRewrite);
      },
      co);
  if (!ran) {
    r.end = BoundedCheck::End::Failed;
    r.error = ran.error().message();
    return r;
  }
  bool ended = readFrames(ran->out, r);
  if (ran->timedOut) {
    r.end = BoundedCheck::End::OutOfTime;
  } else if (!ended) {
    r.end = BoundedCheck::End::Crashed;
    r.outOfMemory = ran->outOfMemory;
    r.error = ran->outOfMemory
                  ? std::string(kOutOfMemory) + " (limit " +
                        std::to_string(co.limits.memoryBytes >> 20) + " MiB)"
              : ran->signal ? "signal " + std::to_string(ran->signal) + " (" +
                                  strsignal(ran->signal) + ")"
                            : "exit status " + std::to_string(ran->exitCode);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

} // namespace cc::smt
