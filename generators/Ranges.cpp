#include "generators/Ranges.h"

#include <cmath>

namespace cc {

Interval fullRange(DType d) {
  if (isFloat(d))
    return {};
  return {double(intMin(d)), double(intMax(d)), false};
}

std::pair<int64_t, int64_t> tameIntBounds(DType d) {
  int64_t m = d == DType::i32 ? 64 : d == DType::i16 ? 1024 : 0;
  return m > 0 ? std::pair{-m, m} : std::pair{intMin(d), intMax(d)};
}

Interval tameRange(DType d) {
  if (isFloat(d))
    return {-2.5, 2.5, false};
  auto [lo, hi] = tameIntBounds(d);
  return {double(lo), double(hi), false};
}

bool inDomain(const Interval &r, Domain domain,
              const std::vector<TensorType> &operandTypes) {
  if (domain == Domain::Any)
    return true;
  if (r.mayBeNaN)
    return false;
  switch (domain) {
  case Domain::Any:
    return true;
  case Domain::Positive:
    return r.lo > 0;
  case Domain::NonZero:
    return r.lo > 0 || r.hi < 0;
  case Domain::NonNegative:
    return r.lo >= 0;
  case Domain::ShiftAmount:
    return r.lo >= 0 && r.hi < bitWidth(operandTypes.at(0).dtype);
  case Domain::Index: {
    const Shape &values = operandTypes.at(0).shape;
    return r.lo >= 0 && r.hi < double(values.size() > 1 ? values[1] : 1);
  }
  case Domain::Finite:
    return std::isfinite(r.lo) && std::isfinite(r.hi);
  }
  return false;
}

Interval resultRange(const OpDef &op, const std::vector<Interval> &operands,
                     const std::vector<TensorType> &operandTypes,
                     const Attrs &attrs, DType result, bool *overflow) {
  Interval r =
      op.range ? op.range(operands, operandTypes, attrs) : fullRange(result);
  if (isInt(result)) {
    Interval full = fullRange(result);
    bool out = r.mayBeNaN || r.lo < full.lo || r.hi > full.hi;
    if (overflow)
      *overflow = out;
    return out ? full : Interval{r.lo, r.hi, false};
  }
  if (overflow)
    *overflow = false;
  double top = maxFinite(result);
  if (r.hi > top)
    r.hi = INFINITY;
  if (r.lo < -top)
    r.lo = -INFINITY;
  return r;
}

namespace {

bool tame(const Interval &r) {
  return !r.mayBeNaN && std::isfinite(r.lo) && std::isfinite(r.hi);
}

// One pass over the nodes: ranges, and hazards when asked for.
std::vector<Interval> analyze(const Graph &g,
                              const std::vector<Interval> &inputRanges,
                              std::vector<Hazard> *hazards) {
  std::vector<Interval> ranges(g.values.size());
  for (size_t i = 0; i < g.inputs.size(); ++i)
    ranges[size_t(g.inputs[i])] = i < inputRanges.size()
                                      ? inputRanges[i]
                                      : fullRange(g.typeOf(g.inputs[i]).dtype);
  std::vector<Interval> operands;
  std::vector<TensorType> types;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node &n = g.nodes[k];
    const OpDef *def = &opDef(n.op);
    operands.clear();
    types.clear();
    bool finiteIn = true;
    for (ValueId v : n.operands) {
      operands.push_back(ranges[size_t(v)]);
      types.push_back(g.typeOf(v));
      finiteIn &= tame(operands.back());
    }
    for (size_t r = 0; r < n.results.size(); ++r) {
      DType d = g.typeOf(n.results[r]).dtype;
      if (r > 0) {
        ranges[size_t(n.results[r])] = fullRange(d);
        continue;
      }
      bool overflow = false;
      Interval out = resultRange(*def, operands, types,
                                 withDefaults(*def, n.attrs), d, &overflow);
      ranges[size_t(n.results[r])] = out;
      if (!hazards)
        continue;
      if (overflow)
        hazards->push_back({k, std::string(opName(n.op)) + " may overflow " +
                                   std::string(dtypeName(d))});
      else if (isFloat(d) && finiteIn && !tame(out))
        hazards->push_back(
            {k, std::string(opName(n.op)) +
                    " may turn finite operands into Inf or NaN"});
    }
    if (!hazards || !def)
      continue;
    // Leaves (inputs, constants) are drawn inside their consumers' domains.
    for (size_t p = 0; p < n.operands.size(); ++p) {
      int32_t producer = g.values[size_t(n.operands[p])].producer;
      bool leaf = producer < 0 || g.nodes[size_t(producer)].operands.empty();
      if (!leaf && !inDomain(operands[p], def->domain(p), types))
        hazards->push_back({k, std::string(opName(n.op)) + " operand " +
                                   std::to_string(p) +
                                   " may leave its domain"});
    }
  }
  return ranges;
}

} // namespace

std::vector<Interval>
propagateRanges(const Graph &g, const std::vector<Interval> &inputRanges) {
  return analyze(g, inputRanges, nullptr);
}

std::vector<Hazard> findHazards(const Graph &g,
                                const std::vector<Interval> &inputRanges) {
  std::vector<Hazard> hazards;
  analyze(g, inputRanges, &hazards);
  return hazards;
}

bool mayBeNonFinite(const Graph &g, const std::vector<Interval> &ranges) {
  for (ValueId v : g.outputs)
    if (isFloat(g.typeOf(v).dtype) && !tame(ranges[size_t(v)]))
      return true;
  return false;
}

} // namespace cc
