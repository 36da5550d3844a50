#include "generators/Topology.h"
#include "generators/Builder.h"
#include "generators/Edges.h"
#include "generators/Ranges.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace cc {

namespace {
constexpr DType kGraphDTypes[] = {DType::f32, DType::f16, DType::bf16,
                                  DType::i8,  DType::i16, DType::i32,
                                  DType::i1};
const char *const kFamilyNames[] = {"random", "chain",     "residual",
                                    "branch", "attention", "conv-stack",
                                    "mlp",    "mixed"};
} // namespace

std::vector<std::string> familyNames() {
  return {std::begin(kFamilyNames), std::end(kFamilyNames)};
}

Expected<Family> parseFamily(const std::string &name) {
  for (size_t i = 0; i < std::size(kFamilyNames); ++i)
    if (name == kFamilyNames[i])
      return Family(i);
  std::string all;
  for (const char *n : kFamilyNames)
    all += (all.empty() ? "" : ", ") + std::string(n);
  return makeError("unknown family '" + name + "' (expected one of " + all +
                   ")");
}

namespace gen {

Builder::Builder(const GenOptions &options, uint64_t seed)
    : o(options), rng(seed) {}

Error Builder::init() {
  if (o.minOps < 1 || o.maxOps < o.minOps)
    return makeError("op count range " + std::to_string(o.minOps) + ".." +
                     std::to_string(o.maxOps) + " is empty or below 1");
  if (o.minRank < 0 || o.maxRank < o.minRank || o.maxElements < 1)
    return makeError("rank range or largest tensor size admits no tensor");
  for (const auto &list : {o.include, o.exclude})
    for (const std::string &n : list)
      if (!findOp(n))
        return makeError("unknown op '" + n + "'");
  for (DType d : o.dtypes.empty() ? std::vector<DType>(std::begin(kGraphDTypes),
                                                       std::end(kGraphDTypes))
                                  : o.dtypes)
    dtypeMask |= 1u << unsigned(d);
  const auto &table = allOps();
  enabledMask.assign(table.size(), false);
  for (size_t i = 0; i < table.size(); ++i) {
    const std::string &n = table[i].name;
    bool in = o.include.empty() || std::find(o.include.begin(), o.include.end(),
                                             n) != o.include.end();
    bool out =
        std::find(o.exclude.begin(), o.exclude.end(), n) != o.exclude.end();
    enabledMask[i] = in && !out;
    auto w = o.weights.find(n);
    double weight = w == o.weights.end() ? 1.0 : w->second;
    if (!enabledMask[i] || table[i].id == OpId::Const || weight <= 0)
      continue;
    bool anyDType = false;
    for (DType d : table[i].dtypes)
      anyDType |= allowsDType(d);
    if (anyDType) {
      ops.push_back(&table[i]);
      weights.push_back(weight);
    }
  }
  if (ops.empty())
    return makeError("no op left to place: the include/exclude lists and "
                     "dtypes admit none");
  target = int(rng.uniformInt(o.minOps, o.maxOps));
  return Error();
}

const OpDef *Builder::enabled(OpId op) const {
  return enabledMask[size_t(op)] ? &opDef(op) : nullptr;
}

bool Builder::allowedType(const TensorType &t) const {
  int64_t rank = t.rank();
  return allowsDType(t.dtype) && rank >= o.minRank && rank <= o.maxRank &&
         t.numElements() <= o.maxElements &&
         std::all_of(t.shape.begin(), t.shape.end(),
                     [](int64_t d) { return d >= 1; });
}

Shape Builder::freshShape(int rank) {
  if (rank < 0)
    rank = int(rng.uniformInt(o.minRank, o.maxRank));
  Shape s(static_cast<size_t>(rank));
  for (int64_t &d : s)
    d = rng.uniformInt(1, kMaxDim);
  // Halve the largest dimension until the tensor fits.
  while (TensorType{DType::f32, s}.numElements() > o.maxElements) {
    auto it = std::max_element(s.begin(), s.end());
    *it = std::max<int64_t>(1, *it / 2);
  }
  return s;
}

ValueId Builder::commit(const OpDef &op, std::vector<ValueId> operands,
                        Attrs attrs, std::vector<TensorType> results) {
  std::vector<Interval> in;
  std::vector<TensorType> types;
  for (ValueId v : operands) {
    ++meta[size_t(v)].uses;
    in.push_back(ranges[size_t(v)]);
    types.push_back(g.typeOf(v));
  }
  for (size_t r = 0; r < results.size(); ++r)
    ranges.push_back(r == 0
                         ? resultRange(op, in, types, attrs, results[r].dtype)
                         : fullRange(results[r].dtype));
  Node node{op.id, std::move(operands), {}, std::move(attrs)};
  int32_t index = int32_t(g.nodes.size());
  for (TensorType &t : results) {
    ValueId id = ValueId(g.values.size());
    g.values.push_back({"v" + std::to_string(id), std::move(t), index});
    meta.push_back({});
    node.results.push_back(id);
  }
  g.nodes.push_back(std::move(node));
  if (op.minOperands > 0)
    ++placed;
  return g.nodes.back().results[0];
}

// A leaf whose values the input generator (inputs) or constValues (tame
// constants, for unconstrained operands) keep in a safe range.
bool Builder::leafFits(ValueId v, Domain dom) const {
  const Meta &m = meta[size_t(v)];
  return m.input || (m.tameConst && dom == Domain::Any);
}

bool Builder::mayFeed(const OpDef &op, size_t i, ValueId v,
                      const std::vector<TensorType> &types) const {
  return leafFits(v, op.domain(i)) ||
         inDomain(ranges[size_t(v)], op.domain(i), types);
}

bool Builder::cannotOverflow(const OpDef &op,
                             const std::vector<ValueId> &operands,
                             const std::vector<TensorType> &types,
                             uint32_t leafMask, const Attrs &attrs,
                             DType result) const {
  std::vector<Interval> in;
  for (size_t i = 0; i < operands.size(); ++i)
    in.push_back(operands[i] >= 0      ? ranges[size_t(operands[i])]
                 : (leafMask >> i) & 1 ? tameRange(types[i].dtype)
                                       : fullRange(types[i].dtype));
  bool overflow = false;
  resultRange(op, in, types, attrs, result, &overflow);
  return !overflow;
}

Tensor Builder::constValues(const TensorType &t, bool tame, Domain dom) {
  Tensor v(t);
  DType d = t.dtype;
  bool wild = !tame && dom == Domain::Any;
  if (isFloat(d)) {
    // Edge values, and (wild only) the specials and extremes.
    const std::vector<double> edges = floatEdges(d, EdgeUse::Constant),
                              specials = floatSpecials(d, EdgeUse::Constant);
    for (int64_t i = 0, n = v.size(); i < n; ++i) {
      double x =
          rng.chance(kConstEdgeChance) ? rng.pick(edges) : rng.uniform(-2, 2);
      if (wild && rng.chance(kConstSpecialChance))
        x = rng.pick(specials);
      if (dom == Domain::Positive || dom == Domain::NonNegative)
        x = std::fabs(x);
      if ((dom == Domain::Positive || dom == Domain::NonZero) &&
          std::fabs(x) < 0.0625)
        x = 1.0;
      v.setF(i, x);
    }
    return v;
  }
  const std::vector<int64_t> edges = intEdges(d, EdgeUse::Constant);
  auto [lo, hi] = tameIntBounds(d);
  if (dom == Domain::ShiftAmount)
    lo = 0, hi = bitWidth(d) - 1;
  else if (dom == Domain::Positive)
    lo = 1;
  else if (dom == Domain::NonNegative)
    lo = 0;
  for (int64_t i = 0, n = v.size(); i < n; ++i) {
    int64_t x = rng.uniformInt(lo, hi);
    if (wild && rng.chance(kConstIntEdgeChance))
      x = rng.pick(edges);
    if (dom == Domain::NonZero && x == 0)
      x = 1;
    v.setI(i, x);
  }
  return v;
}

std::optional<ValueId> Builder::leaf(const TensorType &t, bool tame,
                                     Domain dom) {
  if (!allowedType(t))
    return std::nullopt;
  static const OpDef *constOp = &opDef(OpId::Const);
  bool constOk =
      enabledMask[size_t(constOp - allOps().data())] && dom != Domain::Index;
  if (constOk && rng.chance(o.constRate)) {
    Attrs at;
    at.set("value", constValues(t, tame, dom));
    ValueId v = commit(*constOp, {}, std::move(at), {t});
    meta[size_t(v)].tameConst = tame && dom == Domain::Any;
    return v;
  }
  // Sharing an input between consumers is fine: the input generator meets
  // the domains of all of them.
  if (rng.chance(kShareInputChance)) {
    ValueId v = pickValue([&](const TensorType &vt, ValueId id) {
      return meta[size_t(id)].input && vt == t;
    });
    if (v >= 0)
      return v;
  }
  ValueId v = g.addInput("in" + std::to_string(inputCount++), t);
  meta.push_back({});
  ranges.push_back(tameRange(t.dtype));
  meta.back().input = true;
  return v;
}

std::optional<ValueId> Builder::step(const OpDef &op, ValueId hint,
                                     bool sameType) {
  if (!room())
    return std::nullopt;
  DType d;
  Shape shape;
  auto opAllows = [&](DType t) { return op.allows(t) && allowsDType(t); };
  if (hint < 0 && rng.chance(kHintChance))
    hint = pickValue(
        [&](const TensorType &t, ValueId) { return opAllows(t.dtype); });
  if (hint >= 0) {
    const TensorType &ht = g.typeOf(hint);
    if (!opAllows(ht.dtype))
      return std::nullopt;
    d = ht.dtype;
    shape = ht.shape;
  } else {
    std::vector<DType> choices;
    for (DType t : op.dtypes)
      if (allowsDType(t))
        choices.push_back(t);
    if (choices.empty())
      return std::nullopt;
    d = rng.pick(choices);
    shape = freshShape();
  }
  std::optional<OperandSample> sample;
  if (op.sampleOperands)
    sample = op.sampleOperands(rng, d, shape);
  else
    sample = OperandSample{
        std::vector<TensorType>(size_t(op.minOperands), {d, shape}), 0};
  if (!sample)
    return std::nullopt;
  for (const TensorType &t : sample->types)
    if (!allowedType(t))
      return std::nullopt;
  std::optional<Attrs> drawn = drawAttrs(op, sample->types);
  if (!drawn)
    return std::nullopt;
  Attrs attrs = std::move(*drawn);
  auto results = op.infer(sample->types, attrs);
  if (!results)
    return std::nullopt;
  for (const TensorType &t : *results)
    if (!allowedType(t))
      return std::nullopt;
  if (sameType && (hint < 0 || (*results)[0] != g.typeOf(hint)))
    return std::nullopt;
  // Operands the op wants as leaves may be computed values whose ranges
  // show them safe; fresh leaves (-1) are made last.
  const std::vector<TensorType> &types = sample->types;
  std::vector<ValueId> operands(types.size(), -1);
  bool computed = false;
  for (size_t i = 0; i < types.size(); ++i) {
    const TensorType &t = types[i];
    bool mustLeaf = (sample->leafMask >> i) & 1;
    auto fits = [&](ValueId v) {
      return !mustLeaf || mayFeed(op, i, v, types);
    };
    ValueId v = -1;
    if (i == 0 && hint >= 0 && g.typeOf(hint) == t && fits(hint))
      v = hint;
    else if (rng.chance(kReuseChance))
      v = pickValue([&](const TensorType &vt, ValueId id) {
        return vt == t && fits(id);
      });
    computed |= v >= 0 && mustLeaf && !leafFits(v, op.domain(i));
    operands[i] = v;
  }
  if (computed && !cannotOverflow(op, operands, types, sample->leafMask, attrs,
                                  (*results)[0].dtype))
    for (size_t i = 0; i < types.size(); ++i)
      if (((sample->leafMask >> i) & 1) && operands[i] >= 0 &&
          !leafFits(operands[i], op.domain(i)))
        operands[i] = -1; // back to the leaves that are safe by construction
  for (size_t i = 0; i < types.size(); ++i) {
    if (operands[i] >= 0)
      continue;
    bool mustLeaf = (sample->leafMask >> i) & 1;
    auto l = leaf(types[i], mustLeaf, op.domain(i));
    if (!l)
      return std::nullopt;
    operands[i] = *l;
  }
  return commit(op, std::move(operands), std::move(attrs), std::move(*results));
}

namespace {
// Whether the op table's emission writes a node of `op` on operands of
// `types` in MLIR `syntax` (on a graph of that node alone).
bool expressible(const OpDef &op, const std::vector<TensorType> &types,
                 const Attrs &attrs, int syntax) {
  Graph g;
  std::vector<ValueId> operands;
  for (const TensorType &t : types)
    operands.push_back(g.addInput("x" + std::to_string(operands.size()), t));
  if (!g.addNode(op.id, operands, attrs))
    return true; // not a node at all: the type rule refuses it after this
  EmitContext ctx(g, syntax);
  return op.emit && !op.emit(ctx, g.nodes.back());
}
} // namespace

std::optional<Attrs> Builder::drawAttrs(const OpDef &op,
                                        const std::vector<TensorType> &types) {
  // Only an older release costs draws: MLIR 22's streams are unchanged.
  constexpr int kDraws = 8;
  for (int k = 0; k < kDraws; ++k) {
    Attrs a =
        withDefaults(op, op.sampleAttrs ? op.sampleAttrs(rng, types) : Attrs());
    if (o.mlirSyntax >= 22 || expressible(op, types, a, o.mlirSyntax))
      return a;
  }
  return std::nullopt;
}

std::optional<ValueId> Builder::randomStep(ValueId hint, bool sameType) {
  for (int attempt = 0; attempt < kStepAttempts; ++attempt)
    if (auto v = step(*ops[rng.weighted(weights)], hint, sameType))
      return v;
  return std::nullopt;
}

std::optional<ValueId> Builder::placeOn(const OpDef &op,
                                        std::vector<ValueId> operands,
                                        std::optional<Attrs> attrs) {
  if (!room())
    return std::nullopt;
  std::vector<TensorType> types;
  for (ValueId v : operands)
    types.push_back(g.typeOf(v));
  if (types.empty() || !allowsDType(types[0].dtype) ||
      !op.allows(types[0].dtype))
    return std::nullopt;
  uint32_t leafMask = 0;
  if (op.sampleOperands) {
    // The leaf requirements for this dtype.
    auto sample = op.sampleOperands(rng, types[0].dtype, types[0].shape);
    if (!sample)
      return std::nullopt;
    for (size_t i = 0; i < operands.size(); ++i)
      if (((sample->leafMask >> i) & 1) && !mayFeed(op, i, operands[i], types))
        return std::nullopt;
    leafMask = sample->leafMask;
  }
  std::optional<Attrs> drawn =
      attrs ? std::optional<Attrs>(withDefaults(op, *attrs))
            : drawAttrs(op, types);
  if (!drawn)
    return std::nullopt;
  Attrs at = std::move(*drawn);
  auto results = op.infer(types, at);
  if (!results)
    return std::nullopt;
  if (leafMask &&
      !cannotOverflow(op, operands, types, leafMask, at, (*results)[0].dtype))
    return std::nullopt;
  for (const TensorType &t : *results)
    if (!allowedType(t))
      return std::nullopt;
  return commit(op, std::move(operands), std::move(at), std::move(*results));
}

void Builder::adopt(const Graph &base) {
  g = base;
  meta.assign(g.values.size(), {});
  for (ValueId v : g.inputs)
    meta[size_t(v)].input = true;
  for (const Node &n : g.nodes)
    for (ValueId v : n.operands)
      ++meta[size_t(v)].uses;
  std::vector<Interval> in;
  for (ValueId v : g.inputs)
    in.push_back(tameRange(g.typeOf(v).dtype));
  ranges = propagateRanges(g, in);
  // New inputs are named in<k> past every such name of base.
  for (const ValueInfo &v : g.values)
    if (v.name.size() > 2 && v.name.compare(0, 2, "in") == 0 &&
        std::all_of(v.name.begin() + 2, v.name.end(),
                    [](unsigned char c) { return std::isdigit(c) != 0; }))
      inputCount = std::max(inputCount, std::atoi(v.name.c_str() + 2) + 1);
}

void Builder::block() {
  Family f = o.family;
  if (f == Family::Mixed)
    f = Family(rng.uniformInt(0, int64_t(Family::Mixed) - 1));
  switch (f) {
  case Family::Random:
    randomStep();
    break;
  case Family::Chain:
    chainBlock(*this);
    break;
  case Family::Residual:
    residualBlock(*this);
    break;
  case Family::Branch:
    branchBlock(*this);
    break;
  case Family::Attention:
    attentionBlock(*this);
    break;
  case Family::ConvStack:
    convStackBlock(*this);
    break;
  case Family::Mlp:
    mlpBlock(*this);
    break;
  case Family::Mixed:
    break;
  }
}

Expected<Graph> Builder::run() {
  int stalls = 0;
  while (placed < target) {
    int before = placed;
    block();
    if (placed == before)
      randomStep(); // the family did not fit here
    if (placed == before && ++stalls > kMaxStalls)
      return makeError("cannot place more than " + std::to_string(placed) +
                       " ops with these options (dtypes, ranks, sizes or ops "
                       "too restrictive)");
  }
  // Every value nothing consumes is an output: graphs may have several.
  // (An adopted graph's outputs stay, once.)
  for (const Node &n : g.nodes)
    for (ValueId v : n.results)
      if (meta[size_t(v)].uses == 0 &&
          std::find(g.outputs.begin(), g.outputs.end(), v) == g.outputs.end())
        g.addOutput(v);
  return std::move(g);
}

} // namespace gen

Expected<Graph> generateGraph(const GenOptions &options, uint64_t seed) {
  gen::Builder b(options, seed);
  CC_TRY(b.init());
  CC_ASSIGN(g, b.run());
  g.name = "gen_" + std::to_string(seed);
  return std::move(g);
}

Expected<Graph> extendGraph(const Graph &base, const GenOptions &options,
                            uint64_t seed) {
  gen::Builder b(options, seed);
  CC_TRY(b.init());
  b.adopt(base);
  CC_ASSIGN(g, b.run());
  g.name = base.name;
  return std::move(g);
}

void addOpStats(const Graph &g, OpStats &stats) {
  for (const Node &n : g.nodes) {
    if (n.operands.empty()) {
      ++stats[std::string(opName(n.op))][g.typeOf(n.results[0]).dtype];
      continue;
    }
    // The data dtype: that of most operands, the earliest on a tie (select's
    // values, not its i1 condition; conv's input, not its i32 bias).
    DType best = g.typeOf(n.operands[0]).dtype;
    size_t bestCount = 0;
    for (ValueId a : n.operands) {
      DType d = g.typeOf(a).dtype;
      size_t c = size_t(
          std::count_if(n.operands.begin(), n.operands.end(),
                        [&](ValueId b) { return g.typeOf(b).dtype == d; }));
      if (c > bestCount)
        best = d, bestCount = c;
    }
    ++stats[std::string(opName(n.op))][best];
  }
}

} // namespace cc
