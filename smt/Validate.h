// Translation validation with Z3: does a target MLIR function refine its
// source? Checks single function pairs (crosscheck tv), every pass of a
// pipeline and every rewrite of its greedy pattern passes (crosscheck
// verify-pass, crosscheck fuzz --tv). This header includes no MLIR or Z3
// headers.
#pragma once

#include "core/Error.h"
#include "process/Limits.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace cc::smt {

// Approximate: the target computes a math function by a formula of its
// own, within TvOptions::ulpBound of the source on the inputs run (MLIR
// documents no accuracy for math functions), and no NaN for a number or
// the reverse but at ±0 and ±inf.
enum class TvVerdict { Correct, Incorrect, Unknown, Timeout, Approximate };
const char *verdictName(TvVerdict v);

// Exit status of `crosscheck tv` / `verify-pass` for the worst verdict seen:
// 0 correct, 1 incorrect, 2 error (bad input), 3 unknown, 4 timeout,
// 5 approximate.
int verdictExitCode(TvVerdict v);
// Incorrect > Timeout > Unknown > Approximate > Correct.
TvVerdict worstVerdict(TvVerdict a, TvVerdict b);

struct TvOptions {
  std::string function;       // only this function (empty: all)
  unsigned timeoutMs = 10000; // per solver query
  // Z3 resource limit per solver check (0: none). Unlike the wall-clock
  // timeout it gives the same verdict on a loaded machine as on a quiet one.
  unsigned rlimit = 0;
  // Replay counterexamples through the JIT; only a confirmed difference is
  // `incorrect`, else `unknown (spurious counterexample)`.
  bool confirm = true;
  // Refine abstract floats to Z3's IEEE theory when the program has at
  // most this many float operations (per side).
  unsigned maxFpOps = 4096;
  // Solver results are cached here, keyed by a hash of the query (empty:
  // no disk cache).
  std::string cacheDir;
  // Where the check at every size does not decide, dynamic dimensions are
  // instantiated with these sizes (bounded check; the reason says so).
  std::vector<int64_t> dynamicSizes = {2, 3};
  // Where set, the sizes of the arguments' dynamic dimensions, one per
  // dimension in the order of the arguments (a counterexample's sizes
  // from the symbolic check).
  std::vector<int64_t> argDimSizes;
  // Index arguments fixed to these values, by position (with argDimSizes:
  // a counterexample's slice offsets and sizes).
  std::map<unsigned, int64_t> indexArgValues;
  // scf.for and scf.while whose trip count is not a constant are unrolled
  // this many times; a loop that may run longer makes a check `unknown`.
  unsigned loopBound = 8;
  // A formula farther than this from the source, in units in the last
  // place, is incorrect rather than approximate.
  double ulpBound = std::numeric_limits<double>::infinity();
  // The files the MLIR came from, for the locations in parse errors.
  std::string sourceName = "source.mlir";
  std::string targetName = "target.mlir";
};

// The result of validating one function pair.
struct FunctionCheck {
  std::string function;
  TvVerdict verdict = TvVerdict::Unknown;
  std::string reason;         // why (unknown/timeout), or a note (correct)
  std::string counterexample; // inputs and both outputs (incorrect)
  double seconds = 0;
  bool internalError = false; // the encoder failed (reason says where)
};

// Hears the functions about to be checked, in order, then each check as
// soon as it ends.
struct RefinementProgress {
  std::function<void(const std::vector<std::string> &)> planned;
  std::function<void(const FunctionCheck &)> checked;
};

// Checks that every function of `tgt` (MLIR text) refines its namesake in
// `src`. Unparsable input, a missing function or mismatched signatures is
// an Error with one clear message.
Expected<std::vector<FunctionCheck>>
checkRefinement(const std::string &src, const std::string &tgt,
                const TvOptions &options,
                const RefinementProgress &progress = {});

// checkRefinement in a forked child under `limits`, a budget for the whole
// run: the check running when the time or the memory is spent is
// `unknown` saying so, those after it are `unknown (not checked)`, those
// before it are kept. A crash of the child is an Error (crosscheck's bug).
// The caller must be single-threaded (it forks).
Expected<std::vector<FunctionCheck>>
checkRefinementBounded(const std::string &src, const std::string &tgt,
                       const TvOptions &options, const RunLimits &limits);

// One validated step of a pipeline: a pass, or a single rewrite of a greedy
// pattern pass (pattern names it).
struct StepCheck {
  std::string pass;
  std::string pattern; // empty for a whole pass
  std::string function;
  TvVerdict verdict = TvVerdict::Unknown;
  std::string reason;
  double seconds = 0;
  std::string before, after; // the function's IR (incorrect only)
  std::string counterexample;
  bool cached = false; // identical before/after or a repeated query
};

// Runs `pipeline` (textual, may omit builtin.module(...)) on `module` and
// validates every pass that changed a function; with perRewrite, each
// rewrite is validated too: canonicalize is stepped one rewrite at a time
// (folds included), other greedy pattern passes are watched one pattern
// application at a time (dialect conversions are not: their IR between two
// patterns is not a program). Bad input or an invalid pipeline is an Error; a
// pass that fails is an Error naming it. onStep sees each step as soon as it is
// checked.
// onPass hears the name of each pass before it runs, and "" after it (before
// its check).
using StepCallback = std::function<void(const StepCheck &)>;
using PassCallback = std::function<void(const std::string &pass)>;
Expected<std::vector<StepCheck>>
verifyPipeline(const std::string &module, const std::string &pipeline,
               const TvOptions &options, bool perRewrite = false,
               const StepCallback &onStep = {},
               const PassCallback &onPass = {});

// Parses the module and the pipeline without running anything: the errors
// verifyPipeline would give for bad input.
Error checkPipelineInput(const std::string &module, const std::string &pipeline,
                         const TvOptions &options);

// verifyPipeline in a forked child killed after budgetSeconds (no limit when
// infinite): Z3 and the pipeline cannot be interrupted, and neither may hang
// or crash the caller.
// The steps checked before the end are kept in every case. The caller must
// be single-threaded (it forks).
struct BoundedCheck {
  enum class End { Finished, OutOfTime, Crashed, Failed };
  End end = End::Finished;
  std::string error; // Failed: verifyPipeline's error; Crashed: the signal
  // Crashed by running out of RunLimits' memory (error says so).
  bool outOfMemory = false;
  std::string pass; // OutOfTime, Crashed: the pass that was running, if any
  std::vector<StepCheck> steps;
  double seconds = 0;
};
BoundedCheck
verifyPipelineBounded(const std::string &module, const std::string &pipeline,
                      const TvOptions &options, bool perRewrite,
                      double budgetSeconds,
                      uint64_t memoryBytes = RunLimits().memoryBytes);

} // namespace cc::smt
