// Editing a copy of a fuzz graph, rebuilding it, and the fuzzer's limits
// on the result (see GraphEdit.h, FuzzCase.h).
#include "harness/fuzz/GraphEdit.h"

#include "generators/Inputs.h"
#include "harness/fuzz/FuzzCase.h"

#include <algorithm>
#include <set>
#include <string>

namespace cc::fuzz {

Expected<Graph> rebuild(const Graph &e) {
  Graph g;
  g.name = e.name;
  std::vector<ValueId> map(e.values.size(), -1);
  for (ValueId v : e.inputs)
    map[size_t(v)] =
        g.addInput(e.values[size_t(v)].name, e.values[size_t(v)].type);
  for (const Node &n : e.nodes) {
    std::vector<ValueId> operands;
    for (ValueId v : n.operands) {
      if (v < 0 || size_t(v) >= map.size() || map[size_t(v)] < 0)
        return makeError("dangling operand");
      operands.push_back(map[size_t(v)]);
    }
    CC_ASSIGN(results, g.addNode(n.op, operands, n.attrs));
    if (results.size() != n.results.size())
      return makeError("result count changed");
    for (size_t i = 0; i < results.size(); ++i)
      map[size_t(n.results[i])] = results[i];
  }
  std::vector<bool> used(g.values.size(), false);
  for (const Node &n : g.nodes)
    for (ValueId v : n.operands)
      used[size_t(v)] = true;
  std::set<ValueId> seen;
  auto output = [&](ValueId v) {
    if (v >= 0 && g.values[size_t(v)].producer >= 0 && seen.insert(v).second)
      g.addOutput(v);
  };
  for (ValueId v : e.outputs)
    if (size_t(v) < map.size())
      output(map[size_t(v)]);
  for (const Node &n : g.nodes)
    for (ValueId r : n.results)
      if (!used[size_t(r)])
        output(r);
  return g;
}

std::optional<Graph> finish(const Graph &edited, Rng &rng,
                            bool redrawConstants) {
  auto g = rebuild(edited);
  if (!g)
    return std::nullopt;
  if (redrawConstants)
    *g = withSampledConstants(*g, rng.next());
  if (!acceptableGraph(*g))
    return std::nullopt;
  return std::move(*g);
}

ValueId freshInput(Graph &e, const TensorType &t) {
  std::string name;
  for (int i = int(e.values.size());; ++i) {
    name = "in" + std::to_string(i);
    if (e.lookup(name) < 0)
      break;
  }
  return e.addInput(name, t);
}

ValueId freshResult(Graph &e) {
  e.values.push_back({"", TensorType{DType::f32, {1}}, 0});
  return ValueId(e.values.size() - 1);
}

void replaceUses(Graph &e, ValueId from, ValueId to, size_t firstNode) {
  for (size_t i = firstNode; i < e.nodes.size(); ++i)
    for (ValueId &v : e.nodes[i].operands)
      if (v == from)
        v = to;
  for (ValueId &v : e.outputs)
    if (v == from)
      v = to;
}

void replaceInput(Graph &e, ValueId x, Node n) {
  n.results = {freshResult(e)};
  e.nodes.insert(e.nodes.begin(), n);
  replaceUses(e, x, n.results[0], 1);
  e.inputs.erase(std::remove(e.inputs.begin(), e.inputs.end(), x),
                 e.inputs.end());
}

void intoChain(Graph &e, ValueId v, ValueId r, size_t first) {
  for (size_t i = first; i < e.nodes.size(); ++i) {
    const OpDef *user = &opDef(e.nodes[i].op);
    for (size_t k = 0; k < e.nodes[i].operands.size(); ++k)
      if (e.nodes[i].operands[k] == v && user->domain(k) == Domain::Any)
        e.nodes[i].operands[k] = r;
  }
}

bool isLeaf(const Graph &g, ValueId v) {
  int32_t p = g.values[size_t(v)].producer;
  return p < 0 || g.nodes[size_t(p)].op == OpId::Const;
}

int producerIndex(const Graph &e, ValueId v) {
  for (size_t i = 0; i < e.nodes.size(); ++i)
    for (ValueId r : e.nodes[i].results)
      if (r == v)
        return int(i);
  return -1;
}

std::vector<size_t> opNodes(const Graph &g) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].op != OpId::Const)
      idx.push_back(i);
  return idx;
}

std::vector<const OpDef *> placeableOps() {
  std::vector<const OpDef *> ops;
  for (const OpDef &op : allOps())
    if (op.name != "const" && op.minOperands >= 1)
      ops.push_back(&op);
  return ops;
}

std::vector<TensorType> typesOf(const Graph &e, const Node &n) {
  std::vector<TensorType> types;
  for (ValueId v : n.operands)
    types.push_back(e.values[size_t(v)].type);
  return types;
}

std::vector<ValueId> valuesBefore(const Graph &e, size_t before,
                                  const TensorType &t) {
  std::vector<ValueId> out;
  for (ValueId v : e.inputs)
    if (e.values[size_t(v)].type == t)
      out.push_back(v);
  for (size_t i = 0; i < before; ++i)
    for (ValueId r : e.nodes[i].results)
      if (e.values[size_t(r)].type == t)
        out.push_back(r);
  return out;
}

bool acceptableGraph(const Graph &g, std::string *why) {
  auto no = [&](std::string s) {
    if (why)
      *why = std::move(s);
    return false;
  };
  if (Error e = verify(g))
    return no(e.message());
  if (g.outputs.empty())
    return no("no outputs");
  size_t ops = opNodes(g).size();
  if (ops == 0 || ops > size_t(kMaxOps))
    return no(std::to_string(ops) + " ops");
  for (const ValueInfo &v : g.values)
    if (v.type.numElements() > kMaxElements ||
        int(v.type.shape.size()) > kMaxRank)
      return no("tensor " + v.name + " is too large");
  for (ValueId v : g.outputs)
    if (g.values[size_t(v)].producer < 0)
      return no("output " + g.values[size_t(v)].name + " is a graph input");
  return true;
}

} // namespace cc::fuzz
