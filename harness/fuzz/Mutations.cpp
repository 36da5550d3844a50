// The structural mutations and the mutator's table (see Mutations.h). Each
// mutation edits a copy of the graph in place; its entry in the table says
// how often it is drawn and how its copy becomes the result.
#include "harness/fuzz/Mutations.h"

#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Topology.h"
#include "harness/fuzz/FuzzCase.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace cc::fuzz {

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

namespace {

const DType kGraphDTypes[] = {DType::i1,  DType::i8,   DType::i16, DType::i32,
                              DType::f16, DType::bf16, DType::f32};

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
      if (op->id == e.nodes[size_t(prod)].op)
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
  n.op = op.id;
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

bool replaceOp(Graph &e, Rng &rng) {
  std::vector<size_t> ops = opNodes(e);
  if (ops.empty())
    return false;
  Node &n = e.nodes[rng.pick(ops)];
  std::vector<TensorType> types = typesOf(e, n);
  std::vector<const OpDef *> fits;
  for (const OpDef *op : placeableOps())
    if (op->id != n.op && op->allows(types[0].dtype) &&
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
  } else if (std::any_of(types.begin(), types.end(), [&](const TensorType &t) {
               return !(t == types[0]);
             })) {
    return false;
  }
  n.op = op.id;
  n.attrs = op.sampleAttrs ? op.sampleAttrs(rng, types) : Attrs{};
  return true;
}

bool changeAttrs(Graph &e, Rng &rng) {
  std::vector<size_t> withAttrs;
  for (size_t i : opNodes(e)) {
    const OpDef *op = &opDef(e.nodes[i].op);
    if (op->sampleAttrs)
      withAttrs.push_back(i);
  }
  if (withAttrs.empty())
    return false;
  Node &n = e.nodes[rng.pick(withAttrs)];
  n.attrs = opDef(n.op).sampleAttrs(rng, typesOf(e, n));
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
  if (!opDef(OpId::Cast).infer({from}, a))
    return false;
  ValueId nx = freshInput(e, from);
  replaceInput(e, x, Node{OpId::Cast, {nx}, {}, a});
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
    if (n.op == OpId::Const)
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
    if (n.op == OpId::Const) {
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
    if (e.nodes[i].op == OpId::Const)
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
  replaceInput(e, x, Node{OpId::Const, {}, {}, a});
  return true;
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
    const OpDef *op = &opDef(n.op);
    for (size_t j = 0; j < n.operands.size(); ++j) {
      int p = producerIndex(e, n.operands[j]);
      if (p < 0 || e.nodes[size_t(p)].op == OpId::Const ||
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
  Node twin =
      e.nodes[size_t(producerIndex(e, e.nodes[s.node].operands[s.from]))];
  const TensorType in = e.values[size_t(twin.operands[0])].type;
  std::vector<ValueId> earlier = valuesBefore(e, s.node, in);
  bool leaf = opDef(twin.op).domain(0) != Domain::Any;
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
    const OpDef *op = &opDef(n.op);
    for (ValueId v : n.operands) {
      int p = producerIndex(e, v);
      if (p < 0 || e.nodes[size_t(p)].op == OpId::Const)
        continue;
      const Node &m = e.nodes[size_t(p)];
      for (size_t k = 0; k < n.operands.size(); ++k)
        for (size_t q = 0; q < m.operands.size(); ++q) {
          ValueId by = m.operands[q];
          if (n.operands[k] == v || n.operands[k] == by ||
              e.values[size_t(by)].type !=
                  e.values[size_t(n.operands[k])].type ||
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

// The graph's precision variant (a whole new graph).
bool precision(Graph &e, Rng &rng) {
  auto v = precisionVariant(e, rng);
  if (!v)
    return false;
  e = std::move(*v);
  return true;
}

constexpr bool kEdge = true;
} // namespace

const std::vector<Mutation> &mutations() {
  static const std::vector<Mutation> table = {
      {"insert-op", insertOp, 4},
      {"remove-op", removeOp, 2},
      {"replace-op", replaceOp, 4},
      {"change-attrs", changeAttrs, 2},
      {"retype-input", retypeInput, 1},
      {"cast-input", castInput, 1},
      {"resize-dim", resizeDim, 1, After::RedrawConstants},
      {"swap-const-input", swapConstInput, 2},
      {"grow-ops", growOps, 4},
      {"splat-const", splatConst, 2, After::Rebuild, kEdge},
      {"edge-attr", edgeAttr, 2, After::Rebuild, kEdge},
      {"twin-operands", twinOperands, 2},
      {"share-operand", shareOperand, 2},
      {"const-operand-ops", constOperandOps, 5, After::Rebuild, kEdge},
      {"precision-variant", precision, 1, After::Check},
  };
  return table;
}

std::optional<Graph> applyMutation(const Mutation &m, const Graph &g,
                                   Rng &rng) {
  Graph e = g;
  if (!m.edit(e, rng))
    return std::nullopt;
  if (m.after != After::Check)
    return finish(e, rng, m.after == After::RedrawConstants);
  if (!acceptableGraph(e))
    return std::nullopt;
  return e;
}

std::optional<Graph> editOnce(const Graph &g, Rng &rng, bool edges) {
  const std::vector<Mutation> &table = mutations();
  auto weightsFor = [&](bool withEdges) {
    std::vector<double> w;
    for (const Mutation &m : table)
      w.push_back(withEdges || !m.edge ? m.weight : 0);
    return w;
  };
  static const std::vector<double> withEdges = weightsFor(true),
                                   withoutEdges = weightsFor(false);
  for (int attempt = 0; attempt < 24; ++attempt) {
    const Mutation &m = table[rng.weighted(edges ? withEdges : withoutEdges)];
    if (auto out = applyMutation(m, g, rng))
      return out;
  }
  return std::nullopt;
}

} // namespace cc::fuzz
