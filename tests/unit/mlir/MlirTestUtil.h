// Helpers shared by the MLIR backend tests.
#pragma once

#include "core/Rng.h"
#include "core/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace cc::test {

// A tensor of small random values: floats in [-2, 2), ints in [-20, 20].
inline Tensor randomTensor(const TensorType &type, Rng &rng) {
  Tensor t(type);
  for (int64_t i = 0; i < t.size(); ++i) {
    if (isFloat(type.dtype))
      t.setF(i, rng.uniform(-2, 2));
    else if (isBool(type.dtype))
      t.setI(i, rng.chance(0.5));
    else
      t.setI(i, rng.uniformInt(-20, 20));
  }
  return t;
}

inline Tensor tensorOf(DType dtype, Shape shape, std::vector<double> values) {
  Tensor t(dtype, std::move(shape));
  EXPECT_EQ(int64_t(values.size()), t.size());
  for (int64_t i = 0; i < t.size() && i < int64_t(values.size()); ++i)
    isFloat(dtype) ? t.setF(i, values[i]) : t.setI(i, int64_t(values[i]));
  return t;
}

// Integers and NaN/Inf positions exactly; finite floats within a relative
// tolerance suited to the compiled dtype (the real oracle lives elsewhere).
// With rtol 0 the sign of zero must match too.
inline ::testing::AssertionResult closeTo(const Tensor &actual,
                                          const Tensor &expected, double rtol) {
  if (actual.shape() != expected.shape())
    return ::testing::AssertionFailure() << "shape " << actual.type().str()
                                         << " vs " << expected.type().str();
  for (int64_t i = 0; i < actual.size(); ++i) {
    double a = actual.asDouble(i), e = expected.asDouble(i);
    bool same = isFloat(actual.dtype())
                    ? (std::isnan(a) && std::isnan(e)) || a == e ||
                          std::fabs(a - e) <= rtol * (1 + std::fabs(e))
                    : a == e;
    if (same && rtol == 0 && a == 0 && isFloat(actual.dtype()))
      same = std::signbit(a) == std::signbit(e);
    if (!same)
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << a << ", expected " << e;
  }
  return ::testing::AssertionSuccess();
}

} // namespace cc::test
