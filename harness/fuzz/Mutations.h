// The mutator's edits (internal to harness/fuzz): a table with one entry
// per mutation (its name, function and weight), as libFuzzer's
// FuzzerMutate.cpp lists its mutators, and the tuning that the strategies
// (Mutate.cpp, CrossOver.cpp) share with it.
#pragma once

#include "harness/fuzz/GraphEdit.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace cc::fuzz {

// --- tuning of the mutator (one place) ---------------------------------

// Measured with bench/MutationBench.cpp (distinct def-use pairs after 2,000
// mutations from the seeds: 910 with one edit per mutation, no growOps and
// 5% splices; 1,451 with these). How often each strategy (fresh graph,
// splice, edits, ...) runs is the Schedule's (Schedule.cpp).
constexpr int kMaxEdits = 3;
constexpr double kMoreEditsChance = 0.5;
// An inserted op repeats the op that produced its operand this often.
constexpr double kRepeatChance = 0.3;

// Graph size. Executions slow down with every op, and libFuzzer stacks
// mutations (and cross-overs) on its mutants: without a pull back, corpus
// graphs drifted to kMaxOps (mean 15.5 ops, 4.3 executions/s). Edits that
// add several ops at once (growOps, splices) stay within kGrowLimit, about
// the generator's mean graph; above it, a mutation starts by removing an op.
constexpr int kGrowLimit = 8;
constexpr int kMaxSpliceOps = 4;

// --- the table ------------------------------------------------------------

// How an edited copy becomes the result: rebuilt (GraphEdit.h finish),
// rebuilt with its constants re-drawn, or (a whole new graph) only checked.
enum class After { Rebuild, RedrawConstants, Check };

struct Mutation {
  const char *name;
  // Edits the copy e in place; false when it does not apply.
  bool (*edit)(Graph &e, Rng &rng);
  double weight; // how often it is drawn, relative to the others
  After after = After::Rebuild;
  bool edge = false; // an edge-value mutation (MutationOptions::edges)
};
// In the order the weights draw them.
const std::vector<Mutation> &mutations();

// m on a copy of g, and the copy made the result as m.after says; nullopt
// when m does not apply or its result is not acceptable.
std::optional<Graph> applyMutation(const Mutation &m, const Graph &g, Rng &rng);

// One mutation of g drawn from the table (up to 24 tries; the edge-value
// mutations only with `edges`); nullopt when none fits.
std::optional<Graph> editOnce(const Graph &g, Rng &rng, bool edges);

// --- mutations the strategies use on their own ---------------------------

bool removeOp(Graph &e, Rng &rng);
// Precision variants of the generator change every float dtype at once.
std::optional<Graph> precisionVariant(const Graph &g, Rng &rng);
// The generator's options and seed taken from the bytes (FuzzCase.cpp):
// decodeCase's graph for bytes that are no encoded case, and the source of
// splices.
Graph generatedFromBytes(const uint8_t *data, size_t size);

// --- the edge-value mutations (EdgeMutations.cpp) -------------------------

bool edgeAttr(Graph &e, Rng &rng);
bool splatConst(Graph &e, Rng &rng);
bool constOperandOps(Graph &e, Rng &rng);

} // namespace cc::fuzz
