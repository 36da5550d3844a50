// The input of the libFuzzer targets: a graph with the seed of its input
// tensors and the choice of compiler, and the structure-aware mutations
// that keep it valid.
//
// Bytes are a compact JSON object {"graph": ..., "input_seed": N, "cut": K}.
// Every byte string decodes to a valid graph: bytes that are not such an
// object (libFuzzer's own byte mutations, an empty input) pick the
// generator's options and seed from the bytes and generate one. The custom
// mutator works on the graph itself (insert, remove and replace ops, change
// dtypes, shapes, attributes and constants, make the pairs that canonical
// forms match: twin operands, shared operands, chains with splat
// constants; now and then it draws a fresh graph as the generator campaign
// does) and re-derives every type from the op table, so a mutation is
// local and its result is always a graph that passes cc::verify and the
// limits below (acceptableGraph). It keeps graphs near the generator's
// size: executions slow down with every op.
#pragma once

#include "core/Graph.h"
#include "harness/fuzz/Schedule.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace cc::fuzz {

struct FuzzCase {
  Graph graph;
  uint64_t inputSeed = 0; // makeInputs(graph, inputSeed)
  uint32_t cut = 0;       // compiler under test: index modulo their count
};

// Limits that keep one execution fast.
inline constexpr int kMaxOps = 16;            // non-const nodes
inline constexpr int64_t kMaxElements = 1024; // per tensor
inline constexpr int kMaxRank = 4;

std::string encodeCase(const FuzzCase &c);
// Never fails (see above).
FuzzCase decodeCase(const uint8_t *data, size_t size);

// Whether g passes cc::verify and the fuzzer's limits: op count, tensor
// sizes, ranks, at least one output and no output that is a graph input.
// *why says what is wrong. (Mutations feed operands with a value domain,
// such as a divisor, only from inputs or constants; a graph whose computed
// values leave a domain is undefined on the reference and skipped.)
bool acceptableGraph(const Graph &g, std::string *why = nullptr);

struct MutationOptions {
  // Edge-value mutations (splat constants of 0, -0, 1, ..., ops with small
  // splat constants; attributes at their extremes). They reach known
  // upstream bugs within a few hundred executions (the tosa.mul x*0 fold,
  // arith-expand's maximumf on signed zeros), so a run that must stay free
  // of findings on tosa-O0 turns them off (CC_FUZZ_EDGES=0).
  bool edges = true;
};

// One random structure-aware mutation (a few edits at once), deterministic
// in seed; the result is always acceptable (when no edit fits, only the
// input seed changes).
FuzzCase mutateCase(const FuzzCase &c, uint64_t seed,
                    const MutationOptions &options = {});
// The same with the strategy chosen (Schedule.h). A strategy that does not
// apply falls back to edits, and edits that all fail to a new input seed;
// *used says which ran.
FuzzCase mutateCase(const FuzzCase &c, uint64_t seed, Strategy strategy,
                    Strategy *used = nullptr,
                    const MutationOptions &options = {});
// Splices a window of b's ops (at most four, with the constants they read)
// into a, feeding some of their other operands from a's values of the same
// type; acceptable like mutateCase (a itself when nothing fits, or when a
// has no room left to grow).
FuzzCase crossOver(const FuzzCase &a, const FuzzCase &b, uint64_t seed);

// LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver on bytes: the
// encoded result if it fits into maxSize, else a smaller variant (a
// mutation of the smaller parent, or the input as it was); a cross-over
// with no room for a splice is a mutation of the first parent. Return the
// size. With a schedule, it picks the strategy (in a cross-over too) and
// is told which made the result (Schedule::chose); without, the fixed
// tuning.
size_t mutateBytes(uint8_t *data, size_t size, size_t maxSize, uint64_t seed,
                   Schedule *schedule = nullptr,
                   const MutationOptions &options = {});
size_t crossOverBytes(const uint8_t *a, size_t sizeA, const uint8_t *b,
                      size_t sizeB, uint8_t *out, size_t maxOut, uint64_t seed,
                      Schedule *schedule = nullptr,
                      const MutationOptions &options = {});

} // namespace cc::fuzz
