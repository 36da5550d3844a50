// Fuzz inputs and their structure-aware mutations (see FuzzCase.h).
//
// A mutation edits a copy of the graph (node list, operands, input types,
// attributes) and then rebuilds it: every result type is derived again by
// the op table's type rules, in node order, so an edit that does not fit
// (a shape no longer broadcasts, an attribute no longer matches) fails
// there and another mutation is tried instead.
#include "harness/fuzz/FuzzCase.h"

#include "core/Json.h"
#include "core/OpTable.h"
#include "core/Rng.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Ranges.h"
#include "generators/Topology.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>
#include <set>

namespace cc::fuzz {

using nlohmann::json;

namespace {

uint64_t fnv1a(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

bool isLeaf(const Graph &g, ValueId v) {
  int32_t p = g.values[size_t(v)].producer;
  return p < 0 || g.nodes[size_t(p)].op == "const";
}

// A small graph that always exists: the last resort of decodeCase.
Graph fallbackGraph() {
  Graph g;
  g.name = "fuzz";
  TensorType t{DType::f32, {2, 3}};
  ValueId a = g.addInput("a", t), b = g.addInput("b", t);
  g.addOutput(*g.add("add", {a, b}));
  return g;
}

// The generator's options and seed taken from the bytes: the first bytes
// choose the family, the op count and a dtype, the hash the seed.
Graph generatedFromBytes(const uint8_t *data, size_t size) {
  auto byte = [&](size_t i) { return i < size ? data[i] : uint8_t(0); };
  GenOptions o;
  std::vector<std::string> families = familyNames();
  o.family = Family(byte(0) % families.size());
  o.minOps = 3;
  o.maxOps = 3 + byte(1) % 10;
  static const DType kDTypes[] = {DType::f32, DType::f16, DType::bf16,
                                  DType::i32, DType::i8,  DType::i16};
  if (byte(2) % 4 == 0)
    o.dtypes = {kDTypes[byte(3) % std::size(kDTypes)]};
  uint64_t seed = fnv1a(data, size);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto g = generateGraph(o, seed + uint64_t(attempt));
    if (g && acceptableGraph(*g)) {
      g->name = "fuzz";
      return std::move(*g);
    }
    o = GenOptions{}; // plain options admit a graph
    o.maxOps = 8;
  }
  return fallbackGraph();
}

// --- rebuilding an edited graph -----------------------------------------

// Re-derives every result type from the op table, in node order; outputs
// are deduplicated, never graph inputs, and every result that nothing uses
// becomes an output (so that every op is observed).
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

// Editing helpers on the copy `e` (types of new results are placeholders
// until rebuild).
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

// Uses of `from` in nodes at index >= firstNode, and in the outputs, now
// use `to`.
void replaceUses(Graph &e, ValueId from, ValueId to, size_t firstNode = 0) {
  for (size_t i = firstNode; i < e.nodes.size(); ++i)
    for (ValueId &v : e.nodes[i].operands)
      if (v == from)
        v = to;
  for (ValueId &v : e.outputs)
    if (v == from)
      v = to;
}

void dropInput(Graph &e, ValueId v) {
  e.inputs.erase(std::remove(e.inputs.begin(), e.inputs.end(), v),
                 e.inputs.end());
}

// Index of the node that produces v, -1 for a graph input.
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
    if (g.nodes[i].op != "const")
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

const DType kGraphDTypes[] = {DType::i1,  DType::i8,   DType::i16, DType::i32,
                              DType::f16, DType::bf16, DType::f32};

std::vector<TensorType> typesOf(const Graph &e, const Node &n) {
  std::vector<TensorType> types;
  for (ValueId v : n.operands)
    types.push_back(e.values[size_t(v)].type);
  return types;
}

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

// --- the mutations: each edits e in place, false when it does not apply --

using Mutation = std::function<bool(Graph &e, Rng &rng)>;

// A new op on v in the middle of a chain: users of v from node `first` on
// read its result r instead, where they accept any value (the types are
// checked by rebuild).
void intoChain(Graph &e, ValueId v, ValueId r, size_t first) {
  for (size_t i = first; i < e.nodes.size(); ++i) {
    const OpDef *user = findOp(e.nodes[i].op);
    for (size_t k = 0; k < e.nodes[i].operands.size(); ++k)
      if (e.nodes[i].operands[k] == v && user &&
          user->domain(k) == Domain::Any)
        e.nodes[i].operands[k] = r;
  }
}

bool insertOp(Graph &e, Rng &rng) {
  if (e.values.empty())
    return false;
  ValueId v = ValueId(rng.uniformInt(0, int64_t(e.values.size()) - 1));
  int prod = producerIndex(e, v);
  if (prod < 0 &&
      std::find(e.inputs.begin(), e.inputs.end(), v) == e.inputs.end())
    return false; // a value that no longer exists
  const TensorType t = e.values[size_t(v)].type;
  std::vector<const OpDef *> fits;
  for (const OpDef *op : placeableOps())
    if (op->allows(t.dtype))
      fits.push_back(op);
  if (fits.empty())
    return false;
  const OpDef *chosen = rng.pick(fits);
  // Often v's producer's own op again: many canonical forms fold an op
  // into one of its kind (clamp of clamp, transpose of transpose, reshape
  // of reshape), pairs a uniform choice rarely makes.
  if (prod >= 0 && rng.chance(kRepeatChance))
    for (const OpDef *op : fits)
      if (op->name == e.nodes[size_t(prod)].op)
        chosen = op;
  const OpDef &op = *chosen;
  std::vector<TensorType> types(size_t(op.minOperands), t);
  uint32_t leafMask = 0;
  if (op.sampleOperands) {
    auto s = op.sampleOperands(rng, t.dtype, t.shape);
    if (!s || s->types.empty() || !(s->types[0] == t))
      return false;
    types = s->types;
    leafMask = s->leafMask;
  }
  if (((leafMask & 1) || op.domain(0) != Domain::Any) && !isLeaf(e, v))
    return false;
  std::vector<ValueId> operands = {v};
  int position = prod + 1;
  for (size_t i = 1; i < types.size(); ++i) {
    bool needsLeaf = (leafMask >> i) & 1 || op.domain(i) != Domain::Any;
    ValueId w = -1;
    if (!needsLeaf && rng.chance(0.5)) {
      std::vector<ValueId> same;
      for (ValueId c = 0; c < ValueId(e.values.size()); ++c)
        if (e.values[size_t(c)].type == types[i] &&
            (producerIndex(e, c) >= 0 ||
             std::count(e.inputs.begin(), e.inputs.end(), c)))
          same.push_back(c);
      if (!same.empty())
        w = rng.pick(same);
    }
    if (w < 0)
      w = freshInput(e, types[i]);
    position = std::max(position, producerIndex(e, w) + 1);
    operands.push_back(w);
  }
  Node n;
  n.op = op.name;
  n.operands = operands;
  if (op.sampleAttrs)
    n.attrs = op.sampleAttrs(rng, types);
  for (int r = 0; r < op.numResults; ++r)
    n.results.push_back(freshResult(e));
  e.nodes.insert(e.nodes.begin() + position, n);
  if (op.numResults == 1 && rng.chance(0.5))
    intoChain(e, v, n.results[0], size_t(position) + 1);
  return true;
}

bool removeOp(Graph &e, Rng &rng) {
  std::vector<size_t> ops = opNodes(e);
  if (ops.size() <= 1)
    return false;
  size_t at = rng.pick(ops);
  Node n = e.nodes[at];
  e.nodes.erase(e.nodes.begin() + long(at));
  for (ValueId r : n.results) {
    // Bypass through an operand of the same type, else a fresh input.
    ValueId by = -1;
    for (ValueId o : n.operands)
      if (e.values[size_t(o)].type == e.values[size_t(r)].type)
        by = o;
    if (by < 0)
      by = freshInput(e, e.values[size_t(r)].type);
    replaceUses(e, r, by, at);
  }
  return true;
}

bool replaceOp(Graph &e, Rng &rng) {
  std::vector<size_t> ops = opNodes(e);
  if (ops.empty())
    return false;
  Node &n = e.nodes[rng.pick(ops)];
  std::vector<TensorType> types = typesOf(e, n);
  std::vector<const OpDef *> fits;
  for (const OpDef *op : placeableOps())
    if (op->name != n.op && op->allows(types[0].dtype) &&
        int(types.size()) >= op->minOperands &&
        (op->maxOperands < 0 || int(types.size()) <= op->maxOperands) &&
        op->numResults == int(n.results.size()))
      fits.push_back(op);
  if (fits.empty())
    return false;
  const OpDef &op = *rng.pick(fits);
  // sampleAttrs may only see operand types the op accepts (pooling reads
  // four dimensions, ...): those its own sampleOperands draws, as in
  // insertOp; by default, minOperands operands of one type.
  if (op.sampleOperands) {
    auto s = op.sampleOperands(rng, types[0].dtype, types[0].shape);
    if (!s || s->types != types)
      return false;
  } else if (std::any_of(types.begin(), types.end(),
                         [&](const TensorType &t) { return !(t == types[0]); })) {
    return false;
  }
  n.op = op.name;
  n.attrs = op.sampleAttrs ? op.sampleAttrs(rng, types) : Attrs{};
  return true;
}

bool changeAttrs(Graph &e, Rng &rng) {
  std::vector<size_t> withAttrs;
  for (size_t i : opNodes(e)) {
    const OpDef *op = findOp(e.nodes[i].op);
    if (op && op->sampleAttrs)
      withAttrs.push_back(i);
  }
  if (withAttrs.empty())
    return false;
  Node &n = e.nodes[rng.pick(withAttrs)];
  n.attrs = findOp(n.op)->sampleAttrs(rng, typesOf(e, n));
  return true;
}

// One attribute set to an edge value, where an op often becomes a no-op or
// a canonical form applies: a bound at the dtype's extreme or infinity
// (clamp to the full range), 0, 1 or -1 for a scalar, and for a list the
// identity, its reverse, all zeros or all ones (a permutation, padding,
// multiples, a start). sampleAttrs draws typical values; the type rules
// reject the edges that do not fit.
bool edgeAttr(Graph &e, Rng &rng) {
  std::vector<size_t> withAttrs;
  for (size_t i : opNodes(e))
    if (!e.nodes[i].attrs.all().empty())
      withAttrs.push_back(i);
  if (withAttrs.empty())
    return false;
  Node &n = e.nodes[rng.pick(withAttrs)];
  std::vector<std::string> names;
  for (const auto &[name, value] : n.attrs.all())
    names.push_back(name);
  const std::string name = rng.pick(names);
  const AttrValue old = *n.attrs.find(name);
  DType t = n.operands.empty() ? DType::f32
                               : e.values[size_t(n.operands[0])].type.dtype;
  AttrValue edge;
  if (std::holds_alternative<int64_t>(old)) {
    edge = rng.pick(std::vector<int64_t>{0, 1, -1});
  } else if (std::holds_alternative<double>(old)) {
    edge = isFloat(t) ? rng.pick(std::vector<double>{-INFINITY, INFINITY,
                                                     -maxFinite(t), maxFinite(t),
                                                     0.0, 1.0, -1.0})
                      : rng.pick(std::vector<double>{double(intMin(t)),
                                                     double(intMax(t)), 0.0,
                                                     1.0, -1.0});
  } else if (std::holds_alternative<bool>(old)) {
    edge = !std::get<bool>(old);
  } else if (auto *list = std::get_if<std::vector<int64_t>>(&old)) {
    std::vector<int64_t> v(list->size());
    switch (rng.uniformInt(0, 3)) {
    case 0:
      std::iota(v.begin(), v.end(), 0);
      break;
    case 1:
      std::iota(v.rbegin(), v.rend(), 0);
      break;
    case 2:
      break; // zeros
    default:
      std::fill(v.begin(), v.end(), 1);
    }
    edge = v;
  } else {
    return false;
  }
  if (edge == old)
    return false;
  n.attrs.set(name, edge);
  return true;
}

// An input's dtype changes; everything downstream is re-derived.
bool retypeInput(Graph &e, Rng &rng) {
  if (e.inputs.empty())
    return false;
  ValueId x = rng.pick(e.inputs);
  e.values[size_t(x)].type.dtype =
      kGraphDTypes[rng.uniformInt(0, int64_t(std::size(kGraphDTypes)) - 1)];
  return true;
}

// An input of another dtype, cast to the old one.
bool castInput(Graph &e, Rng &rng) {
  if (e.inputs.empty())
    return false;
  ValueId x = rng.pick(e.inputs);
  TensorType t = e.values[size_t(x)].type;
  TensorType from = t;
  from.dtype =
      kGraphDTypes[rng.uniformInt(0, int64_t(std::size(kGraphDTypes)) - 1)];
  if (from.dtype == t.dtype)
    return false;
  Attrs a;
  a.set("to", t.dtype);
  if (!findOp("cast")->infer({from}, a))
    return false;
  ValueId nx = freshInput(e, from);
  Node n{"cast", {nx}, {freshResult(e)}, a};
  e.nodes.insert(e.nodes.begin(), n);
  replaceUses(e, x, n.results[0], 1);
  dropInput(e, x);
  return true;
}

// One dimension size, wherever inputs and constants have it, becomes
// another (constants are re-drawn by the caller).
bool resizeDim(Graph &e, Rng &rng) {
  std::vector<int64_t> sizes;
  for (ValueId v : e.inputs)
    for (int64_t d : e.values[size_t(v)].type.shape)
      sizes.push_back(d);
  for (const Node &n : e.nodes)
    if (n.op == "const")
      for (int64_t d : n.attrs.getTensor("value").shape())
        sizes.push_back(d);
  if (sizes.empty())
    return false;
  int64_t from = rng.pick(sizes), to = rng.uniformInt(1, 8);
  if (from == to)
    return false;
  auto resize = [&](Shape s) {
    for (int64_t &d : s)
      if (d == from)
        d = to;
    return s;
  };
  for (ValueId v : e.inputs)
    e.values[size_t(v)].type.shape = resize(e.values[size_t(v)].type.shape);
  for (Node &n : e.nodes)
    if (n.op == "const") {
      const Tensor &old = n.attrs.getTensor("value");
      n.attrs.set("value", Tensor(old.dtype(), resize(old.shape())));
    }
  return true;
}

// A graph input becomes a constant (values from the input generator, so
// they meet its consumers' domains), or the other way round: folders see
// constants, lowerings runtime values.
bool swapConstInput(Graph &e, Rng &rng) {
  std::vector<size_t> consts;
  for (size_t i = 0; i < e.nodes.size(); ++i)
    if (e.nodes[i].op == "const")
      consts.push_back(i);
  if (!consts.empty() && (e.inputs.empty() || rng.chance(0.5))) {
    size_t at = rng.pick(consts);
    ValueId r = e.nodes[at].results[0];
    ValueId x = freshInput(e, e.values[size_t(r)].type);
    e.nodes.erase(e.nodes.begin() + long(at));
    replaceUses(e, r, x, at);
    return true;
  }
  if (e.inputs.empty())
    return false;
  auto g = rebuild(e); // makeInputs needs the types
  if (!g)
    return false;
  size_t k = size_t(rng.uniformInt(0, int64_t(e.inputs.size()) - 1));
  Inputs values = makeInputs(*g, rng.next());
  ValueId x = e.inputs[k];
  Attrs a;
  a.set("value", values.at(k));
  Node n{"const", {}, {freshResult(e)}, a};
  e.nodes.insert(e.nodes.begin(), n);
  replaceUses(e, x, n.results[0], 1);
  dropInput(e, x);
  return true;
}

// A constant, or an input that becomes one, turns into a splat of an edge
// value (0, -0, 1, -1, 0.5, 2, the integer extremes, true, false). Folders
// and canonical forms key on splat constants (x + 0, x * 1, select on a
// constant condition, linalg folding a splat operand into its generic),
// which the generator's per-element constants almost never are. A value
// outside a consumer's domain (a zero divisor) is not chosen.
bool splatConst(Graph &e, Rng &rng) {
  std::vector<ValueId> leaves = e.inputs;
  for (const Node &n : e.nodes)
    if (n.op == "const")
      leaves.push_back(n.results[0]);
  if (leaves.empty())
    return false;
  ValueId v = rng.pick(leaves);
  const TensorType t = e.values[size_t(v)].type;
  std::vector<double> edges;
  if (isBool(t.dtype))
    edges = {0, 1};
  else if (isFloat(t.dtype))
    edges = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0};
  else
    edges = {0, 1, -1, 2, double(intMin(t.dtype)), double(intMax(t.dtype))};
  std::vector<double> fits;
  for (double x : edges) {
    bool ok = true;
    for (const Node &n : e.nodes) {
      const OpDef *op = findOp(n.op);
      for (size_t k = 0; k < n.operands.size(); ++k)
        if (n.operands[k] == v && op &&
            !inDomain(Interval{x, x, false}, op->domain(k), typesOf(e, n)))
          ok = false;
    }
    if (ok)
      fits.push_back(x);
  }
  if (fits.empty())
    return false;
  double x = rng.pick(fits);
  Tensor value = Tensor::splat(t, x);
  for (Node &n : e.nodes)
    if (n.op == "const" && n.results[0] == v) {
      if (n.attrs.getTensor("value") == value)
        return false; // already this splat
      n.attrs.set("value", value);
      return true;
    }
  Attrs a;
  a.set("value", value);
  Node n{"const", {}, {freshResult(e)}, a};
  e.nodes.insert(e.nodes.begin(), n);
  replaceUses(e, v, n.results[0], 1);
  dropInput(e, v);
  return true;
}

// Values defined before node `before` (graph inputs and results of earlier
// nodes) of type t.
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

// Another operand of an op gets a twin of the unary op that feeds one:
// mul of two negates, and/or/xor of two casts from bool, max of two abs.
// Canonical forms match such pairs (MulFOfNegF, AndOfExtUI, ...), which a
// random DAG makes once in thousands of graphs. The twin reads an earlier
// value of its original's operand type, or a new input.
bool twinOperands(Graph &e, Rng &rng) {
  struct Site {
    size_t node, from, to;
  };
  std::vector<Site> sites;
  for (size_t i : opNodes(e)) {
    const Node &n = e.nodes[i];
    const OpDef *op = findOp(n.op);
    for (size_t j = 0; j < n.operands.size(); ++j) {
      int p = producerIndex(e, n.operands[j]);
      if (p < 0 || e.nodes[size_t(p)].op == "const" ||
          e.nodes[size_t(p)].operands.size() != 1 ||
          e.nodes[size_t(p)].results.size() != 1)
        continue;
      for (size_t k = 0; k < n.operands.size(); ++k)
        if (k != j && op && op->domain(k) == Domain::Any &&
            e.values[size_t(n.operands[k])].type ==
                e.values[size_t(n.operands[j])].type)
          sites.push_back({i, j, k});
    }
  }
  if (sites.empty())
    return false;
  const Site s = rng.pick(sites);
  Node twin = e.nodes[size_t(producerIndex(e, e.nodes[s.node].operands[s.from]))];
  const TensorType in = e.values[size_t(twin.operands[0])].type;
  std::vector<ValueId> earlier = valuesBefore(e, s.node, in);
  bool leaf = findOp(twin.op)->domain(0) != Domain::Any;
  twin.operands = {!leaf && !earlier.empty() && rng.chance(0.5)
                       ? rng.pick(earlier)
                       : freshInput(e, in)};
  twin.results = {freshResult(e)};
  e.nodes.insert(e.nodes.begin() + long(s.node), twin);
  e.nodes[s.node + 1].operands[s.to] = twin.results[0];
  return true;
}

// An operand of an op becomes one of its producer's operands: select(p,
// select(p, a, b), c), x - (x + y), max(max(x, y), y). Canonical forms
// fold such shared operands (RedundantSelectTrue, ...); same position
// first where the producer is the same op.
bool shareOperand(Graph &e, Rng &rng) {
  struct Site {
    size_t node, at;
    ValueId by;
  };
  std::vector<Site> sites, samePosition;
  for (size_t i : opNodes(e)) {
    const Node &n = e.nodes[i];
    const OpDef *op = findOp(n.op);
    for (ValueId v : n.operands) {
      int p = producerIndex(e, v);
      if (p < 0 || e.nodes[size_t(p)].op == "const")
        continue;
      const Node &m = e.nodes[size_t(p)];
      for (size_t k = 0; k < n.operands.size(); ++k)
        for (size_t q = 0; q < m.operands.size(); ++q) {
          ValueId by = m.operands[q];
          if (n.operands[k] == v || n.operands[k] == by ||
              e.values[size_t(by)].type != e.values[size_t(n.operands[k])].type ||
              (op && op->domain(k) != Domain::Any && !isLeaf(e, by)))
            continue;
          sites.push_back({i, k, by});
          if (m.op == n.op && q == k)
            samePosition.push_back(sites.back());
        }
    }
  }
  if (sites.empty())
    return false;
  const Site s = !samePosition.empty() && rng.chance(0.5)
                     ? rng.pick(samePosition)
                     : rng.pick(sites);
  e.nodes[s.node].operands[s.at] = s.by;
  return true;
}

// Places op(v, c) or op(c, v) after v's producer, with c a new splat of a
// small constant and op a binary elementwise op, often v's producer's own;
// later users of v may read the result instead. The op's node index, or -1.
int placeConstOp(Graph &e, Rng &rng, ValueId v) {
  const int prod = producerIndex(e, v);
  const TensorType t = e.values[size_t(v)].type;
  std::vector<const OpDef *> fits;
  for (const OpDef *op : placeableOps())
    if (op->minOperands <= 2 && op->maxOperands == 2 && op->numResults == 1 &&
        op->allows(t.dtype))
      fits.push_back(op);
  if (fits.empty())
    return -1;
  const OpDef *chosen = rng.pick(fits);
  // On integers mostly add and sub, whose chains with constants arith
  // reassociates in every combination (x + c0) - c1, c1 - (c0 - x), ...;
  // else often v's producer's own op.
  const bool integer = isInt(t.dtype) && !isBool(t.dtype);
  if (integer && rng.chance(0.6))
    chosen = findOp(rng.chance(0.5) ? "add" : "sub");
  else if (prod >= 0 && rng.chance(0.5))
    for (const OpDef *op : fits)
      if (op->name == e.nodes[size_t(prod)].op)
        chosen = op;
  if (!chosen->allows(t.dtype))
    return -1;
  const OpDef &op = *chosen;
  std::vector<TensorType> types = {t, t};
  if (op.sampleOperands) {
    auto s = op.sampleOperands(rng, t.dtype, t.shape);
    if (!s || s->types.size() != 2 || !(s->types[0] == t))
      return -1;
    types = s->types;
  }
  // The constant on either side; broadcast from ones now and then.
  const size_t at = rng.chance(0.7) ? 1 : 0;
  std::swap(types[0], types[at]);
  TensorType ct = types[at];
  if (rng.chance(0.3))
    std::fill(ct.shape.begin(), ct.shape.end(), int64_t(1));
  types[at] = ct;
  std::vector<double> small;
  if (isBool(ct.dtype))
    small = {0, 1};
  else if (isFloat(ct.dtype))
    small = {0.5, 2.0, -1.0, 1.0, 0.0, 3.0, -0.25};
  else
    small = {1, 2, 3, -1, 5, 0, -7};
  std::vector<double> values;
  for (double x : small)
    if (inDomain(Interval{x, x, false}, op.domain(at), types))
      values.push_back(x);
  if (values.empty() || (!isLeaf(e, v) && op.domain(1 - at) != Domain::Any))
    return -1;
  Attrs ca;
  ca.set("value", Tensor::splat(ct, rng.pick(values)));
  Node c{"const", {}, {freshResult(e)}, ca};
  Node n;
  n.op = op.name;
  n.operands = {v, v};
  n.operands[at] = c.results[0];
  if (op.sampleAttrs)
    n.attrs = op.sampleAttrs(rng, types);
  n.results = {freshResult(e)};
  e.nodes.insert(e.nodes.begin(), c);
  const size_t position = size_t(prod + 2); // after the constant too
  e.nodes.insert(e.nodes.begin() + long(position), n);
  if (rng.chance(0.5))
    intoChain(e, v, n.results[0], position + 1);
  return int(position);
}

// The number of nodes where the ranges of g's values, from tame inputs, show
// a hazard (an overflow, a value outside a consumer's domain).
size_t hazards(const Graph &edited) {
  auto g = rebuild(edited);
  if (!g)
    return SIZE_MAX;
  std::vector<Interval> inputs;
  for (ValueId v : g->inputs)
    inputs.push_back(tameRange(g->values[size_t(v)].type.dtype));
  return findHazards(*g, inputs).size();
}

// One or two binary elementwise ops with small splat constants after a
// value, mostly an integer one: x + 3, (x + 3) - 5, (x * 2) * 4, 7 - x,
// max(x, 0), as bias adds, scales and activations are in real models.
// Folders and arith's canonical forms (AddIAddConstant, SubIRHSAddConstant,
// MulIMulIConstant, ...) match such chains; float arithmetic does not
// reassociate, and the generator never makes them: its constants differ
// per element, and its integer arithmetic reads only leaves (an
// intermediate may overflow). Here an intermediate operand is allowed where
// the value ranges from tame inputs show no new hazard.
bool constOperandOps(Graph &e, Rng &rng) {
  std::vector<ValueId> values = e.inputs;
  for (size_t i : opNodes(e))
    for (ValueId r : e.nodes[i].results)
      values.push_back(r);
  std::vector<double> weights;
  bool anyInt = false;
  for (ValueId v : values) {
    DType d = e.values[size_t(v)].type.dtype;
    anyInt |= isInt(d) && !isBool(d);
    weights.push_back(isInt(d) ? 4 : 1);
  }
  if (values.empty())
    return false;
  const size_t before = hazards(e);
  ValueId v = values[rng.weighted(weights)];
  // Most graphs compute in floats: now and then (always when no integer
  // value is there) the chain starts from a new i32 input of a shape the
  // graph has.
  if (!anyInt ? rng.chance(0.5) : rng.chance(0.2))
    v = freshInput(e, TensorType{DType::i32, e.values[size_t(v)].type.shape});
  int at = placeConstOp(e, rng, v);
  if (at < 0)
    return false;
  if (rng.chance(0.7)) { // a chain: the first result needs its type
    auto g = rebuild(e);
    if (!g)
      return false;
    e = std::move(*g);
    placeConstOp(e, rng, e.nodes[size_t(at)].results[0]);
  }
  return hazards(e) <= before;
}

// A few ops placed the generator's way on the graph's values (a family
// block: a conv stack, an attention head, a residual, ...): one edit that
// brings several new def-use pairs at once, mostly on the graph's values.
bool growOps(Graph &e, Rng &rng) {
  int room = kGrowLimit - int(opNodes(e).size());
  if (room < 1)
    return false;
  GenOptions o;
  o.minOps = 1;
  o.maxOps = std::min(room, 4);
  o.family = Family(rng.uniformInt(0, int64_t(Family::Mixed)));
  auto g = extendGraph(e, o, rng.next());
  if (!g)
    return false;
  e = std::move(*g);
  return true;
}

enum class Redraw { None, Constants };

struct Candidate {
  Graph graph;
  Redraw redraw = Redraw::None;
};

// Precision variants of the generator change every float dtype at once.
std::optional<Graph> precisionVariant(const Graph &g, Rng &rng) {
  if (!hasFloatValues(g))
    return std::nullopt;
  auto v = makePrecisionVariant(g, rng.pick(allPrecisionKinds()), rng.next());
  if (!v)
    return std::nullopt;
  v->name = g.name;
  return std::move(*v);
}

// A graph as the generator campaign draws one: the default options, and
// mostly a precision variant of it.
std::optional<Graph> freshGraph(Rng &rng) {
  auto g = generateGraph(GenOptions{}, rng.next());
  if (!g || !acceptableGraph(*g))
    return std::nullopt;
  g->name = "fuzz";
  if (rng.chance(0.75))
    if (auto v = precisionVariant(*g, rng); v && acceptableGraph(*v))
      return v;
  return std::move(*g);
}

std::optional<Graph> finish(const Graph &edited, Redraw redraw, Rng &rng) {
  auto g = rebuild(edited);
  if (!g)
    return std::nullopt;
  if (redraw == Redraw::Constants)
    *g = withSampledConstants(*g, rng.next());
  if (!acceptableGraph(*g))
    return std::nullopt;
  return std::move(*g);
}
} // namespace

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

std::string encodeCase(const FuzzCase &c) {
  json j = {{"graph", graphToJson(c.graph)},
            {"input_seed", c.inputSeed},
            {"cut", c.cut}};
  return j.dump();
}

FuzzCase decodeCase(const uint8_t *data, size_t size) {
  FuzzCase c;
  json j = json::parse(data, data + size, nullptr, false);
  if (j.is_object() && j.contains("graph")) {
    auto g = graphFromJson(j["graph"]);
    if (g && acceptableGraph(*g)) {
      c.graph = std::move(*g);
      if (j.value("input_seed", json()).is_number_unsigned())
        c.inputSeed = j["input_seed"].get<uint64_t>();
      if (j.value("cut", json()).is_number_unsigned())
        c.cut = j["cut"].get<uint32_t>();
      return c;
    }
  }
  c.graph = generatedFromBytes(data, size);
  c.inputSeed = fnv1a(data, size) >> 1;
  c.cut = size ? data[size - 1] : 0;
  return c;
}

namespace {
bool edgeMutations = true;

// One structural edit of g (tried up to 24 times); nullopt when none fits.
std::optional<Graph> editOnce(const Graph &g, Rng &rng) {
  struct Entry {
    Mutation mutate;
    Redraw redraw;
    double weight;
    bool edge = false; // an edge-value mutation (setEdgeMutations)
  };
  static const std::vector<Entry> kMutations = {
      {insertOp, Redraw::None, 4},       {removeOp, Redraw::None, 2},
      {replaceOp, Redraw::None, 4},      {changeAttrs, Redraw::None, 2},
      {retypeInput, Redraw::None, 1},    {castInput, Redraw::None, 1},
      {resizeDim, Redraw::Constants, 1}, {swapConstInput, Redraw::None, 2},
      {growOps, Redraw::None, 4},        {splatConst, Redraw::None, 2, true},
      {edgeAttr, Redraw::None, 2, true}, {twinOperands, Redraw::None, 2},
      {shareOperand, Redraw::None, 2},   {constOperandOps, Redraw::None, 5, true},
  };
  auto weightsFor = [](bool edges) {
    std::vector<double> w;
    for (const Entry &m : kMutations)
      w.push_back(edges || !m.edge ? m.weight : 0);
    w.push_back(1); // precision variant
    return w;
  };
  static const std::vector<double> withEdges = weightsFor(true),
                                   withoutEdges = weightsFor(false);
  const std::vector<double> &weights = edgeMutations ? withEdges : withoutEdges;
  for (int attempt = 0; attempt < 24; ++attempt) {
    size_t k = rng.weighted(weights);
    std::optional<Graph> out;
    if (k == kMutations.size()) {
      out = precisionVariant(g, rng);
      if (out && !acceptableGraph(*out))
        out.reset();
    } else {
      Graph e = g;
      if (kMutations[k].mutate(e, rng))
        out = finish(e, kMutations[k].redraw, rng);
    }
    if (out)
      return out;
  }
  return std::nullopt;
}
} // namespace

void setEdgeMutations(bool on) { edgeMutations = on; }

FuzzCase mutateCase(const FuzzCase &c, uint64_t seed) {
  Rng rng(seed);
  return mutateCase(c, rng.next(), Schedule().pick(rng, false));
}

FuzzCase mutateCase(const FuzzCase &c, uint64_t seed, Strategy strategy,
                    Strategy *used) {
  Rng rng(seed);
  FuzzCase out = c;
  auto done = [&](Strategy s) {
    if (used)
      *used = s;
    return out;
  };
  switch (strategy) {
  case Strategy::InputSeed: // cheap, never fails
    out.inputSeed = rng.next();
    return done(strategy);
  case Strategy::Cut:
    out.cut = uint32_t(rng.next());
    return done(strategy);
  case Strategy::Fresh: // a whole new graph, as the unguided campaign runs
    if (auto g = freshGraph(rng)) {
      out.graph = std::move(*g);
      out.inputSeed = rng.next();
      return done(strategy);
    }
    break;
  case Strategy::Splice: {
    // A window of a freshly generated graph: the generator's families
    // (attention, conv stacks, ...) are far from where mutations of a small
    // graph go.
    FuzzCase fresh;
    uint64_t bytes = rng.next();
    fresh.graph = generatedFromBytes(reinterpret_cast<const uint8_t *>(&bytes),
                                     sizeof bytes);
    FuzzCase spliced = crossOver(c, fresh, rng.next());
    if (!(spliced.graph == c.graph)) {
      out = std::move(spliced);
      return done(strategy);
    }
    break;
  }
  case Strategy::Edit:
  case Strategy::CrossOver: // needs a second parent: edits instead
    break;
  }
  // A few edits at once (1 + a geometric number, at most kMaxEdits): one
  // execution of the pipeline costs far more than mutating, and a single
  // edit adds one or two new def-use pairs where a generated graph brings
  // ten.
  int edits = 1;
  while (edits < kMaxEdits && rng.chance(kMoreEditsChance))
    ++edits;
  if (int(opNodes(out.graph).size()) > kGrowLimit) {
    Graph e = out.graph;
    if (removeOp(e, rng))
      if (auto g = finish(e, Redraw::None, rng))
        out.graph = std::move(*g);
  }
  for (int i = 0; i < edits; ++i)
    if (auto g = editOnce(out.graph, rng))
      out.graph = std::move(*g);
  // Edits may undo each other (an input made a constant and back).
  if (out.graph == c.graph) {
    out.inputSeed = rng.next();
    return done(Strategy::InputSeed);
  }
  return done(Strategy::Edit);
}

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
    // Values from outside the window that a window op reads only where any
    // value will do may come from a's values of the same type.
    std::vector<bool> anyValue(gb.values.size(), true);
    for (size_t k : window)
      for (size_t i = 0; i < gb.nodes[k].operands.size(); ++i)
        if (findOp(gb.nodes[k].op)->domain(i) != Domain::Any)
          anyValue[size_t(gb.nodes[k].operands[i])] = false;
    Graph e = a.graph;
    std::vector<ValueId> map(gb.values.size(), -1);
    auto source = [&](ValueId v) {
      if (map[size_t(v)] >= 0)
        return map[size_t(v)];
      const TensorType &t = gb.typeOf(v);
      int32_t p = gb.values[size_t(v)].producer;
      if (p >= 0 && gb.nodes[size_t(p)].op == "const") {
        // Constants come along: folds and canonical forms need them.
        Node c = gb.nodes[size_t(p)];
        c.results = {freshResult(e)};
        e.nodes.push_back(c);
        return map[size_t(v)] = c.results[0];
      }
      std::vector<ValueId> same;
      for (ValueId w = 0;
           anyValue[size_t(v)] && w < ValueId(a.graph.values.size()); ++w)
        if (a.graph.values[size_t(w)].type == t)
          same.push_back(w);
      return map[size_t(v)] = !same.empty() && rng.chance(0.7)
                                  ? rng.pick(same)
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
    auto g = finish(e, Redraw::None, rng);
    if (g) {
      FuzzCase out = a;
      out.graph = std::move(*g);
      out.inputSeed = rng.chance(0.5) ? a.inputSeed : b.inputSeed;
      return out;
    }
  }
  return a;
}

size_t mutateBytes(uint8_t *data, size_t size, size_t maxSize, uint64_t seed,
                   Schedule *schedule) {
  FuzzCase c = decodeCase(data, size);
  Rng rng(seed);
  Strategy s = (schedule ? *schedule : Schedule()).pick(rng, false);
  for (int attempt = 0; attempt < 4; ++attempt) {
    Strategy used = s;
    std::string bytes =
        encodeCase(mutateCase(c, seed + uint64_t(attempt), s, &used));
    if (bytes.size() <= maxSize) {
      if (schedule)
        schedule->chose(used);
      std::memcpy(data, bytes.data(), bytes.size());
      return bytes.size();
    }
  }
  // Too large for libFuzzer's limit: a graph generated from the bytes.
  if (schedule)
    schedule->chose(Strategy::Fresh);
  std::string bytes = encodeCase(decodeCase(nullptr, 0));
  bytes = bytes.size() <= maxSize ? bytes : std::string();
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

size_t crossOverBytes(const uint8_t *a, size_t sizeA, const uint8_t *b,
                      size_t sizeB, uint8_t *out, size_t maxOut, uint64_t seed,
                      Schedule *schedule) {
  FuzzCase ca = decodeCase(a, sizeA), cb = decodeCase(b, sizeB);
  Rng rng(seed);
  Strategy s = schedule ? schedule->pick(rng, true) : Strategy::CrossOver;
  FuzzCase x = ca;
  if (s == Strategy::CrossOver)
    x = crossOver(ca, cb, seed);
  // No room for a splice (a is at the growth limit), or the schedule
  // prefers a mutation: libFuzzer would run a again, so mutate it.
  if (s != Strategy::CrossOver || x.graph == ca.graph)
    x = mutateCase(ca, seed, s == Strategy::CrossOver ? Strategy::Edit : s, &s);
  if (schedule)
    schedule->chose(s);
  std::string bytes = encodeCase(x);
  if (bytes.size() > maxOut)
    bytes = encodeCase(sizeA <= sizeB ? ca : cb);
  if (bytes.size() > maxOut)
    return 0;
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}

} // namespace cc::fuzz
