// The edge-value mutations (see Mutations.h): attributes at their extremes,
// splat constants of edge values, and chains of ops with small splat
// constants. They reach known upstream bugs within a few hundred
// executions, so MutationOptions::edges can turn them off (FuzzCase.h).
#include "harness/fuzz/Mutations.h"

#include "generators/Edges.h"
#include "generators/Ranges.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>

namespace cc::fuzz {
namespace {

// --- the edge values (one place) -------------------------------------------

// A scalar integer attribute's edge values (edgeAttr).
const std::vector<int64_t> kIntAttrEdges = {0, 1, -1};

// A scalar float attribute's edge values on an op whose first operand is
// of dtype t (edgeAttr): the full range, 0, 1 and -1.
std::vector<double> floatAttrEdges(DType t) {
  if (isFloat(t))
    return {-INFINITY, INFINITY, -maxFinite(t), maxFinite(t), 0.0, 1.0, -1.0};
  return {double(intMin(t)), double(intMax(t)), 0.0, 1.0, -1.0};
}

// The small splat constants of constOperandOps's chains.
std::vector<double> smallConstants(DType t) {
  if (isBool(t))
    return {0, 1};
  if (isFloat(t))
    return {0.5, 2.0, -1.0, 1.0, 0.0, 3.0, -0.25};
  return {1, 2, 3, -1, 5, 0, -7};
}

// --- helpers of constOperandOps ---------------------------------------------

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
      if (op->id == e.nodes[size_t(prod)].op)
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
  std::vector<double> values;
  for (double x : smallConstants(ct.dtype))
    if (inDomain(Interval{x, x, false}, op.domain(at), types))
      values.push_back(x);
  if (values.empty() || (!isLeaf(e, v) && op.domain(1 - at) != Domain::Any))
    return -1;
  Attrs ca;
  ca.set("value", Tensor::splat(ct, rng.pick(values)));
  Node c{OpId::Const, {}, {freshResult(e)}, ca};
  Node n;
  n.op = op.id;
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
} // namespace

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
    edge = rng.pick(kIntAttrEdges);
  } else if (std::holds_alternative<double>(old)) {
    edge = rng.pick(floatAttrEdges(t));
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

// A constant, or an input that becomes one, turns into a splat of an edge
// value (0, -0, 1, -1, 0.5, 2, the integer extremes, true, false). Folders
// and canonical forms key on splat constants (x + 0, x * 1, select on a
// constant condition, linalg folding a splat operand into its generic),
// which the generator's per-element constants almost never are. A value
// outside a consumer's domain (a zero divisor) is not chosen.
bool splatConst(Graph &e, Rng &rng) {
  std::vector<ValueId> leaves = e.inputs;
  for (const Node &n : e.nodes)
    if (n.op == OpId::Const)
      leaves.push_back(n.results[0]);
  if (leaves.empty())
    return false;
  ValueId v = rng.pick(leaves);
  const TensorType t = e.values[size_t(v)].type;
  std::vector<double> fits;
  for (double x : edgeValues(t.dtype, EdgeUse::Splat)) {
    bool ok = true;
    for (const Node &n : e.nodes) {
      const OpDef *op = &opDef(n.op);
      for (size_t k = 0; k < n.operands.size(); ++k)
        if (n.operands[k] == v &&
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
    if (n.op == OpId::Const && n.results[0] == v) {
      if (n.attrs.getTensor("value") == value)
        return false; // already this splat
      n.attrs.set("value", value);
      return true;
    }
  Attrs a;
  a.set("value", value);
  replaceInput(e, v, Node{OpId::Const, {}, {}, a});
  return true;
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

} // namespace cc::fuzz
