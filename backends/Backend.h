// The Backend interface: one implementation per compiler under test or
// reference. A backend runs a graph on concrete inputs and returns its
// outputs, or an error that says what went wrong.
#pragma once

#include "core/Error.h"
#include "core/Graph.h"
#include "core/Tensor.h"
#include "process/Limits.h"

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cc {

using Inputs = std::vector<Tensor>;  // in the order of Graph::inputs
using Outputs = std::vector<Tensor>; // in the order of Graph::outputs
// Several input sets of one graph (Backend::runSets).
using InputSets = std::vector<const Inputs *>;

struct Support {
  bool ok = true;
  std::string reason; // why not, when !ok (unsupported is not a bug)
  static Support yes() { return {}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
};

// Time spent in each stage of a run, in seconds, keyed by stage name
// ("emit", "lower", "jit", "execute", "reference").
using StageTimes = std::map<std::string, double>;

// Adds the seconds since `start` to `stage` of *times; returns them.
inline double addStageTime(StageTimes *times, const std::string &stage,
                           std::chrono::steady_clock::time_point start) {
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (times)
    (*times)[stage] += s;
  return s;
}

// Semantic coverage of a compiler run: (kind, name) -> how often. Kinds:
// "pass" (a pass that changed the IR), "pattern" (a rewrite pattern that
// fired, by its debug name), "path" (the sequence of passes that changed the
// IR, hashed: the lowering path taken).
using PassCoverage = std::map<std::pair<std::string, std::string>, int64_t>;

struct RunOptions {
  // The run's time and (for the isolated run or an external command)
  // address-space limit. Exceeding the memory limit is a finding ("ran out
  // of memory"), not a crash of crosscheck.
  RunLimits limits;
  StageTimes *times = nullptr; // filled when non-null
  // Filled (added to) when non-null, by backends that can observe their
  // passes (the in-process MLIR pipeline); others leave it alone.
  PassCoverage *passCoverage = nullptr;
  // Run the compiler under test in a forked worker process, so that its
  // crash or hang becomes a finding instead of killing crosscheck. A harness
  // that runs cases in its own workers may turn it off.
  bool isolate = true;
};

// What the compiler under test did when it failed, as the backend saw it:
// the facts an ErrorCode::CompilerFailure or ErrorCode::Timeout error
// carries (Error::detail), which the oracles key a finding's kind and
// signature on. The error's message, which users read, is rendered from
// them and never read back.
struct CompilerFault {
  enum class Kind {
    Failed,         // it exited with an error status, or its output is no
                    // program (garbage, nothing, more than allowed)
    PassFailed,     // a pass signalled failure
    VerifierFailed, // it produced IR that fails the MLIR verifier
    Crashed,        // a signal killed it
    OutOfMemory,    // it ran out of RunLimits::memoryBytes
    TimedOut,
  };
  Kind kind = Kind::Failed;
  // Where: the pass, or the stage of the MLIR lowering ("parse", "jit",
  // "execute", "teardown"); empty when the backend names none.
  std::string stage;
  int signal = 0; // Crashed (and OutOfMemory, when one killed it)
  // The stack crosscheck's isolated worker saw, innermost first: "symbol
  // (file)".
  std::vector<std::string> frames;
  std::string diagnostic; // its own words: diagnostics, stderr (a tail)
};

// The error of a compiler under test that failed: ErrorCode::Timeout when
// it timed out, else ErrorCode::CompilerFailure, carrying `fault`.
inline Error compilerFault(std::string message, CompilerFault fault) {
  ErrorCode code = fault.kind == CompilerFault::Kind::TimedOut
                       ? ErrorCode::Timeout
                       : ErrorCode::CompilerFailure;
  return Error::failure(std::move(message), code, std::move(fault));
}
// A fault of this kind at this stage, with the compiler's own words.
inline Error compilerFault(std::string message, CompilerFault::Kind kind,
                           std::string stage = "",
                           std::string diagnostic = "") {
  CompilerFault f;
  f.kind = kind;
  f.stage = std::move(stage);
  f.diagnostic = std::move(diagnostic);
  return compilerFault(std::move(message), std::move(f));
}

// A mid-level MLIR program (generators/Program.h) as backends run it: a
// module whose public function `name` takes and returns ranked, statically
// shaped tensors.
struct MlirProgram {
  std::string name = "main";
  std::string mlir;
  std::vector<TensorType> args, results;
  // Where a seed program came from ("Arith-canonicalize.mlir, chunk 12,
  // @fold"); empty for generated programs, which are free of undefined
  // behaviour by construction (a seed program is checked case by case).
  std::string source = {};
  bool operator==(const MlirProgram &) const = default;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual Support supports(const Graph &g) const = 0;
  virtual Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                                const RunOptions &options) = 0;
  // The graph on several input sets: one result per set, each what run()
  // gives. Backends that can compile once for all sets override it.
  virtual std::vector<Expected<Outputs>>
  runSets(const Graph &g, const InputSets &sets, const RunOptions &options) {
    std::vector<Expected<Outputs>> results;
    for (const Inputs *inputs : sets)
      results.push_back(run(g, *inputs, options));
    return results;
  }
  // A program on several input sets, one result per set. Backends that
  // compile MLIR override it; to the others a program is unsupported.
  virtual std::vector<Expected<Outputs>>
  runProgramSets(const MlirProgram &p, const InputSets &sets,
                 const RunOptions &options) {
    (void)p, (void)options;
    return std::vector<Expected<Outputs>>(
        sets.size(), Error::failure(name() + " does not run MLIR programs",
                                    ErrorCode::Unsupported));
  }
};

// Runs another backend with RunOptions::passCoverage pointing at `sink`,
// for callers whose runs go through code that builds RunOptions itself (the
// oracles). Not thread-safe; the inner backend must outlive it.
class CoverageTap : public Backend {
public:
  CoverageTap(Backend &inner, PassCoverage &sink) : inner(inner), sink(sink) {}
  std::string name() const override { return inner.name(); }
  Support supports(const Graph &g) const override { return inner.supports(g); }
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    RunOptions tapped = options;
    tapped.passCoverage = &sink;
    return inner.run(g, inputs, tapped);
  }
  std::vector<Expected<Outputs>> runSets(const Graph &g, const InputSets &sets,
                                         const RunOptions &options) override {
    RunOptions tapped = options;
    tapped.passCoverage = &sink;
    return inner.runSets(g, sets, tapped);
  }
  std::vector<Expected<Outputs>>
  runProgramSets(const MlirProgram &p, const InputSets &sets,
                 const RunOptions &options) override {
    RunOptions tapped = options;
    tapped.passCoverage = &sink;
    return inner.runProgramSets(p, sets, tapped);
  }

private:
  Backend &inner;
  PassCoverage &sink;
};

} // namespace cc
