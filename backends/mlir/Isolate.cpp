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

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <execinfo.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace cc::mlirbackend {

namespace {
using Clock = std::chrono::steady_clock;

// Lives in MAP_SHARED memory: the worker writes the stage it is in, the
// parent reads it after the worker crashed or was killed.
struct SharedStage {
  char name[256];
};
SharedStage *workerStage = nullptr; // set in the worker only

void setStage(const char *stage) {
  size_t n = strnlen(stage, sizeof workerStage->name - 1);
  std::memcpy(workerStage->name, stage, n);
  workerStage->name[n] = '\0';
}

// Separates the crash handler's stack trace from other stderr output.
constexpr char kStackMarker[] = "\n--- crosscheck worker stack ---\n";
constexpr int kCrashSignals[] = {SIGSEGV, SIGFPE,  SIGBUS, SIGILL,
                                 SIGABRT, SIGTRAP, SIGSYS};

// Only async-signal-safe calls, given that backtrace() was called once
// before the fork (its first call loads libgcc).
void onCrash(int sig) {
  void *frames[48];
  int n = backtrace(frames, 48);
  (void)!write(2, kStackMarker, sizeof kStackMarker - 1);
  // Skips this handler and the kernel's signal trampoline.
  if (n > 2)
    backtrace_symbols_fd(frames + 2, n - 2, 2);
  // SA_RESETHAND restored the default action: die of the same signal (a
  // faulting instruction would also fault again on return).
  raise(sig);
}

void installCrashHandlers() {
  // A stack overflow leaves no stack to report on: use another one.
  static char altStack[1 << 16];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_handler = onCrash;
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : kCrashSignals)
    sigaction(sig, &sa, nullptr);
}

bool writeAll(int fd, const std::string &bytes) {
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += size_t(n);
  }
  return true;
}

LowerRequest::InProcess inProcessOf(const LowerRequest &req) {
  return req.inProcess ? req.inProcess : lowerAndRunSetsInProcess;
}

int runWorker(int outFd, pid_t parent, SharedStage *stage,
              const LowerRequest &req,
              const std::vector<TensorType> &resultTypes, const InputSets &sets,
              bool wantCoverage) {
  auto start = Clock::now();
  // Dies with the parent (checked again: it may have died before prctl).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    return 1;
  workerStage = stage;
  installCrashHandlers();
  LowerRequest own = req;
  own.onStage = setStage;
  StageTimes times;
  PassCoverage coverage;
  PassCoverage *cov = wantCoverage ? &coverage : nullptr;
  Expected<Outputs> out = inProcessOf(req)(own, resultTypes, sets, &times, cov);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return writeAll(outFd, encodeResult(out, seconds, times, coverage)) ? 0 : 1;
}

// One line of backtrace_symbols_fd, "path(symbol+0x1f) [0x7f..]", as
// "symbol (file)" with the symbol demangled; code without a symbol keeps its
// file and offset, JIT-compiled code (in no file) only its address.
std::string frameName(const std::string &line) {
  size_t open = line.find('('), close = line.find(')', open);
  if (open == std::string::npos || open == 0 || close == std::string::npos)
    return line + " (no file: JIT-compiled code)";
  std::string path = line.substr(0, open);
  std::string file = path.substr(path.rfind('/') + 1);
  std::string inner = line.substr(open + 1, close - open - 1);
  size_t plus = inner.find('+');
  if (plus == 0 || plus == std::string::npos)
    return file + inner;
  std::string symbol = inner.substr(0, plus);
  int status = 0;
  char *demangled =
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status == 0 && demangled)
    symbol = demangled;
  std::free(demangled);
  if (symbol.size() > 120)
    symbol = symbol.substr(0, 117) + "...";
  return symbol + " (" + file + ")";
}

std::string tail(const std::string &s, size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

// What the worker's stderr says: its text before the crash handler's stack
// (a tail) and the stack's frames. The stack ends at the first frame of
// this program: below it is crosscheck itself.
void readStderr(const std::string &err, CompilerFault &f) {
  constexpr size_t kMaxFrames = 10;
  size_t marker = err.find(kStackMarker);
  std::string before = err.substr(0, marker);
  while (!before.empty() && std::isspace(uint8_t(before.back())))
    before.pop_back();
  f.diagnostic = tail(before, 1500);
  if (marker == std::string::npos)
    return;
  std::string frames = err.substr(marker + sizeof kStackMarker - 1);
  std::string self = program_invocation_short_name;
  size_t pos = 0;
  while (pos < frames.size() && f.frames.size() < kMaxFrames) {
    size_t end = frames.find('\n', pos);
    std::string line = frames.substr(pos, end - pos);
    pos = end == std::string::npos ? frames.size() : end + 1;
    if (line.empty())
      continue;
    f.frames.push_back(frameName(line));
    std::string path = line.substr(0, line.find('('));
    if (path.substr(path.rfind('/') + 1) == self)
      break;
  }
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
Error workerFailure(const ProcessResult &r, const std::string &stage,
                    const LowerRequest &req, const RunOptions &options) {
  std::string at = where(stage, req);
  CompilerFault f;
  f.stage = faultStage(stage);
  if (r.timedOut) {
    f.kind = CompilerFault::Kind::TimedOut;
    return compilerFault("timed out after " +
                             formatDouble("%g", options.timeoutSeconds) +
                             " s " + at,
                         std::move(f));
  }
  f.outOfMemory = r.outOfMemory;
  readStderr(r.err, f);
  std::string how = "exited with status " + std::to_string(r.exitCode);
  if (r.signal) {
    f.kind = CompilerFault::Kind::Crashed;
    f.signal = r.signal;
    how = "crashed with signal " + std::to_string(r.signal) + " (" +
          strsignal(r.signal) + ")";
  }
  std::string message = how + " " + at +
                        memoryNote(r, options.memoryLimitBytes) +
                        describeStderr(f);
  return compilerFault(std::move(message), std::move(f));
}

// backtrace() loads libgcc on its first call, which is not safe in a
// signal handler: call it before forking, with the MLIR set-up.
void prepareFork() {
  static const bool done = [] {
    initializeMlir();
    void *frame[1];
    backtrace(frame, 1);
    return true;
  }();
  (void)done;
}

class SharedMapping {
public:
  SharedMapping()
      : mem(mmap(nullptr, sizeof(SharedStage), PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0)) {}
  ~SharedMapping() {
    if (ok())
      munmap(mem, sizeof(SharedStage));
  }
  bool ok() const { return mem != MAP_FAILED; }
  SharedStage *stage() { return static_cast<SharedStage *>(mem); }

private:
  void *mem;
};
} // namespace

namespace {
// Every set's outputs in one list, from one forked worker.
Expected<Outputs> runIsolated(const LowerRequest &req,
                              const std::vector<TensorType> &resultTypes,
                              const InputSets &sets,
                              const RunOptions &options) {
  prepareFork();
  auto start = Clock::now();
  SharedMapping shared;
  if (!shared.ok())
    return makeError(std::string("cannot map shared memory: ") +
                     std::strerror(errno));
  shared.stage()->name[0] = '\0';
  pid_t parent = getpid();
  auto worker = [&](int outFd) {
    return runWorker(outFd, parent, shared.stage(), req, resultTypes, sets,
                     options.passCoverage != nullptr);
  };
  CC_ASSIGN(r,
            runChild(worker,
                     {"", /*ownProcessGroup=*/false, options.memoryLimitBytes},
                     options.timeoutSeconds));
  if (r.timedOut || r.signal || r.exitCode != 0)
    return workerFailure(r, shared.stage()->name, req, options);
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
