#include "generators/Inputs.h"

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
};

Constraint constraintOf(const Graph &g, ValueId input) {
  Constraint c;
  for (const Node &n : g.nodes) {
    const OpDef *def = findOp(n.op);
    if (!def)
      continue;
    for (size_t p = 0; p < n.operands.size(); ++p) {
      if (n.operands[p] != input)
        continue;
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
  static const std::vector<double> edges = {0.0, -0.0, 1.0, -1.0, 0.5,
                                            -0.5, 2.0, -2.0, 1.5, -1.5};
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
  static const std::vector<int64_t> edges = {0, 1, -1, 2, -2};
  int64_t v = rng.uniformInt(lo, hi);
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

} // namespace

Inputs makeInputs(const Graph &g, uint64_t seed, const InputOptions &options) {
  Inputs inputs;
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    ValueId v = g.inputs[k];
    Rng rng = Rng::forStream(seed, k);
    Constraint c = constraintOf(g, v);
    Tensor t(g.typeOf(v));
    for (int64_t i = 0, n = t.size(); i < n; ++i) {
      if (isFloat(t.dtype()))
        t.setF(i, floatValue(rng, t.dtype(), c, options));
      else
        t.setI(i, intValue(rng, t.dtype(), c, options));
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

} // namespace cc
