// verifyPipeline and checkRefinement under a wall-clock and memory budget,
// in a forked child: neither Z3 nor an MLIR pass can be interrupted, so the
// only safe bound is a process that can be killed. The child sends one
// frame per checked step or function (process/Wire.h), so what was checked
// before a kill or a crash is kept.
#include "smt/Validate.h"

#include "backends/mlir/Internal.h"

#include "process/Process.h"
#include "process/StageCell.h"
#include "process/Wire.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>

namespace cc::smt {
namespace {

using Clock = std::chrono::steady_clock;
using process::WireReader;
using process::WireWriter;

// What a frame of the child says.
enum class Message : uint64_t { Pass, Step, Ended, Failed, Planned, Checked };

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
  s.verdict = verdict <= uint64_t(TvVerdict::Approximate) ? TvVerdict(verdict)
                                                          : TvVerdict::Unknown;
  s.reason = r.str();
  s.seconds = r.f64();
  s.before = r.str();
  s.after = r.str();
  s.counterexample = r.str();
  s.cached = r.u64();
  return s;
}

void writeCheck(WireWriter &w, const FunctionCheck &c) {
  w.str(c.function).u64(uint64_t(c.verdict)).str(c.reason);
  w.str(c.counterexample).f64(c.seconds);
}

FunctionCheck readCheck(WireReader &r) {
  FunctionCheck c;
  c.function = r.str();
  uint64_t verdict = r.u64();
  c.verdict = verdict <= uint64_t(TvVerdict::Approximate) ? TvVerdict(verdict)
                                                          : TvVerdict::Unknown;
  c.reason = r.str();
  c.counterexample = r.str();
  c.seconds = r.f64();
  return c;
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

// How a child that sent no end died: out of memory under `limits`, a
// signal or an exit status.
std::string childEnd(const process::ProcessResult &ran,
                     const RunLimits &limits) {
  if (ran.outOfMemory)
    return std::string(kOutOfMemory) + " (limit " +
           std::to_string(limits.memoryBytes >> 20) + " MiB)";
  if (ran.signal)
    return "signal " + std::to_string(ran.signal) + " (" +
           strsignal(ran.signal) + ")";
  return "exit status " + std::to_string(ran.exitCode);
}

// A child under `limits` whose running out of memory is noted as such (in
// the stage cell), not seen as a crash.
Expected<process::ProcessResult> runBounded(const std::function<int(int)> &main,
                                            const RunLimits &limits) {
  process::StageCell cell;
  process::ChildOptions co;
  co.ownProcessGroup = false;
  co.keepStderr = true;
  co.limits = limits;
  co.cell = cell.ok() ? &cell : nullptr;
  return process::runChild(
      [&](int fd) {
        if (cell.ok())
          mlirbackend::noteLlvmOutOfMemoryIn(cell);
        return main(fd);
      },
      co);
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
    default:
      break;
    }
  }
  return ended;
}
} // namespace

BoundedCheck verifyPipelineBounded(const std::string &module,
                                   const std::string &pipeline,
                                   const TvOptions &options, bool perRewrite,
                                   double budgetSeconds, uint64_t memoryBytes) {
  BoundedCheck r;
  auto start = Clock::now();
  // A pass or a query that exhausts memory ends the child under the memory
  // bound, reported as such, not as a crash.
  RunLimits limits{budgetSeconds, memoryBytes};
  auto ran = runBounded(
      [&](int fd) { return child(fd, module, pipeline, options, perRewrite); },
      limits);
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
    r.error = childEnd(*ran, limits);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

namespace {
// The refinement child: its plan, each check, then its end.
int refinementChild(int fd, const std::string &src, const std::string &tgt,
                    const TvOptions &options) {
  RefinementProgress progress;
  progress.planned = [&](const std::vector<std::string> &names) {
    send(fd, Message::Planned, [&](WireWriter &w) {
      w.u64(names.size());
      for (const std::string &n : names)
        w.str(n);
    });
  };
  progress.checked = [&](const FunctionCheck &c) {
    send(fd, Message::Checked, [&](WireWriter &w) { writeCheck(w, c); });
  };
  auto checks = checkRefinement(src, tgt, options, progress);
  if (checks)
    send(fd, Message::Ended, [](WireWriter &) {});
  else
    send(fd, Message::Failed,
         [&](WireWriter &w) { w.str(checks.error().message()); });
  return 0;
}

std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}
} // namespace

Expected<std::vector<FunctionCheck>>
checkRefinementBounded(const std::string &src, const std::string &tgt,
                       const TvOptions &options, const RunLimits &limits) {
  CC_ASSIGN(
      ran,
      runBounded([&](int fd) { return refinementChild(fd, src, tgt, options); },
                 limits));
  std::vector<std::string> planned;
  std::vector<FunctionCheck> checks;
  for (const std::string &f : process::frames(ran.out)) {
    WireReader in(f);
    switch (Message(in.u64())) {
    case Message::Planned:
      planned.resize(std::min<uint64_t>(in.u64(), f.size()));
      for (std::string &n : planned)
        n = in.str();
      break;
    case Message::Checked:
      checks.push_back(readCheck(in));
      break;
    case Message::Failed:
      return makeError(in.str());
    case Message::Ended:
      return checks;
    default:
      break;
    }
  }
  std::string running =
      checks.size() < planned.size() ? " on @" + planned[checks.size()] : "";
  if (!ran.timedOut && !ran.outOfMemory)
    return makeError("translation validation crashed" + running + " (" +
                     childEnd(ran, limits) + "); this is a bug of crosscheck");
  std::string why =
      ran.timedOut
          ? "the budget of " + secondsText(limits.timeoutSeconds) + " was spent"
          : childEnd(ran, limits);
  if (planned.empty())
    return makeError("translation validation stopped before any check: " + why +
                     " reading the input");
  for (size_t i = checks.size(), at = i; i < planned.size(); ++i) {
    FunctionCheck c;
    c.function = planned[i];
    c.reason =
        "budget: " + why + (i == at ? " in this check" : "; not checked");
    checks.push_back(c);
  }
  return checks;
}

} // namespace cc::smt
