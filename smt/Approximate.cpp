// Measuring an approximation: where the target computes a math function
// by a formula (math-expand-ops, polynomial approximations), both sides run
// on seeded inputs and the distance of their float results is measured in
// units in the last place. MLIR documents no accuracy for math functions,
// so a formula within some ulp is no miscompile. A NaN for a number (or a
// number for a NaN) is no finite distance: a miss, but at ±0 and ±inf,
// where MLIR defines no value (cbrt(inf), atan2(0, 0)).
#include "smt/Replay.h"

#include "core/Rng.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"

#include <climits>
#include <cmath>
#include <limits>
#include <sstream>

namespace cc::smt::detail {

using namespace mlir;

namespace {

constexpr int kRandomSets = 48;
constexpr uint64_t kSeed = 0xa9910c5;

// The input sets after the first: every float element ±0 or ±inf, NaN,
// then finite edges, then random values of every magnitude. Other
// elements keep the first set's values.
using Sets = std::vector<Inputs>;

// Whether every float element of `in` is ±0 or ±inf (and one is).
bool atLimits(const Inputs &in) {
  bool any = false;
  for (const Tensor &t : in)
    for (int64_t i = 0; isFloat(t.dtype()) && i < t.size(); ++i) {
      double v = t.getF(i);
      if (v != 0 && !std::isinf(v))
        return false;
      any = true;
    }
  return any;
}

double randomFloat(DType t, Rng &rng) {
  int lo = std::max(-24, std::ilogb(minNormal(t)));
  int hi = std::min(24, std::ilogb(maxFinite(t)));
  double m = rng.uniform(1, 2) * (rng.chance(0.5) ? -1 : 1);
  return roundToFloat(t, std::ldexp(m, int(rng.uniformInt(lo, hi))));
}

Sets inputSets(const Inputs &first) {
  Sets s;
  s.push_back(first);
  auto each = [&](const std::function<double(DType)> &value) {
    Inputs in = first;
    for (Tensor &t : in)
      if (isFloat(t.dtype()))
        for (int64_t i = 0; i < t.size(); ++i)
          t.setF(i, value(t.dtype()));
    s.push_back(std::move(in));
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {0.0, -0.0, inf, -inf})
    each([v](DType) { return v; });
  each([](DType) { return std::nan(""); });
  for (double sign : {1.0, -1.0}) {
    each([sign](DType) { return sign; });
    each([sign](DType t) { return sign * maxFinite(t); });
    each([sign](DType t) { return sign * minNormal(t); });
    each([sign](DType t) { return sign * minNormal(t) * epsilon(t); });
  }
  Rng rng(kSeed);
  for (int k = 0; k < kRandomSets; ++k)
    each([&rng](DType t) { return randomFloat(t, rng); });
  return s;
}

// The distance of `y` from `x` in units in the last place of `x` in `t`;
// an infinity counts as the value after the largest finite one.
double ulpDistance(DType t, double x, double y) {
  double beyond = std::ldexp(1.0, std::ilogb(maxFinite(t)) + 1);
  auto finite = [&](double v) {
    return std::isinf(v) ? std::copysign(beyond, v) : v;
  };
  double fx = finite(x), fy = finite(y);
  int e =
      std::max(fx == 0 ? INT_MIN : std::ilogb(fx), std::ilogb(minNormal(t)));
  return std::abs(fx - fy) / std::ldexp(epsilon(t), e);
}

// The inputs and one element of both sides' outputs.
std::string shown(const Inputs &in, size_t r, int64_t i, double x, double y) {
  std::ostringstream os;
  for (size_t a = 0; a < in.size(); ++a) {
    os << "  %arg" << a << " = [";
    for (int64_t j = 0; j < in[a].size() && j < 16; ++j)
      os << (j ? ", " : "") << fmtValue(in[a].asDouble(j));
    os << (in[a].size() > 16 ? ", ...]\n" : "]\n");
  }
  os << "  result " << r << "[" << i << "]: source " << fmtValue(x)
     << ", target " << fmtValue(y) << "\n";
  return os.str();
}

} // namespace

UlpMeasure measureUlp(func::FuncOp src, func::FuncOp tgt, const Inputs &first,
                      const Shapes &outShapes, const Mask &mask,
                      const ArgMemory &memory) {
  UlpMeasure m;
  Sets s = inputSets(first);
  auto runs = replaySets(src, tgt, s, outShapes, memory);
  if (!runs) {
    m.notRun = runs.error().message();
    return m;
  }
  m.sets = int(s.size());
  for (size_t k = 0; k < runs->size(); ++k) {
    const auto &[so, to] = (*runs)[k];
    bool limits = atLimits(s[k]);
    for (size_t r = 0; r < so.size() && r < to.size(); ++r)
      for (int64_t i = 0; i < so[r].size(); ++i) {
        if (r < mask.size() && size_t(i) < mask[r].size() && !mask[r][i])
          continue;
        double x = so[r].asDouble(i), y = to[r].asDouble(i);
        bool nanVsNumber = std::isnan(x) != std::isnan(y);
        bool integral = !isFloat(so[r].dtype());
        if (nanVsNumber && limits) {
          if (m.open.empty())
            m.open = shown(s[k], r, i, x, y);
          continue;
        }
        if ((integral && x != y) || nanVsNumber) {
          m.exactMiss = integral        ? "another integer"
                        : std::isnan(x) ? "a number where the source gives NaN"
                                        : "NaN where the source gives a number";
          m.at = shown(s[k], r, i, x, y);
          return m;
        }
        // NaNs alike, and the sign of a zero is open.
        double d = integral || std::isnan(x) || (x == 0 && y == 0)
                       ? 0
                       : ulpDistance(so[r].dtype(), x, y);
        if (d > m.maxUlp || m.at.empty()) {
          m.maxUlp = d;
          m.at = shown(s[k], r, i, x, y);
        }
      }
  }
  return m;
}

} // namespace cc::smt::detail
