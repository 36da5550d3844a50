#include "oracles/Numeric.h"

#include "core/Json.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace cc {

namespace {

// An order-preserving integer image of a float's bits, so that adjacent
// floats differ by one and -0 == +0.
int64_t orderedBits(DType t, double v) {
  int64_t bits, signMask;
  switch (t) {
  case DType::f16:
    bits = f64ToF16Bits(v), signMask = 0x8000;
    break;
  case DType::bf16:
    bits = f64ToBF16Bits(v), signMask = 0x8000;
    break;
  case DType::f32:
    bits = std::bit_cast<uint32_t>(f64ToF32(v)), signMask = 0x80000000LL;
    break;
  default: {
    uint64_t u = std::bit_cast<uint64_t>(v);
    int64_t mag = int64_t(u & ~(uint64_t(1) << 63));
    return (u >> 63) ? -mag : mag;
  }
  }
  return (bits & signMask) ? -(bits & (signMask - 1)) : bits;
}

enum Class : uint8_t { Finite, NaN, PosInf, NegInf };
Class classify(double v) {
  if (std::isnan(v))
    return NaN;
  if (std::isinf(v))
    return v > 0 ? PosInf : NegInf;
  return Finite;
}

std::vector<int64_t> unflatten(int64_t flat, const Shape &shape) {
  std::vector<int64_t> idx(shape.size());
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    int64_t n = shape[d] ? shape[d] : 1;
    idx[d] = flat % n;
    flat /= n;
  }
  return idx;
}

// Raw element loads: the judge reads every element once, so it avoids the
// per-element dtype dispatch of Tensor::getF.
template <DType D> double load(const uint8_t *p, int64_t i) {
  if constexpr (D == DType::f32) {
    float f;
    std::memcpy(&f, p + 4 * i, 4);
    return f;
  } else if constexpr (D == DType::f64) {
    double d;
    std::memcpy(&d, p + 8 * i, 8);
    return d;
  } else {
    uint16_t b;
    std::memcpy(&b, p + 2 * i, 2);
    return D == DType::f16 ? f16BitsToF64(b) : bf16BitsToF64(b);
  }
}

void setMismatch(OutputReport &r, const Shape &shape, int64_t i, double exp,
                 double act, double target, double allowed, const char *why) {
  ++r.mismatches;
  r.ok = false;
  if (r.first.flatIndex >= 0 && r.first.flatIndex <= i)
    return;
  r.first = {i, unflatten(i, shape), exp, act, target, allowed, why};
}

struct Candidate {
  int64_t index;
  double expected, actual, target, error;
  double terms; // magnitude of the terms behind the element
};

template <DType D>
void judgeFloat(OutputReport &r, const Tensor &act, const Tensor &ref,
                const Tensor &target, const Tensor *magnitude,
                const NumericOptions &o) {
  const uint8_t *a = act.data(), *e = ref.data(), *t = target.data();
  const uint8_t *m = magnitude ? magnitude->data() : nullptr;
  const double tiny = minNormal(D), big = maxFinite(D);
  const double rel = r.relTolerance;
  double sumAbs = 0;
  int64_t finite = 0;
  std::vector<Candidate> candidates;
  for (int64_t i = 0, n = act.size(); i < n; ++i) {
    double av = load<D>(a, i), ev = load<DType::f64>(e, i), tv = load<D>(t, i);
    // The f64 reference rounded to D only matters where it overflows.
    Class ec =
        std::fabs(ev) > big ? classify(roundToFloat(D, ev)) : classify(ev);
    Class ac = classify(av), tc = classify(tv);
    if (ac != Finite || ec != Finite) {
      if (ac != ec && ac != tc)
        setMismatch(r, act.shape(), i, ev, av, tv, 0, "nan-inf");
      continue;
    }
    if (tc != Finite) {
      ++r.uncalibrated;
      continue;
    }
    double err = std::fabs(av - ev), terr = std::fabs(tv - ev),
           mag = std::fabs(ev);
    sumAbs += mag;
    ++finite;
    r.maxAbsError = std::max(r.maxAbsError, err);
    r.maxRelError = std::max(r.maxRelError, err / std::max(mag, tiny));
    r.maxTargetError = std::max(r.maxTargetError, terr);
    if (err > 0) {
      int64_t d = orderedBits(D, av) - orderedBits(D, ev);
      r.maxUlp = std::max<uint64_t>(r.maxUlp, uint64_t(d < 0 ? -d : d));
    }
    // The per-element bound; the tensor-wide floor is known only at the end.
    double terms = m ? std::max(mag, load<DType::f64>(m, i)) : mag;
    if (err > std::max({o.margin * terr, rel * terms, tiny}))
      candidates.push_back({i, ev, av, tv, err, terms});
  }
  // Cancellation makes elements near zero inaccurate in any evaluation
  // order: allow the tensor's typical magnitude times the relative bound,
  // and the worst error of the faithful target-precision evaluation.
  double meanAbs = finite ? sumAbs / double(finite) : 0;
  r.absTolerance = std::max({rel * meanAbs, o.margin * r.maxTargetError, tiny});
  for (const Candidate &c : candidates) {
    double allowed = std::max({o.margin * std::fabs(c.target - c.expected),
                               rel * c.terms, r.absTolerance});
    if (c.error > allowed)
      setMismatch(r, act.shape(), c.index, c.expected, c.actual, c.target,
                  allowed, "value");
  }
}

void judgeInt(OutputReport &r, const Tensor &act, const Tensor &ref,
              const Tensor &target, bool floatDerived) {
  for (int64_t i = 0, n = act.size(); i < n; ++i) {
    int64_t av = act.getI(i), ev = ref.getI(i);
    if (av == ev)
      continue;
    uint64_t d =
        av > ev ? uint64_t(av) - uint64_t(ev) : uint64_t(ev) - uint64_t(av);
    r.maxUlp = std::max(r.maxUlp, d);
    r.maxAbsError = std::max(r.maxAbsError, double(d));
    r.maxRelError =
        std::max(r.maxRelError, double(d) / std::max<double>(std::abs(ev), 1));
    // A float rounding difference may legitimately flip a float-derived
    // integer: accept the value of the target-precision reference too.
    if (floatDerived && av == target.getI(i))
      continue;
    setMismatch(r, act.shape(), i, double(ev), double(av),
                double(target.getI(i)), 0, "exact");
  }
}

// What TOSA leaves open about one output.
struct OutputLatitude {
  const std::vector<uint8_t> *undefined = nullptr;
  const Tensor *otherZeroSign = nullptr; // f64 for float outputs
};

// Whether `other` explains the compiler's value `act` better than `ref`.
bool closer(double act, double other, double ref) {
  Class a = classify(act), o = classify(other), r = classify(ref);
  if (a != r || o != r)
    return a == o && a != r;
  return a == Finite && std::fabs(act - other) < std::fabs(act - ref);
}

// The references with every element resolved to the permitted reading
// nearest to the compiler's value: an undefined element to the value
// itself, an element whose open zero sign explains it to that choice.
void resolveLatitude(OutputReport &r, const Tensor &act, Tensor &ref,
                     Tensor &target, const OutputLatitude &l) {
  for (int64_t i = 0, n = act.size(); i < n; ++i) {
    double a = act.asDouble(i), e = ref.asDouble(i), pick = e;
    if (l.undefined && l.undefined->size() == size_t(n) &&
        (*l.undefined)[size_t(i)]) {
      pick = a;
      r.undefined += !sameValue(a, e);
    } else if (l.otherZeroSign) {
      double o = l.otherZeroSign->asDouble(i);
      if (!sameValue(o, e) && closer(a, o, e)) {
        pick = o;
        ++r.otherZeroSign;
      }
    }
    if (sameValue(pick, e))
      continue;
    isFloat(ref.dtype()) ? ref.setF(i, pick) : ref.setI(i, int64_t(pick));
    isFloat(target.dtype()) ? target.setF(i, pick)
                            : target.setI(i, int64_t(pick));
  }
}

// References as the judge reads them: floats in f64 (ref) and in the
// output dtype (target). cc::interpret's outputs already are, and are read
// in place; others are converted into `holder`.
const Tensor &as(const Tensor &t, DType d, Tensor &holder) {
  if (t.dtype() == d)
    return t;
  holder = t.convertTo(d);
  return holder;
}

OutputReport judgeOne(const OutputSpec &spec, const Tensor &act,
                      const Tensor &ref, const Tensor &target,
                      const Tensor *magnitude, const NumericOptions &o,
                      const OutputLatitude &latitude) {
  OutputReport r;
  r.name = spec.name;
  r.type = spec.type;
  r.accumulation = spec.model.accumulation;
  DType d = spec.type.dtype;
  // A wrong result type is a finding even before any value is compared.
  if (act.type() != spec.type || ref.shape() != spec.type.shape ||
      target.shape() != spec.type.shape || isFloat(ref.dtype()) != isFloat(d) ||
      isFloat(target.dtype()) != isFloat(d)) {
    r.ok = false;
    r.mismatches = 1;
    r.first.reason = "type";
    return r;
  }
  Tensor refHolder, targetHolder;
  const Tensor *e = &ref, *t = &target;
  if (isFloat(d)) {
    e = &as(ref, DType::f64, refHolder);
    t = &as(target, d, targetHolder);
  }
  if ((latitude.undefined && !latitude.undefined->empty()) ||
      (latitude.otherZeroSign && latitude.otherZeroSign->type() == e->type())) {
    refHolder = *e, targetHolder = *t;
    e = &refHolder, t = &targetHolder;
    resolveLatitude(r, act, refHolder, targetHolder, latitude);
  }
  if (!isFloat(d)) {
    judgeInt(r, act, *e, *t, spec.model.floatDerived);
    return r;
  }
  r.relTolerance =
      o.epsPerStep * epsilon(d) * std::max(1.0, spec.model.accumulation);
  // Magnitudes of another shape or dtype (not cc::interpret's) are unused.
  const Tensor *m = magnitude && magnitude->dtype() == DType::f64 &&
                            magnitude->shape() == act.shape()
                        ? magnitude
                        : nullptr;
  switch (d) {
  case DType::f16:
    judgeFloat<DType::f16>(r, act, *e, *t, m, o);
    break;
  case DType::bf16:
    judgeFloat<DType::bf16>(r, act, *e, *t, m, o);
    break;
  case DType::f32:
    judgeFloat<DType::f32>(r, act, *e, *t, m, o);
    break;
  default:
    judgeFloat<DType::f64>(r, act, *e, *t, m, o);
    break;
  }
  return r;
}

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

std::string indexStr(const std::vector<int64_t> &idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i)
    s += (i ? "," : "") + std::to_string(idx[i]);
  return s + "]";
}

} // namespace

uint64_t ulpDistance(DType t, double a, double b) {
  if (isFloat(t) && t != DType::f64) {
    a = roundToFloat(t, a);
    b = roundToFloat(t, b);
  }
  int64_t d = orderedBits(t, a) - orderedBits(t, b);
  return d < 0 ? uint64_t(-d) : uint64_t(d);
}

NumericReport judgeNumeric(const std::vector<OutputSpec> &specs,
                           const Outputs &actual, const Outputs &ref,
                           const Outputs &refTarget,
                           const NumericOptions &options,
                           const Outputs *magnitudes,
                           const Latitude *latitude) {
  NumericReport rep;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (i >= actual.size() || i >= ref.size() || i >= refTarget.size()) {
      OutputReport r;
      r.name = specs[i].name;
      r.type = specs[i].type;
      r.ok = false;
      r.mismatches = 1;
      r.first.reason = "missing";
      rep.outputs.push_back(r);
    } else {
      const Tensor *m =
          magnitudes && i < magnitudes->size() ? &(*magnitudes)[i] : nullptr;
      OutputLatitude l;
      if (latitude && i < latitude->undefined.size())
        l.undefined = &latitude->undefined[i];
      if (latitude && i < latitude->otherZeroSign.size())
        l.otherZeroSign = &latitude->otherZeroSign[i];
      rep.outputs.push_back(
          judgeOne(specs[i], actual[i], ref[i], refTarget[i], m, options, l));
    }
    rep.ok &= rep.outputs.back().ok;
  }
  if (actual.size() > specs.size())
    rep.ok = false; // extra outputs: reported in summary()
  return rep;
}

std::string NumericReport::summary() const {
  for (const OutputReport &r : outputs) {
    if (r.ok)
      continue;
    const auto &m = r.first;
    std::string s = "output '" + r.name + "' (" + r.type.str() + "): ";
    if (m.reason == "missing")
      return s + "missing from the compiler's results";
    if (m.reason == "type")
      return s + "the compiler returned another type or shape";
    s += std::to_string(r.mismatches) + " mismatching element(s); first at " +
         indexStr(m.index) + ": expected " + fmt(m.expected) + ", got " +
         fmt(m.actual);
    if (m.reason == "value")
      s += " (abs error " + fmt(std::fabs(m.actual - m.expected)) +
           ", allowed " + fmt(m.allowed) + ")";
    else if (m.reason == "nan-inf")
      s += " (NaN/Inf position)";
    else
      s += " (integers must be exact)";
    return s;
  }
  if (!ok)
    return "the compiler returned more outputs than the graph has";
  double maxUlp = 0;
  for (const OutputReport &r : outputs)
    maxUlp = std::max(maxUlp, double(r.maxUlp));
  return "ok (max ulp " + fmt(maxUlp) + ")";
}

nlohmann::json NumericReport::toJson() const {
  nlohmann::json j;
  j["ok"] = ok;
  j["outputs"] = nlohmann::json::array();
  for (const OutputReport &r : outputs) {
    nlohmann::json o = {
        {"name", r.name},
        {"type", r.type.str()},
        {"ok", r.ok},
        {"mismatches", r.mismatches},
        {"max_abs_error", floatToJson(r.maxAbsError)},
        {"max_rel_error", floatToJson(r.maxRelError)},
        {"max_ulp", r.maxUlp},
        {"uncalibrated", r.uncalibrated},
        {"undefined", r.undefined},
        {"other_zero_sign", r.otherZeroSign},
        {"tolerance",
         {{"accumulation", r.accumulation},
          {"rel", r.relTolerance},
          {"abs", r.absTolerance},
          {"max_target_error", floatToJson(r.maxTargetError)}}}};
    if (!r.ok)
      o["first_mismatch"] = {
          {"flat_index", r.first.flatIndex},
          {"index", r.first.index},
          {"expected", floatToJson(r.first.expected)},
          {"actual", floatToJson(r.first.actual)},
          {"target_expected", floatToJson(r.first.targetExpected)},
          {"allowed", floatToJson(r.first.allowed)},
          {"reason", r.first.reason}};
    j["outputs"].push_back(o);
  }
  return j;
}

Finding miscompileFinding(const Graph &g, const NumericReport &report,
                          const std::string &backend) {
  std::string detail;
  for (size_t i = 0; i < report.outputs.size() && detail.empty(); ++i) {
    if (report.outputs[i].ok || i >= g.outputs.size())
      continue;
    const ValueInfo &v = g.values.at(g.outputs[i]);
    std::string op = v.producer >= 0
                         ? std::string(opName(g.nodes.at(v.producer).op))
                         : "input";
    detail = op + ":" + std::string(dtypeName(v.type.dtype)) + ":" +
             report.outputs[i].first.reason;
  }
  return Finding{Signature{Kind::Miscompile, backend, "", detail},
                 "miscompile: " + report.summary()};
}

} // namespace cc
