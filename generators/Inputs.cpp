#include "generators/Inputs.h"

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"
#include "core/Rng.h"

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
};

// Ops (and operand positions) on which integer minimum and maximum are
// defined: no overflow, no REQUIRE on the value.
bool extremesSafeFor(const std::string &op, size_t operand) {
  static const std::vector<std::string> safe = {
      "bitwise_and", "bitwise_or", "bitwise_xor", "equal", "greater",
      "greater_equal", "maximum", "minimum", "clamp", "cast", "select",
      "reshape", "transpose", "slice", "concat", "pad", "tile", "reverse",
      "reduce_max", "reduce_min", "argmax", "max_pool2d", "logical_and",
      "logical_or", "logical_not"};
  if (op == "arithmetic_right_shift" || op == "logical_left_shift" || op == "gather")
    return operand == 0;
  return std::find(safe.begin(), safe.end(), op) != safe.end();
}

Constraint constraintOf(const Graph &g, ValueId input) {
  Constraint c;
  for (const Node &n : g.nodes) {
    const OpDef *def = findOp(n.op);
    if (!def)
      continue;
    for (size_t p = 0; p < n.operands.size(); ++p) {
      if (n.operands[p] != input)
        continue;
      c.extremesSafe &= extremesSafeFor(n.op, p);
      switch (def->domain(p)) {
      case Domain::Any: break;
      case Domain::Positive: c.positive = true; break;
      case Domain::NonZero: c.nonZero = true; break;
      case Domain::NonNegative: c.nonNegative = true; break;
      case Domain::Finite: c.finite = true; break;
      case Domain::ShiftAmount:
        c.nonNegative = true;
        c.limit = std::min<int64_t>(c.limit,
                                    bitWidth(g.typeOf(n.operands[0]).dtype));
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
  // The value just below 0.5 (0.49999997 in f32) rounds to 0 where a naive
  // round(x) = floor(x + 0.5) gives 1; x.5 are ties of round-to-even.
  const double belowHalf = 0.5 - epsilon(d) / 4;
  const std::vector<double> edges = {0.0,  -0.0, 1.0,       -1.0,      0.5,
                                     -0.5, 2.0,  -2.0,      1.5,       -1.5,
                                     2.5,  -2.5, belowHalf, -belowHalf};
  if (o.specialRate > 0 && unconstrained(c) && rng.chance(o.specialRate)) {
    const double denormal = minNormal(d) / 4;
    const std::vector<double> specials = {INFINITY, -INFINITY, NAN, denormal,
                                          -denormal};
    return rng.pick(specials);
  }
  double v = rng.chance(o.edgeRate) ? rng.pick(edges) : rng.uniform(-2, 2);
  if (c.positive || c.nonNegative)
    v = std::fabs(v);
  if ((c.positive || c.nonZero) && std::fabs(v) < 1.0 / 16)
    v = std::copysign(rng.uniform(0.25, 2), c.positive ? 1.0 : v);
  return v;
}

int64_t intValue(Rng &rng, DType d, const Constraint &c,
                 const InputOptions &o) {
  // Small ranges keep i32 arithmetic away from overflow; i8 (quantized
  // data) uses its whole range.
  int64_t lo = d == DType::i32 ? -64 : d == DType::i16 ? -1024 : intMin(d);
  int64_t hi = d == DType::i32 ? 64 : d == DType::i16 ? 1024 : intMax(d);
  if (c.positive || c.nonNegative)
    lo = c.positive ? 1 : 0;
  hi = std::min(hi, c.limit - 1);
  if (hi < lo)
    hi = lo;
  std::vector<int64_t> edges = {0, 1, -1, 2, -2};
  if (c.extremesSafe && !c.positive && !c.nonNegative &&
      c.limit == std::numeric_limits<int64_t>::max() && !isBool(d)) {
    lo = std::min(lo, intMin(d)), hi = std::max(hi, intMax(d));
    edges.insert(edges.end(), {intMin(d), intMax(d), intMin(d) + 1, intMax(d) - 1});
  }
  int64_t v = rng.uniformInt(isBool(d) || d == DType::i8 || !c.extremesSafe
                                 ? lo
                                 : std::max<int64_t>(lo, -1024),
                             isBool(d) || d == DType::i8 || !c.extremesSafe
                                 ? hi
                                 : std::min<int64_t>(hi, 1024));
  if (rng.chance(o.edgeRate)) {
    int64_t e = rng.pick(edges);
    if (e >= lo && e <= hi)
      v = e;
    else if (rng.chance(0.5))
      v = hi; // the top of the domain is an edge too (shift by width - 1)
  }
  if (c.nonZero && v == 0)
    v = hi > 0 ? 1 : -1;
  return v;
}

Tensor sampleTensor(const Graph &g, ValueId v, Rng &rng,
                    const InputOptions &options) {
  Constraint c = constraintOf(g, v);
  Tensor t(g.typeOf(v));
  for (int64_t i = 0, n = t.size(); i < n; ++i) {
    if (isFloat(t.dtype()))
      t.setF(i, floatValue(rng, t.dtype(), c, options));
    else
      t.setI(i, intValue(rng, t.dtype(), c, options));
  }
  return t;
}

Inputs drawInputs(const Graph &g, uint64_t seed, const InputOptions &options) {
  Inputs inputs;
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    Rng rng = Rng::forStream(seed, k);
    inputs.push_back(sampleTensor(g, g.inputs[k], rng, options));
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
  Inputs inputs;
  InputReport r;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // The first draw uses the seed itself, later ones derived seeds.
    uint64_t s = attempt == 0 ? seed : Rng::forStream(seed, uint64_t(attempt)).next();
    inputs = drawInputs(g, s, options);
    r = inspectInputs(g, inputs);
    r.attempts = attempt + 1;
    if (!r.undefined)
      break;
  }
  if (report)
    *report = r;
  return inputs;
}

Graph withSampledConstants(const Graph &g, uint64_t seed,
                           const InputOptions &options) {
  Graph out = g;
  for (size_t i = 0; i < out.nodes.size(); ++i) {
    Node &n = out.nodes[i];
    if (n.op != "const" || n.results.size() != 1)
      continue;
    Rng rng = Rng::forStream(seed, i);
    n.attrs.set("value", sampleTensor(g, n.results[0], rng, options));
  }
  return out;
}

} // namespace cc
