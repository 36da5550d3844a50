// Internal interfaces of the MLIR backend, shared between the cheap
// translation units (emission, spec parsing, isolation) and the one that
// includes MLIR headers (Jit.cpp). No MLIR headers here.
#pragma once

#include "backends/Backend.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
class Type;
} // namespace mlir
namespace cc::process {
class StageCell;
} // namespace cc::process

namespace cc::mlirbackend {

// A type as MLIR prints it ("tensor<2x3xf32>"), for messages (Jit.cpp).
std::string str(mlir::Type t);

// Who wrote the module text, which decides how a parse failure is read.
enum class Origin {
  Crosscheck, // our emitter or a user's file: a parse error is not a finding
  External,   // output of the compiler under test
};

struct LowerRequest {
  const std::string *module = nullptr; // MLIR text
  Origin origin = Origin::Crosscheck;
  std::string originName; // "emitted module", "output of CMD"
  std::string funcName;   // function to run
  std::string pipeline;   // textual pass pipeline
  int llvmOptLevel = 0;
  // Told the stage about to run: "parse", "pass NAME", "jit", "execute"
  // (the isolated worker keeps it where a crash or timeout can name it).
  void (*onStage)(const char *stage) = nullptr;
  // What lowerAndRun and lowerAndRunSets run (in the worker when
  // isolated): compile once, run once per set, every set's outputs in one
  // list. lowerAndRunSetsInProcess, the CPU JIT, when null. The GPU
  // backend (backends/cuda) passes its own: compile to PTX, ptxas, launch.
  using InProcess = Expected<Outputs> (*)(
      const LowerRequest &req, const std::vector<TensorType> &resultTypes,
      const InputSets &sets, StageTimes *times, PassCoverage *coverage);
  InProcess inProcess = nullptr;
  // Enter the sandbox (process/Sandbox.h) before running the compiled
  // code: set in the isolated worker, which alone may enter it.
  bool sandboxed = false;
};

// Tells req.onStage the stage about to run, when set.
void reportStage(const LowerRequest &req, const char *stage);

// A failure of crosscheck's completing lowering on an external compiler's
// valid output (`how`: "failed in pass X", then `detail`: ": diagnostic"):
// crosscheck's problem, never the compiler's finding, so the case is
// skipped, saying why.
Error completionFailure(const LowerRequest &req, const std::string &how,
                        const std::string &detail);

// The straight lowering's own passes (Straight.cpp), once per process.
void registerStraightPasses();

// Passes, native target, runtime libraries: once per process. Called before
// forking so that workers start ready.
void initializeMlir();

// Parses, lowers with the pipeline, JIT-compiles and runs funcName on the
// inputs in this process; outputs are preallocated with resultTypes.
// Records "lower", "jit" and "execute" into times when non-null, and the
// pipeline's pass and pattern coverage (Coverage.h) into coverage.
Expected<Outputs> lowerAndRunInProcess(
    const LowerRequest &req, const std::vector<TensorType> &resultTypes,
    const Inputs &inputs, StageTimes *times, PassCoverage *coverage = nullptr);

// lowerAndRunInProcess compiling once and running the function once per
// set: every set's outputs, in order, in one list.
Expected<Outputs> lowerAndRunSetsInProcess(
    const LowerRequest &req, const std::vector<TensorType> &resultTypes,
    const InputSets &sets, StageTimes *times, PassCoverage *coverage);

// The same in a forked worker when options.isolate (Isolate.cpp): a crash
// is ErrorCode::CompilerFailure naming the signal, the stage and the stack,
// a run past options.limits.timeoutSeconds is ErrorCode::Timeout. Adds the
// worker's overhead to options.times as "isolate"; the worker's coverage
// comes back into options.passCoverage.
Expected<Outputs> lowerAndRun(const LowerRequest &req,
                              const std::vector<TensorType> &resultTypes,
                              const Inputs &inputs, const RunOptions &options);

// lowerAndRun for several input sets: one result per set, each as
// lowerAndRun would give it. Compiles once for all of them in one worker,
// under options.limits.timeoutSeconds for the whole; a failure while compiling
// is every set's, a crash or hang while executing ("execute", "teardown",
// "launch") is attributed by running each set alone.
std::vector<Expected<Outputs>>
lowerAndRunSets(const LowerRequest &req,
                const std::vector<TensorType> &resultTypes,
                const InputSets &sets, const RunOptions &options);

// process::noteOutOfMemoryIn(cell), and LLVM's own failed allocations (which
// abort rather than throw) marked in the cell too: for forked children that
// run MLIR or LLVM under a memory limit.
void noteLlvmOutOfMemoryIn(process::StageCell &cell);

// Checks that a pipeline string parses against the registered passes.
Error checkPipeline(const std::string &pipeline);

} // namespace cc::mlirbackend
