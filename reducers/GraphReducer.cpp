// The graph reducer: ddmin over ops and outputs, then simpler leaves,
// attributes, shapes and dtypes, repeated until nothing changes.
//
// A removed op's results become leaves that hold the values the reference
// computed for them: a constant when the op only depended on constants (so
// that folders still see a constant), a new graph input otherwise (so that
// lowerings still see a runtime value). Downstream ops thus see the same
// numbers, which keeps most failures alive while the graph shrinks.
#include "reducers/Internal.h"

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace cc::reduce {

namespace {

bool isLeafNode(const Node &n) { return n.operands.empty(); }

// The op that holds a constant tensor: no operands and one tensor attribute
// (found in the table, so that no op name is spelled here).
const OpDef &constantOp() {
  static const OpDef *def = [] {
    for (const OpDef &op : allOps())
      if (op.maxOperands == 0 && op.attrs.size() == 1 &&
          op.attrs[0].kind == AttrKind::Tensor)
        return &op;
    return static_cast<const OpDef *>(nullptr);
  }();
  return *def;
}

// Name of the tensor attribute of a leaf node, empty when it has none.
std::string tensorAttr(const Node &n) {
  for (const AttrSpec &a : opDef(n.op).attrs)
    if (a.kind == AttrKind::Tensor)
      return a.name;
  return "";
}

// A leaf: a graph input or the result of a constant node.
struct Leaf {
  ValueId value;
  int node = -1; // constant node index, -1 for a graph input
  size_t input = 0;
};

std::vector<Leaf> leavesOf(const Graph &g) {
  std::vector<Leaf> out;
  for (size_t k = 0; k < g.inputs.size(); ++k)
    out.push_back({g.inputs[k], -1, k});
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (isLeafNode(g.nodes[i]) && !tensorAttr(g.nodes[i]).empty())
      out.push_back({g.nodes[i].results.at(0), int(i), 0});
  return out;
}

const Tensor &leafTensor(const TestCase &c, const Leaf &l) {
  if (l.node < 0)
    return c.inputs.at(l.input);
  const Node &n = c.graph.nodes[size_t(l.node)];
  return n.attrs.getTensor(tensorAttr(n));
}

// 0 zeros, 1 ones, 2 another splat, 3 anything else.
int complexity(const Tensor &t) {
  if (t.size() == 0)
    return 0;
  double first = t.asDouble(0);
  for (int64_t i = 1; i < t.size(); ++i) {
    double v = t.asDouble(i);
    if (!(v == first || (std::isnan(v) && std::isnan(first))))
      return 3;
  }
  if (first == 0 && !std::signbit(first))
    return 0;
  return first == 1 ? 1 : 2;
}

int64_t attrMagnitude(const Attrs &attrs) {
  int64_t m = 0;
  for (const auto &[name, v] : attrs.all()) {
    if (const auto *i = std::get_if<int64_t>(&v))
      m += std::abs(*i);
    else if (const auto *is = std::get_if<std::vector<int64_t>>(&v))
      for (int64_t x : *is)
        m += std::abs(x);
    else if (const auto *b = std::get_if<bool>(&v))
      m += *b;
  }
  return m;
}

// What the reducer minimizes, in order of importance. Every accepted step
// lowers it, so the fixpoint loop terminates.
using Cost = std::array<int64_t, 7>;
Cost costOf(const TestCase &c) {
  Cost cost{};
  cost[0] = countOps(c.graph);
  cost[1] = int64_t(c.graph.nodes.size() + c.graph.inputs.size());
  cost[2] = leafElements(c.graph);
  for (const Leaf &l : leavesOf(c.graph)) {
    cost[3] += c.graph.typeOf(l.value).rank();
    cost[4] += complexity(leafTensor(c, l));
  }
  for (const Node &n : c.graph.nodes)
    if (!isLeafNode(n))
      cost[5] += attrMagnitude(n.attrs);
  for (const ValueInfo &v : c.graph.values)
    cost[6] += isFloat(v.type.dtype) && v.type.dtype != DType::f32;
  return cost;
}

// Every value of the graph as the reference computes it (rounded to its
// dtype), for the leaves that replace removed ops.
Expected<std::vector<Tensor>> allValues(const TestCase &c) {
  Graph g = c.graph;
  g.outputs.clear();
  for (size_t v = 0; v < g.values.size(); ++v)
    g.outputs.push_back(ValueId(v));
  CC_ASSIGN(out, interpret(g, c.inputs, Precision::Target));
  for (size_t v = 0; v < out.size(); ++v)
    out[v] = out[v].convertTo(g.values[v].type.dtype);
  return std::move(out);
}

// One candidate, described relative to a case.
struct Edit {
  std::set<int> removeNodes;         // become leaves with their values
  std::map<int, Attrs> attrs;        // replaced attributes of a node
  std::map<ValueId, Tensor> leaves;  // replaced leaf tensors
  std::set<size_t> dropOutputs;      // positions in Graph::outputs
  std::map<size_t, ValueId> outputs; // outputs replaced by other values
  std::map<ValueId, ValueId> rewire; // uses of a value moved to another
  std::map<DType, DType> typeAttrs;  // dtype attributes rewritten
};

// Whether each node computes from constants only (transitively).
std::vector<bool> constantOnly(const Graph &src) {
  std::vector<bool> constOnly(src.nodes.size(), false);
  for (size_t i = 0; i < src.nodes.size(); ++i) {
    bool all = true;
    for (ValueId v : src.nodes[i].operands) {
      int p = src.values[v].producer;
      all = all && p >= 0 && constOnly[size_t(p)];
    }
    constOnly[i] = all;
  }
  return constOnly;
}

// Where the uses of `v` go after the edit's rewiring.
ValueId rewired(const Edit &e, ValueId v) {
  for (auto it = e.rewire.find(v); it != e.rewire.end(); it = e.rewire.find(v))
    v = it->second;
  return v;
}

// The value output `k` of the edited graph is.
ValueId outputAt(const Graph &src, const Edit &e, size_t k) {
  auto it = e.outputs.find(k);
  return rewired(e, it == e.outputs.end() ? src.outputs[k] : it->second);
}

// Liveness from the kept outputs, with removed nodes as leaves.
struct Liveness {
  std::vector<bool> value, node;
};

Liveness liveness(const Graph &src, const Edit &e) {
  Liveness live{std::vector<bool>(src.values.size(), false),
                std::vector<bool>(src.nodes.size())};
  for (size_t k = 0; k < src.outputs.size(); ++k)
    if (!e.dropOutputs.count(k))
      live.value[outputAt(src, e, k)] = true;
  for (size_t i = src.nodes.size(); i-- > 0;) {
    const Node &n = src.nodes[i];
    live.node[i] = std::any_of(n.results.begin(), n.results.end(),
                               [&](ValueId v) { return live.value[v]; });
    if (live.node[i] && !e.removeNodes.count(int(i)))
      for (ValueId v : n.operands)
        live.value[rewired(e, v)] = true;
  }
  return live;
}

// The attributes of node `i` after the edit.
Attrs editedAttrs(const Node &n, size_t i, const Edit &e) {
  Attrs attrs = n.attrs;
  if (auto it = e.attrs.find(int(i)); it != e.attrs.end())
    attrs = it->second;
  if (isLeafNode(n))
    if (auto it = e.leaves.find(n.results.at(0)); it != e.leaves.end())
      attrs.set(tensorAttr(n), it->second);
  if (!e.typeAttrs.empty())
    for (const auto &[name, v] : n.attrs.all())
      if (const DType *d = std::get_if<DType>(&v); d && e.typeAttrs.count(*d))
        attrs.set(name, e.typeAttrs.at(*d));
  return attrs;
}

// Builds the edited case: result types are inferred again (so attribute,
// shape and dtype changes propagate or fail), dead nodes and unused inputs
// are dropped. An error when the edit makes an invalid graph.
Expected<TestCase> apply(const TestCase &c, const Edit &e,
                         const std::vector<Tensor> *values) {
  const Graph &src = c.graph;
  std::vector<bool> constOnly = constantOnly(src);
  Liveness live = liveness(src, e);
  TestCase out = c;
  Graph &g = out.graph;
  g = Graph();
  g.name = src.name;
  out.inputs.clear();
  std::vector<ValueId> map(src.values.size(), -1);
  auto rename = [&](ValueId from, ValueId to) {
    g.values[to].name = src.values[from].name;
    map[from] = to;
  };
  for (size_t k = 0; k < src.inputs.size(); ++k) {
    ValueId v = src.inputs[k];
    if (!live.value[v])
      continue;
    auto it = e.leaves.find(v);
    Tensor t = it != e.leaves.end() ? it->second : c.inputs[k];
    rename(v, g.addInput(src.values[v].name, t.type()));
    out.inputs.push_back(std::move(t));
  }
  for (size_t i = 0; i < src.nodes.size(); ++i) {
    if (!live.node[i])
      continue;
    const Node &n = src.nodes[i];
    if (e.removeNodes.count(int(i)) && !isLeafNode(n)) {
      if (!values)
        return makeError("no values for removed ops");
      for (ValueId r : n.results) {
        const Tensor &t = (*values)[size_t(r)];
        if (constOnly[i]) {
          Attrs a;
          a.set(constantOp().attrs[0].name, t);
          CC_ASSIGN(nv, g.add(constantOp().name, {}, a));
          rename(r, nv);
        } else {
          rename(r, g.addInput(src.values[r].name, t.type()));
          out.inputs.push_back(t);
        }
      }
      continue;
    }
    std::vector<ValueId> operands;
    for (ValueId v : n.operands)
      operands.push_back(map[rewired(e, v)]);
    CC_ASSIGN(results, g.addNode(n.op, operands, editedAttrs(n, i, e)));
    for (size_t r = 0; r < results.size(); ++r)
      rename(n.results[r], results[r]);
  }
  for (size_t k = 0; k < src.outputs.size(); ++k)
    if (!e.dropOutputs.count(k))
      g.addOutput(map[outputAt(src, e, k)]);
  CC_TRY(verify(g));
  return out;
}

// The first row of a tensor's corner of shape `to` (each dim <= the old).
Tensor corner(const Tensor &t, const Shape &to) {
  Tensor out(t.dtype(), to);
  std::vector<int64_t> srcStrides = rowMajorStrides(t.shape());
  std::vector<int64_t> dstStrides = rowMajorStrides(to);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < to.size(); ++d)
      src += (i / dstStrides[d] % to[d]) * srcStrides[d];
    if (isFloat(t.dtype()))
      out.setF(i, t.getF(src));
    else
      out.setI(i, t.getI(src));
  }
  return out;
}

class GraphReducer {
public:
  GraphReducer(CaseOracle &oracle, BestSoFar &best, ReduceStats &stats,
               const ReduceOptions &options)
      : oracle(oracle), best(best), stats(stats), options(options) {}

  Error run() {
    using Pass = Expected<bool> (GraphReducer::*)();
    std::vector<Pass> passes = {
        &GraphReducer::removeOps, &GraphReducer::dropOutputs,
        &GraphReducer::bypassOps, &GraphReducer::hoistOutputs};
    if (!options.quick)
      passes.insert(passes.end(),
                    {&GraphReducer::simplifyLeaves,
                     &GraphReducer::simplifyAttrs, &GraphReducer::shrinkShapes,
                     &GraphReducer::widenDTypes});
    bool changed = true;
    while (changed && !oracle.spent()) {
      changed = false;
      for (Pass pass : passes) {
        CC_ASSIGN(c, (this->*pass)());
        changed = changed || c;
      }
    }
    return Error();
  }

private:
  const TestCase &cur() const { return best.current(); }

  Error accept(const TestCase &c, const char *what) {
    ++stats.accepted;
    if (options.log)
      options.log(std::string(what) + ": ops " +
                  std::to_string(countOps(c.graph)) + ", elements " +
                  std::to_string(leafElements(c.graph)));
    return best.update(c);
  }

  // Of the edits, keeps the valid ones that make the case smaller, and
  // accepts the first that still fails the same way.
  Expected<bool> tryEdits(const std::vector<Edit> &edits,
                          const std::vector<Tensor> *values, const char *what) {
    std::vector<TestCase> cands;
    Cost now = costOf(cur());
    for (const Edit &e : edits) {
      auto c = apply(cur(), e, values);
      if (c && costOf(*c) < now)
        cands.push_back(std::move(*c));
    }
    if (cands.empty())
      return false;
    int k = oracle.firstSame(cands);
    if (k < 0)
      return false;
    CC_TRY(accept(cands[size_t(k)], what));
    return true;
  }

  // ddmin over `items` (nodes or outputs of the case at the pass start);
  // `edit` turns the items dropped from a candidate into an edit.
  Expected<bool>
  ddminPass(const std::vector<int> &items,
            const std::function<Edit(const std::set<int> &)> &edit,
            const std::vector<Tensor> *values, size_t minKeep,
            const char *what) {
    TestCase start = cur();
    Error err;
    bool changed = false;
    auto firstPassing = [&](const std::vector<std::vector<int>> &keeps) {
      std::vector<TestCase> cands;
      std::vector<int> index;
      for (size_t k = 0; k < keeps.size(); ++k) {
        std::set<int> dropped(items.begin(), items.end());
        for (int i : keeps[k])
          dropped.erase(i);
        if (auto c = apply(start, edit(dropped), values)) {
          cands.push_back(std::move(*c));
          index.push_back(int(k));
        }
      }
      int k = cands.empty() ? -1 : oracle.firstSame(cands);
      if (k < 0)
        return -1;
      changed = true;
      if (Error e = accept(cands[size_t(k)], what))
        err = e;
      return index[size_t(k)];
    };
    ddmin(
        items, firstPassing, [&] { return oracle.spent() || bool(err); },
        minKeep);
    CC_TRY(err);
    return changed;
  }

  // Ops replaced by leaves holding their values.
  Expected<bool> removeOps() {
    CC_ASSIGN(values, allValues(cur()));
    std::vector<int> ops;
    for (size_t i = 0; i < cur().graph.nodes.size(); ++i)
      if (!isLeafNode(cur().graph.nodes[i]))
        ops.push_back(int(i));
    return ddminPass(
        ops,
        [](const std::set<int> &dropped) {
          Edit e;
          e.removeNodes = dropped;
          return e;
        },
        &values, 0, "ops");
  }

  // Outputs dropped (at least one stays).
  Expected<bool> dropOutputs() {
    std::vector<int> outs(cur().graph.outputs.size());
    for (size_t k = 0; k < outs.size(); ++k)
      outs[k] = int(k);
    return ddminPass(
        outs,
        [](const std::set<int> &dropped) {
          Edit e;
          for (int o : dropped)
            e.dropOutputs.insert(size_t(o));
          return e;
        },
        nullptr, 1, "outputs");
  }

  // For each item i (re-counted after every accepted step, while the
  // budget lasts), the edits `editsFor(i)` of the current case, of which
  // the first that keeps the failure is accepted.
  Expected<bool>
  tryEach(const std::function<size_t()> &count,
          const std::function<std::vector<Edit>(size_t)> &editsFor,
          const char *what) {
    bool changed = false;
    for (size_t i = 0; i < count() && !oracle.spent(); ++i) {
      CC_ASSIGN(c, tryEdits(editsFor(i), nullptr, what));
      changed = changed || c;
    }
    return changed;
  }

  // An op bypassed: its uses take an existing value of the same type
  // instead (an operand first, then any earlier value), so that ops around
  // it stay connected (removal by a leaf would cut what feeds it off).
  Expected<bool> bypassOps() {
    auto edits = [&](size_t i) {
      const Graph &g = cur().graph;
      const Node &n = g.nodes[i];
      std::vector<Edit> out;
      if (isLeafNode(n) || n.results.size() != 1)
        return out;
      ValueId r = n.results[0];
      std::vector<ValueId> others(n.operands.begin(), n.operands.end());
      for (ValueId v = 0; v < r && others.size() < 6; ++v)
        if (g.values[v].producer < int(i))
          others.push_back(v);
      std::set<ValueId> seen;
      for (ValueId v : others) {
        if (g.typeOf(v) != g.typeOf(r) || !seen.insert(v).second)
          continue;
        Edit e;
        e.rewire[r] = v;
        out.push_back(std::move(e));
      }
      return out;
    };
    return tryEach([&] { return cur().graph.nodes.size(); }, edits, "bypass");
  }

  // An output replaced by an operand of the op that computes it, so that
  // the op can go while what feeds it stays observable (a crash in the
  // operand's op needs no consumer, but dead code is dropped).
  Expected<bool> hoistOutputs() {
    auto edits = [&](size_t k) {
      const Graph &g = cur().graph;
      int p = g.values[g.outputs[k]].producer;
      std::vector<Edit> out;
      if (p >= 0)
        for (ValueId v : g.nodes[size_t(p)].operands) {
          Edit e;
          e.outputs[k] = v;
          out.push_back(std::move(e));
        }
      return out;
    };
    return tryEach([&] { return cur().graph.outputs.size(); }, edits,
                   "outputs");
  }

  // Constants and inputs to zeros, ones, or a splat of their first element.
  Expected<bool> simplifyLeaves() {
    auto edits = [&](size_t l) {
      Leaf leaf = leavesOf(cur().graph)[l];
      const Tensor &t = leafTensor(cur(), leaf);
      std::vector<Edit> out;
      if (t.size() > 0)
        for (double v : {0.0, 1.0, t.asDouble(0)}) {
          Edit e;
          e.leaves[leaf.value] = Tensor::splat(t.type(), v);
          out.push_back(std::move(e));
        }
      return out;
    };
    return tryEach([&] { return leavesOf(cur().graph).size(); }, edits,
                   "values");
  }

  // Attributes to their defaults, to zeros (no padding, axis 0) or to ones
  // (stride and dilation 1), as far as the op's type rule accepts them.
  Expected<bool> simplifyAttrs() {
    bool changed = false;
    for (size_t i = 0; i < cur().graph.nodes.size() && !oracle.spent(); ++i) {
      const Node &n = cur().graph.nodes[i];
      const OpDef *def = &opDef(n.op);
      if (isLeafNode(n))
        continue;
      for (const AttrSpec &spec : def->attrs) {
        const AttrValue *now = cur().graph.nodes[i].attrs.find(spec.name);
        if (!now)
          continue;
        std::vector<AttrValue> options;
        if (spec.defaultValue)
          options.push_back(*spec.defaultValue);
        if (const auto *is = std::get_if<std::vector<int64_t>>(now)) {
          options.push_back(std::vector<int64_t>(is->size(), 0));
          options.push_back(std::vector<int64_t>(is->size(), 1));
        } else if (std::holds_alternative<int64_t>(*now)) {
          options.push_back(int64_t(0));
          options.push_back(int64_t(1));
        } else if (std::holds_alternative<bool>(*now)) {
          options.push_back(false);
        }
        std::vector<Edit> edits;
        for (AttrValue &v : options) {
          Edit e;
          Attrs a = cur().graph.nodes[i].attrs;
          a.set(spec.name, std::move(v));
          e.attrs[int(i)] = std::move(a);
          edits.push_back(std::move(e));
        }
        CC_ASSIGN(c, tryEdits(edits, nullptr, "attributes"));
        changed = changed || c;
        if (i >= cur().graph.nodes.size())
          break;
      }
    }
    return changed;
  }

  // Dimensions to 1 or halved, and dimensions of size 1 dropped: of all
  // leaves of the same shape together, then of one leaf; inferred types
  // carry the change downstream.
  Expected<bool> shrinkShapes() {
    bool changed = false;
    for (size_t l = 0; l < leavesOf(cur().graph).size() && !oracle.spent();
         ++l) {
      for (size_t d = 0;; ++d) {
        std::vector<Leaf> leaves = leavesOf(cur().graph);
        if (l >= leaves.size())
          break;
        Shape shape = leafTensor(cur(), leaves[l]).shape();
        if (d >= shape.size())
          break;
        if (shape[d] <= 1 && shape.size() <= 1)
          continue;
        std::vector<Shape> targets;
        if (shape[d] > 1) {
          for (int64_t size : {int64_t(1), shape[d] / 2}) {
            targets.push_back(shape);
            targets.back()[d] = size;
          }
        } else {
          targets.push_back(shape);
          targets.back().erase(targets.back().begin() + long(d));
        }
        std::vector<Edit> edits;
        for (bool group : {true, false}) {
          for (const Shape &to : targets) {
            Edit e;
            for (const Leaf &other : leaves) {
              const Tensor &t = leafTensor(cur(), other);
              if (other.value == leaves[l].value ||
                  (group && t.shape() == shape))
                e.leaves[other.value] =
                    to.size() < shape.size() ? t.reshaped(to) : corner(t, to);
            }
            edits.push_back(std::move(e));
          }
        }
        CC_ASSIGN(c, tryEdits(edits, nullptr, "shapes"));
        changed = changed || c;
      }
    }
    return changed;
  }

  // f16/bf16 leaves (with the dtype attributes that name the same type) to
  // f32: first all of one dtype, then one leaf at a time.
  Expected<bool> widenDTypes() {
    bool changed = false;
    for (DType from : {DType::f16, DType::bf16}) {
      std::vector<Edit> edits;
      Edit all;
      all.typeAttrs[from] = DType::f32;
      for (const Leaf &l : leavesOf(cur().graph)) {
        const Tensor &t = leafTensor(cur(), l);
        if (t.dtype() != from)
          continue;
        all.leaves[l.value] = t.convertTo(DType::f32);
        Edit one;
        one.leaves[l.value] = all.leaves[l.value];
        edits.push_back(std::move(one));
      }
      if (edits.empty())
        continue;
      edits.insert(edits.begin(), all);
      CC_ASSIGN(c, tryEdits(edits, nullptr, "dtypes"));
      changed = changed || c;
    }
    return changed;
  }

  CaseOracle &oracle;
  BestSoFar &best;
  ReduceStats &stats;
  const ReduceOptions &options;
};

} // namespace

int64_t leafElements(const Graph &g) {
  int64_t n = 0;
  for (ValueId v : g.inputs)
    n += g.typeOf(v).numElements();
  for (const Node &node : g.nodes)
    if (isLeafNode(node))
      for (ValueId r : node.results)
        n += g.typeOf(r).numElements();
  return n;
}

Error reduceGraph(CaseOracle &oracle, BestSoFar &best, ReduceStats &stats,
                  const ReduceOptions &options) {
  return GraphReducer(oracle, best, stats, options).run();
}

} // namespace cc::reduce

namespace cc {
int countOps(const Graph &g) {
  return int(std::count_if(g.nodes.begin(), g.nodes.end(),
                           [](const Node &n) { return !n.operands.empty(); }));
}
} // namespace cc
