// Runs the lowering, JIT compilation and execution of one case in a forked
// worker process: a crash or hang of the compiler under test (in a pass, in
// LLVM, or in the compiled code) becomes a finding that names the signal,
// the stage and a short stack, instead of taking crosscheck down.
//
// The worker is forked from this process, so it inherits the registered
// passes and loaded libraries and creates its MLIRContext (threading
// disabled) itself. Fork from a single-threaded parent: locks held by other
// threads at fork time would stay locked in the worker.
#include "backends/mlir/Internal.h"
#include "backends/mlir/WorkerAnswer.h"

#include "core/Format.h"
#include "process/Crash.h"
#include "process/Process.h"
#include "process/Sandbox.h"
#include "process/StageCell.h"
#include "process/Wire.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/prctl.h>
#include <unistd.h>

namespace cc::mlirbackend {

namespace {
using Clock = std::chrono::steady_clock;

// The worker's stage cell (set in the worker only): where a crash or a
// timeout happened, and whether it ran out of memory.
process::StageCell *workerCell = nullptr;

void setStage(const char *stage) { workerCell->setStage(stage); }

// LLVM's own allocations (built without exceptions) do not throw: they call
// this handler, which must not return. Marked, then ended as LLVM would.
[[noreturn]] void onLlvmBadAlloc(void *cell, const char *reason, bool) {
  static_cast<process::StageCell *>(cell)->setOutOfMemory();
  const char msg[] = "LLVM ERROR: out of memory\n";
  (void)!::write(2, msg, sizeof msg - 1);
  (void)!::write(2, reason, std::strlen(reason));
  (void)!::write(2, "\n", 1);
  std::abort();
}

LowerRequest::InProcess inProcessOf(const LowerRequest &req) {
  return req.inProcess ? req.inProcess : lowerAndRunSetsInProcess;
}

int runWorker(int outFd, pid_t parent, process::StageCell &cell,
              const LowerRequest &req,
              const std::vector<TensorType> &resultTypes, const InputSets &sets,
              bool wantCoverage) {
  auto start = Clock::now();
  // Dies with the parent (checked again: it may have died before prctl).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    return 1;
  workerCell = &cell;
  process::installCrashHandlers();
  noteLlvmOutOfMemoryIn(cell);
  LowerRequest own = req;
  own.onStage = setStage;
  own.sandboxed = true;
  StageTimes times;
  PassCoverage coverage;
  PassCoverage *cov = wantCoverage ? &coverage : nullptr;
  Expected<Outputs> out = inProcessOf(req)(own, resultTypes, sets, &times, cov);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return process::writeAll(outFd, encodeResult(out, seconds, times, coverage))
             ? 0
             : 1;
}

std::string tail(const std::string &s, size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

// What the worker's stderr says: its text before the crash handler's stack
// (a tail) and the stack's frames.
void readStderr(const std::string &err, CompilerFault &f) {
  process::CrashReport report = process::readCrashReport(err);
  f.diagnostic = tail(report.before, 1500);
  f.frames = std::move(report.frames);
}

// The worker's stderr in a message: "; stderr: ...; stack: #0 ..., #1 ...".
std::string describeStderr(const CompilerFault &f) {
  std::string out = f.diagnostic.empty() ? "" : "; stderr: " + f.diagnostic;
  if (!f.frames.empty())
    out += "; stack:";
  for (size_t i = 0; i < f.frames.size(); ++i)
    out += "\n  #" + std::to_string(i) + " " + f.frames[i];
  return out;
}

// The stage a finding names for where the worker was (the shared stage):
// the pass, or a stage of the MLIR lowering; others (a GPU backend's
// "ptxas", "lower" between passes) show in the message only.
std::string faultStage(const std::string &stage) {
  if (stage.starts_with("pass "))
    return stage.substr(5);
  for (std::string s : {"parse", "jit", "execute", "teardown", "launch"})
    if (stage == s || stage.starts_with(s + " "))
      return s;
  return "";
}

// Where the worker was: "in pass NAME on the emitted module", "in execute
// (the JIT-compiled code of ...)".
std::string where(const std::string &stage, const LowerRequest &req) {
  if (stage.empty())
    return "while starting";
  if (stage == "execute")
    return "in execute (the JIT-compiled code of the " + req.originName + ")";
  if (stage == "jit")
    return "in jit (LLVM compiling the lowered " + req.originName + ")";
  if (stage == "parse")
    return "in parse (parsing and verifying the " + req.originName + ")";
  if (stage == "teardown")
    return "in teardown (freeing the JIT and the module after running the " +
           req.originName + ")";
  return "in " + stage + " on the " + req.originName;
}

// The error of a worker that did not answer: it hung, crashed or exited.
Error workerFailure(const process::ProcessResult &r, const std::string &stage,
                    const LowerRequest &req, const RunOptions &options) {
  std::string at = where(stage, req);
  CompilerFault f;
  f.stage = faultStage(stage);
  if (req.origin == Origin::External && stage.starts_with("pass ")) {
    readStderr(r.err, f);
    return completionFailure(
        req, (r.timedOut ? std::string("timed out") : r.how()) + " in " + stage,
        describeStderr(f));
  }
  if (r.timedOut) {
    f.kind = CompilerFault::Kind::TimedOut;
    return compilerFault("timed out after " +
                             formatDouble("%g", options.limits.timeoutSeconds) +
                             " s " + at,
                         std::move(f));
  }
  // Code from data that tried to start a program or write a file: not the
  // compiler's crash, and not run (docs/SECURITY.md).
  if (process::stoppedBySandbox(r))
    return Error::failure("not run " + at + process::sandboxNote(r),
                          ErrorCode::Unsupported);
  readStderr(r.err, f);
  f.signal = r.signal;
  f.kind = r.outOfMemory ? CompilerFault::Kind::OutOfMemory
           : r.signal    ? CompilerFault::Kind::Crashed
                         : CompilerFault::Kind::Failed;
  std::string message = r.how() + " " + at +
                        process::memoryNote(r, options.limits.memoryBytes) +
                        describeStderr(f);
  return compilerFault(std::move(message), std::move(f));
}

// The MLIR set-up, and what a crash report needs, before forking.
void prepareFork() {
  static const bool done = [] {
    initializeMlir();
    process::prepareCrashReports();
    return true;
  }();
  (void)done;
}
} // namespace

void noteLlvmOutOfMemoryIn(process::StageCell &cell) {
  process::noteOutOfMemoryIn(cell);
  llvm::install_bad_alloc_error_handler(onLlvmBadAlloc, &cell);
}

namespace {
// Every set's outputs in one list, from one forked worker.
Expected<Outputs> runIsolated(const LowerRequest &req,
                              const std::vector<TensorType> &resultTypes,
                              const InputSets &sets,
                              const RunOptions &options) {
  prepareFork();
  auto start = Clock::now();
  process::StageCell cell;
  if (!cell.ok())
    return makeError(std::string("cannot map shared memory: ") +
                     std::strerror(errno));
  pid_t parent = getpid();
  auto worker = [&](int outFd) {
    return runWorker(outFd, parent, cell, req, resultTypes, sets,
                     options.passCoverage != nullptr);
  };
  process::ChildOptions co;
  co.ownProcessGroup = false;
  co.limits = options.limits;
  co.cell = &cell;
  CC_ASSIGN(r, process::runChild(worker, co));
  if (!r.succeeded())
    return workerFailure(r, cell.stage(), req, options);
  double inWorker = 0;
  StageTimes workerTimes;
  PassCoverage workerCoverage;
  std::vector<TensorType> allTypes;
  for (size_t i = 0; i < sets.size(); ++i)
    allTypes.insert(allTypes.end(), resultTypes.begin(), resultTypes.end());
  Expected<Outputs> out =
      decodeResult(r.out, allTypes, inWorker, workerTimes, workerCoverage);
  if (options.passCoverage)
    for (const auto &[key, count] : workerCoverage)
      (*options.passCoverage)[key] += count;
  if (options.times) {
    for (const auto &[stage, seconds] : workerTimes)
      (*options.times)[stage] += seconds;
    // Fork, exit and the transfer: what isolation adds to a run.
    double total = std::chrono::duration<double>(Clock::now() - start).count();
    (*options.times)["isolate"] += std::max(total - inWorker, 0.0);
  }
  return out;
}

// A failure that the input values may have caused: one while running the
// compiled code or tearing it down (heap damage), not while compiling.
bool inputDependent(const Error &e) {
  const CompilerFault *f = e.detail<CompilerFault>();
  return f && (f->stage == "execute" || f->stage == "teardown" ||
               f->stage == "launch");
}
} // namespace

Expected<Outputs> lowerAndRun(const LowerRequest &req,
                              const std::vector<TensorType> &resultTypes,
                              const Inputs &inputs, const RunOptions &options) {
  if (!options.isolate)
    return req.inProcess
               ? req.inProcess(req, resultTypes, {&inputs}, options.times,
                               options.passCoverage)
               : lowerAndRunInProcess(req, resultTypes, inputs, options.times,
                                      options.passCoverage);
  return runIsolated(req, resultTypes, {&inputs}, options);
}

std::vector<Expected<Outputs>>
lowerAndRunSets(const LowerRequest &req,
                const std::vector<TensorType> &resultTypes,
                const InputSets &sets, const RunOptions &options) {
  auto eachAlone = [&] {
    std::vector<Expected<Outputs>> alone;
    for (const Inputs *inputs : sets)
      alone.push_back(lowerAndRun(req, resultTypes, *inputs, options));
    return alone;
  };
  if (sets.size() < 2)
    return eachAlone();
  Expected<Outputs> all =
      options.isolate ? runIsolated(req, resultTypes, sets, options)
                      : inProcessOf(req)(req, resultTypes, sets, options.times,
                                         options.passCoverage);
  if (!all && inputDependent(all.error()))
    return eachAlone();
  std::vector<Expected<Outputs>> results;
  for (size_t i = 0; i < sets.size(); ++i) {
    if (!all) {
      results.emplace_back(Error(all.error()));
      continue;
    }
    Expected<Outputs> &one = results.emplace_back(Outputs());
    for (size_t k = 0; k < resultTypes.size(); ++k)
      one->push_back(std::move((*all)[i * resultTypes.size() + k]));
  }
  return results;
}

} // namespace cc::mlirbackend
