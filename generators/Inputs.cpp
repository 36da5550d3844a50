#include "generators/Inputs.h"

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"
#include "core/Rng.h"
#include "generators/Edges.h"
#include "generators/Ranges.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cc {

namespace {

// What the direct consumers of one input require of its values.
struct Constraint {
  bool positive = false;
  bool nonZero = false;
  bool nonNegative = false;
  bool finite = false;
  int64_t limit = std::numeric_limits<int64_t>::max(); // values < limit
  // Every consumer wraps, saturates or only compares or moves the value, so
  // integer extremes are defined.
  bool extremesSafe = true;
  // Narrowing (see drawRange): 0 none, 1 tame (no specials or extremes),
  // each further level halves the magnitudes.
  int level = 0;
};

// Narrowing levels before giving up on a hazard.
constexpr int kMaxLevel = 12;

Constraint constraintOf(const Graph &g, ValueId input) {
  Constraint c;
  for (const Node &n : g.nodes) {
    const OpDef *def = &opDef(n.op);
    for (size_t p = 0; p < n.operands.size(); ++p) {
      if (n.operands[p] != input)
        continue;
      c.extremesSafe &= def->allowsIntExtremes(p);
      switch (def->domain(p)) {
      case Domain::Any:
        break;
      case Domain::Positive:
        c.positive = true;
        break;
      case Domain::NonZero:
        c.nonZero = true;
        break;
      case Domain::NonNegative:
        c.nonNegative = true;
        break;
      case Domain::Finite:
        c.finite = true;
        break;
      case Domain::ShiftAmount:
        c.nonNegative = true;
        c.limit =
            std::min<int64_t>(c.limit, bitWidth(g.typeOf(n.operands[0]).dtype));
        break;
      case Domain::Index: {
        // gather(values [N,K,C], indices [N,W]): indices in [0, K).
        const Shape &values = g.typeOf(n.operands[0]).shape;
        c.nonNegative = true;
        c.limit = std::min<int64_t>(c.limit, values.size() > 1 ? values[1] : 1);
        break;
      }
      }
    }
  }
  return c;
}

bool unconstrained(const Constraint &c) {
  return !c.positive && !c.nonZero && !c.nonNegative && !c.finite &&
         c.limit == std::numeric_limits<int64_t>::max();
}

double floatValue(Rng &rng, DType d, const Constraint &c,
                  const InputOptions &o) {
  if (o.specialRate > 0 && c.level == 0 && unconstrained(c) &&
      rng.chance(o.specialRate))
    return rng.pick(floatSpecials(d, EdgeUse::Input));
  double v = rng.chance(o.edgeRate) ? rng.pick(floatEdges(d, EdgeUse::Input))
                                    : rng.uniform(-2, 2);
  if (c.positive || c.nonNegative)
    v = std::fabs(v);
  if ((c.positive || c.nonZero) && std::fabs(v) < 1.0 / 16)
    v = std::copysign(rng.uniform(0.25, 2), c.positive ? 1.0 : v);
  return v;
}

int64_t intValue(Rng &rng, DType d, const Constraint &c,
                 const InputOptions &o) {
  auto [lo, hi] = tameIntBounds(d);
  if (c.positive || c.nonNegative)
    lo = c.positive ? 1 : 0;
  hi = std::min(hi, c.limit - 1);
  if (hi < lo)
    hi = lo;
  bool wide = c.extremesSafe && c.level == 0 && !c.positive && !c.nonNegative &&
              c.limit == std::numeric_limits<int64_t>::max() && !isBool(d);
  if (wide)
    lo = std::min(lo, intMin(d)), hi = std::max(hi, intMax(d));
  bool extremes = c.extremesSafe && c.level == 0;
  int64_t v = rng.uniformInt(
      isBool(d) || d == DType::i8 || !extremes ? lo
                                               : std::max<int64_t>(lo, -1024),
      isBool(d) || d == DType::i8 || !extremes ? hi
                                               : std::min<int64_t>(hi, 1024));
  if (rng.chance(o.edgeRate)) {
    int64_t e = rng.pick(intEdges(d, EdgeUse::Input, wide));
    if (e >= lo && e <= hi)
      v = e;
    else if (rng.chance(0.5))
      v = hi; // the top of the domain is an edge too (shift by width - 1)
  }
  if (c.nonZero && v == 0)
    v = hi > 0 ? 1 : -1;
  return v;
}

// Every value floatValue / intValue can draw under c (a sound hull).
Interval drawRange(DType d, const Constraint &c, const InputOptions &o) {
  double scale = c.level > 1 ? std::ldexp(1.0, 1 - c.level) : 1;
  Interval r = tameRange(d);
  if (isFloat(d)) {
    if (o.specialRate > 0 && c.level == 0 && unconstrained(c))
      return fullRange(d);
    if (c.positive || c.nonNegative)
      r.lo = c.positive ? 1.0 / 16 : 0; // tiny positive values are replaced
    r.hi = std::max(r.hi * scale, r.lo);
    r.lo = r.lo < 0 ? r.lo * scale : r.lo;
    return r;
  }
  if (c.positive || c.nonNegative)
    r.lo = c.positive ? 1 : 0;
  r.hi = std::max(r.lo, std::min(r.hi, double(c.limit) - 1));
  if (c.extremesSafe && c.level == 0 && !c.positive && !c.nonNegative &&
      c.limit == std::numeric_limits<int64_t>::max())
    return fullRange(d);
  if (c.nonZero && r.hi <= 0)
    r.lo = std::min(r.lo, -1.0); // a zero becomes -1
  if (r.lo < 0)
    r.lo = std::min(-1.0, std::ceil(r.lo * scale));
  if (r.hi > 0)
    r.hi = std::max({1.0, r.lo, std::floor(r.hi * scale)});
  return r;
}

Tensor sampleTensor(const TensorType &type, const Constraint &c, Rng &rng,
                    const InputOptions &options) {
  Tensor t(type);
  DType d = type.dtype;
  // Narrowed ranges replace the values outside them.
  Interval bounds = drawRange(d, c, options);
  for (int64_t i = 0, n = t.size(); i < n; ++i) {
    if (isFloat(d)) {
      double v = floatValue(rng, d, c, options);
      if (c.level > 0 && !(v >= bounds.lo && v <= bounds.hi))
        v = roundToFloat(d, rng.uniform(bounds.lo, bounds.hi));
      t.setF(i, v);
      continue;
    }
    int64_t v = intValue(rng, d, c, options);
    if (c.level > 0 && (double(v) < bounds.lo || double(v) > bounds.hi)) {
      v = rng.uniformInt(int64_t(bounds.lo), int64_t(bounds.hi));
      if (c.nonZero && v == 0)
        v = bounds.hi >= 1 ? 1 : -1;
    }
    t.setI(i, v);
  }
  return t;
}

std::vector<Interval> inputRanges(const Graph &g,
                                  const std::vector<Constraint> &cs,
                                  const InputOptions &options) {
  std::vector<Interval> r;
  for (size_t k = 0; k < g.inputs.size(); ++k)
    r.push_back(drawRange(g.typeOf(g.inputs[k]).dtype, cs[k], options));
  return r;
}

// Raises the narrowing level of the inputs upstream of every hazard until
// the ranges show none, or the levels run out.
void narrow(const Graph &g, std::vector<Constraint> &cs,
            const InputOptions &options) {
  for (int round = 0; round < kMaxLevel; ++round) {
    std::vector<Hazard> hazards = findHazards(g, inputRanges(g, cs, options));
    if (hazards.empty())
      return;
    std::vector<char> upstream(g.values.size(), 0);
    for (const Hazard &h : hazards)
      for (ValueId v : g.nodes[h.node].operands)
        upstream[size_t(v)] = 1;
    for (size_t k = g.nodes.size(); k-- > 0;)
      for (ValueId r : g.nodes[k].results)
        if (upstream[size_t(r)])
          for (ValueId v : g.nodes[k].operands)
            upstream[size_t(v)] = 1;
    bool changed = false;
    for (size_t k = 0; k < g.inputs.size(); ++k)
      if (upstream[size_t(g.inputs[k])] && cs[k].level < kMaxLevel)
        ++cs[k].level, changed = true;
    if (!changed)
      return;
  }
}

Inputs drawInputs(const Graph &g, uint64_t seed,
                  const std::vector<Constraint> &cs,
                  const InputOptions &options) {
  Inputs inputs;
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    Rng rng = Rng::forStream(seed, k);
    inputs.push_back(sampleTensor(g.typeOf(g.inputs[k]), cs[k], rng, options));
  }
  return inputs;
}

// Draws before giving up on inputs the reference finds undefined.
constexpr int kAttempts = 8;

} // namespace

InputReport inspectInputs(const Graph &g, const Inputs &inputs) {
  InputReport r;
  for (const Tensor &t : inputs)
    for (int64_t i = 0; isFloat(t.dtype()) && i < t.size(); ++i) {
      double x = t.getF(i);
      r.specialInputs +=
          !std::isfinite(x) || (x != 0 && std::fabs(x) < minNormal(t.dtype()));
    }
  auto out = interpret(g, inputs);
  if (!out) {
    r.undefined = out.error().code() == ErrorCode::Undefined;
    r.undefinedReason = out.error().message();
    return r;
  }
  for (const Tensor &t : *out)
    for (int64_t i = 0; isFloat(t.dtype()) && i < t.size(); ++i)
      r.nonFinite |= !std::isfinite(t.getF(i));
  return r;
}

Inputs makeInputs(const Graph &g, uint64_t seed, const InputOptions &options,
                  InputReport *report) {
  std::vector<Constraint> cs;
  for (ValueId v : g.inputs)
    cs.push_back(constraintOf(g, v));
  narrow(g, cs, options);
  Inputs inputs;
  InputReport r;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // The first draw uses the seed itself, later ones derived seeds.
    uint64_t s =
        attempt == 0 ? seed : Rng::forStream(seed, uint64_t(attempt)).next();
    inputs = drawInputs(g, s, cs, options);
    r = inspectInputs(g, inputs);
    r.attempts = attempt + 1;
    if (!r.undefined)
      break;
  }
  r.narrowedInputs = int(std::count_if(
      cs.begin(), cs.end(), [](const Constraint &c) { return c.level > 0; }));
  r.mayBeNonFinite =
      mayBeNonFinite(g, propagateRanges(g, inputRanges(g, cs, options)));
  if (report)
    *report = r;
  return inputs;
}

Graph withSampledConstants(const Graph &g, uint64_t seed,
                           const InputOptions &options) {
  Graph out = g;
  for (size_t i = 0; i < out.nodes.size(); ++i) {
    Node &n = out.nodes[i];
    if (n.op != OpId::Const || n.results.size() != 1)
      continue;
    Rng rng = Rng::forStream(seed, i);
    n.attrs.set("value",
                sampleTensor(g.typeOf(n.results[0]),
                             constraintOf(g, n.results[0]), rng, options));
  }
  return out;
}

} // namespace cc
