// The topology generator: random graphs over the op table, valid by
// construction (every node's operand types are sampled from its op entry and
// checked by its type rule when it is placed).
#pragma once

#include "core/Graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cc {

// Shapes of graph that real models have.
enum class Family {
  Random,    // ops over any earlier values: a random DAG
  Chain,     // each op consumes the previous op's result
  Residual,  // chains with skip connections merged back by add/sub/max/...
  Branch,    // a value fans out into branches that are merged again
  Attention, // q.k^T, softmax from primitives, times v
  ConvStack, // conv2d / depthwise / pooling stacks with activations
  Mlp,       // matmul + bias + activation layers
  Mixed,     // blocks of all the above, one after another
};

// Names as on the command line ("random", "chain", ..., "mixed").
std::vector<std::string> familyNames();
Expected<Family> parseFamily(const std::string &name);

struct GenOptions {
  // Op nodes per graph (constants not counted), drawn in [minOps, maxOps].
  int minOps = 5;
  int maxOps = 10;
  Family family = Family::Mixed;
  // Ops the generator may place; empty: every op of the table. `exclude`
  // wins over `include`. Excluding "const" leaves only runtime inputs.
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  // Relative weight of each op when one is drawn (default 1).
  std::map<std::string, double> weights;
  // Every value of the graph has one of these dtypes; empty: all graph dtypes.
  std::vector<DType> dtypes;
  // Every value has a rank in [minRank, maxRank] (conv and pooling need 4,
  // matmul and gather 3).
  int minRank = 1;
  int maxRank = 4;
  // No tensor of the graph has more elements than this.
  int64_t maxElements = 256;
  // Share of fresh leaf operands that are constants rather than inputs.
  double constRate = 0.3;
  // The MLIR release whose TOSA every compiler under test reads (22, or 19
  // for mlir-opt-19): a graph the op table's emission cannot express there
  // (nan_mode IGNORE, float argmax in 19) is drawn again, so that a
  // campaign against an older release tests rather than skips.
  int mlirSyntax = 22;
};

// A graph that passes cc::verify, identical for the same (options, seed) on
// every machine; its name is "gen_<seed>". Fails only when the options admit
// no graph (e.g. every op excluded, or no op fits the dtypes and ranks).
Expected<Graph> generateGraph(const GenOptions &options, uint64_t seed);

// `base` grown by [minOps, maxOps] more op nodes, placed as generateGraph
// places them (family blocks and random steps, over base's values as well
// as the new ones): the fuzz mutator's largest edit. base's nodes, inputs
// and outputs stay; every new value that nothing consumes is an output.
Expected<Graph> extendGraph(const Graph &base, const GenOptions &options,
                            uint64_t seed);

// How often each op occurs per dtype (that of operand 0; a constant's own),
// accumulated over graphs: the generator's reach.
using OpStats = std::map<std::string, std::map<DType, int64_t>>;
void addOpStats(const Graph &g, OpStats &stats);

} // namespace cc
