// crossOver: a window of one graph's ops spliced into another (see
// FuzzCase.h).
#include "harness/fuzz/FuzzCase.h"

#include "harness/fuzz/Mutations.h"

#include <algorithm>

namespace cc::fuzz {
namespace {

// a with copies of gb's nodes at `window` (op nodes, in node order) added:
// the constants they read come along, other values they read come from a's
// values of the same type or new inputs. nullopt when the result does not
// fit.
std::optional<Graph> splice(const Graph &a, const Graph &gb,
                            const std::vector<size_t> &window, Rng &rng) {
  // Values from outside the window that a window op reads only where any
  // value will do may come from a's values of the same type.
  std::vector<bool> anyValue(gb.values.size(), true);
  for (size_t k : window)
    for (size_t i = 0; i < gb.nodes[k].operands.size(); ++i)
      if (opDef(gb.nodes[k].op).domain(i) != Domain::Any)
        anyValue[size_t(gb.nodes[k].operands[i])] = false;
  Graph e = a;
  std::vector<ValueId> map(gb.values.size(), -1);
  auto source = [&](ValueId v) {
    if (map[size_t(v)] >= 0)
      return map[size_t(v)];
    const TensorType &t = gb.typeOf(v);
    int32_t p = gb.values[size_t(v)].producer;
    if (p >= 0 && gb.nodes[size_t(p)].op == OpId::Const) {
      // Constants come along: folds and canonical forms need them.
      Node c = gb.nodes[size_t(p)];
      c.results = {freshResult(e)};
      e.nodes.push_back(c);
      return map[size_t(v)] = c.results[0];
    }
    std::vector<ValueId> same;
    for (ValueId w = 0; anyValue[size_t(v)] && w < ValueId(a.values.size());
         ++w)
      if (a.values[size_t(w)].type == t)
        same.push_back(w);
    return map[size_t(v)] = !same.empty() && rng.chance(0.7) ? rng.pick(same)
                                                             : freshInput(e, t);
  };
  for (size_t k : window) {
    Node copy = gb.nodes[k];
    for (ValueId &v : copy.operands)
      v = source(v);
    for (ValueId &r : copy.results) {
      ValueId fresh = freshResult(e);
      map[size_t(r)] = fresh;
      r = fresh;
    }
    e.nodes.push_back(copy);
  }
  // rebuild makes the window's unused results outputs.
  return finish(e, rng);
}
} // namespace

FuzzCase crossOver(const FuzzCase &a, const FuzzCase &b, uint64_t seed) {
  Rng rng(seed);
  const Graph &gb = b.graph;
  const std::vector<size_t> ops = opNodes(gb);
  int room = std::min(kMaxSpliceOps, kGrowLimit - int(opNodes(a.graph).size()));
  for (int attempt = 0; attempt < 8 && room >= 1 && !ops.empty(); ++attempt) {
    // A window of b's op nodes, consecutive in node order.
    size_t len =
        size_t(rng.uniformInt(1, std::min<int64_t>(room, int64_t(ops.size()))));
    size_t first = size_t(rng.uniformInt(0, int64_t(ops.size() - len)));
    std::vector<size_t> window(ops.begin() + long(first),
                               ops.begin() + long(first + len));
    if (auto g = splice(a.graph, gb, window, rng)) {
      FuzzCase out = a;
      out.graph = std::move(*g);
      out.inputSeed = rng.chance(0.5) ? a.inputSeed : b.inputSeed;
      return out;
    }
  }
  return a;
}

} // namespace cc::fuzz
