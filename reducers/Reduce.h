// Reducers: shrink a finding to a minimal test case that shows the *same*
// failure (same Signature kind, stage and detail), so that reduction never
// slips onto another bug.
//
//   graph     delta debugging over ops (removed ops' results become leaves
//             holding the values they had), outputs, then constants and
//             inputs (zeros, ones, splats), attributes (defaults, zeros,
//             ones), shapes and float dtypes, repeated to a fixpoint; the
//             result is 1-minimal with respect to removing any single op
//   pipeline  for mlir:NAME and mlir:pipeline=TEXT cuts, the smallest
//             sub-pipeline that still fails the same way, and the first
//             pass after which it fails (opt-bisect style)
//
// Every candidate is checked by re-running it (cc::runDifferential) unless an
// identical one was seen before (a cache keyed by a hash of the case). The
// best case so far is written to disk after every accepted step.
#pragma once

#include "oracles/FindingFile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cc {

struct ReduceOptions {
  double budgetSeconds = 300; // wall-clock budget of the whole reduction
  int64_t maxCalls = 0;       // oracle calls (case runs); 0: no limit
  int jobs = 1;               // candidates judged in parallel (forked)
  // When non-empty, DIR/finding.json and DIR/graph.json always hold the
  // best case so far (replaced atomically after each accepted step).
  std::string outDir;
  bool reduceGraph = true;
  bool reducePipeline = true;
  // A campaign's triage: only ops and outputs are removed (no simpler
  // leaves, attributes, shapes or dtypes), and the pipeline is bisected
  // for its culprit without first being made smallest.
  bool quick = false;
  // Progress lines ("ops: 20 -> 7"), when set.
  std::function<void(const std::string &)> log;
};

struct ReduceStats {
  int64_t oracleCalls = 0; // candidates actually run
  int64_t cacheHits = 0;   // candidates answered from the cache
  int64_t invalid = 0;     // rejected before the compiler ran: invalid
                           // graph or undefined behaviour in the reference
  int64_t accepted = 0;    // steps that kept a smaller case
  double seconds = 0;
  int opsBefore = 0, opsAfter = 0;               // nodes other than constants
  int64_t elementsBefore = 0, elementsAfter = 0; // elements of all leaves
  bool budgetExhausted = false;
};

struct ReduceResult {
  FindingRecord reduced; // same format as the input, re-judged
  ReduceStats stats;
  // Pipeline reduction: the leaf passes before and after, and the first
  // pass after which the failure shows (empty when not computable); whether
  // the pipeline was bisected at all.
  std::vector<std::string> passesBefore, passesAfter;
  std::string firstFailingPass;
  bool bisected = false;
};

// Reduces a finding. An error when the case does not show its own
// signature (ErrorCode::NotReproduced) or when DIR cannot be written.
Expected<ReduceResult> reduceFinding(const FindingRecord &finding,
                                     const ReduceOptions &options = {});

// The culprit of a finding on an mlir:NAME or mlir:pipeline= cut, its case
// left as it is: the pipeline bisected as a campaign's triage bisects it
// (prefixes, then removal); "" when not computable within the budget.
Expected<std::string> bisectCulprit(const FindingRecord &finding,
                                    ReduceOptions options);

// The finding a test case shows now (a Finding record with the case), an
// ErrorCode::NotReproduced error when it passes, or the case's own error
// (undefined behaviour, unsupported graph). For `crosscheck reduce CASE`.
// A program case is also judged against its encoding's value with
// smtReference (fuzz --ref smt).
Expected<FindingRecord> judgeCase(const TestCase &c, bool smtReference = false);

// Ops of a graph, constants not counted.
int countOps(const Graph &g);

// ---- The generic delta-debugging engine (reducers/DeltaDebug.cpp) ----

// Answers batches of candidate keep-sets: the index of the first one that
// still fails the same way, or -1 (also when the budget is spent).
using FirstPassing =
    std::function<int(const std::vector<std::vector<int>> &candidates)>;

// ddmin (Zeller & Hildebrandt) over `items`, keeping at least `minKeep` of
// them: the result is 1-minimal (no single item can be dropped) unless
// `stop` says the budget is spent. Candidates of one granularity go to
// `firstPassing` together so that they can be judged in parallel; the first
// accepted in order wins, so the result does not depend on parallelism.
std::vector<int> ddmin(std::vector<int> items, const FirstPassing &firstPassing,
                       const std::function<bool()> &stop, size_t minKeep = 0);

} // namespace cc

namespace cc {

// ---- The MLIR-level reducer (reducers/MlirReducer.cpp) ----

struct MlirReduceResult {
  std::string module;
  int opsBefore = 0, opsAfter = 0; // ops of the module (itself left out)
  int simplified = 0;      // attributes dropped and constants made splats
  int64_t oracleCalls = 0; // calls of the predicate
  int64_t cacheHits = 0;   // candidates answered from the cache
  int64_t invalid = 0;     // candidates that did not verify
  int64_t ubRejected = 0;  // candidates with (new) undefined behaviour
};

// Shrinks an MLIR module, to a fixpoint: the outputs of cleanup pipelines
// (inline, symbol-dce, canonicalize, cse) when smaller; structural edits
// (unused functions and globals, dead ops and loop nests, result-less ops,
// scf.for loops that run at least once cut to their first iteration,
// function arguments and results with their call sites, ops replaced by
// zero constants or ub.poison of their types); ddmin over the lines that
// define one value (uses rewired to an earlier value of the same type);
// then attributes dropped and dense constants made zero splats. Every
// candidate verifies, and a static scan rejects it before `stillFails` is
// asked when it has undefined behaviour the input does not have: a loop
// step that is not positive, an index outside a static dimension, or more
// steps and indices of unknown range. Identical candidates are judged once.
// With options.jobs > 1, up to that many candidates are judged at once on
// threads (`stillFails` must then be thread-safe); the first that fails in
// order wins, as with one job. With options.outDir, DIR/reduced.mlir
// always holds the best module so far. An error when `module` itself does
// not verify or does not fail.
Expected<MlirReduceResult>
reduceMlir(const std::string &module,
           const std::function<bool(const std::string &)> &stillFails,
           const ReduceOptions &options = {});

} // namespace cc
