// Internal helpers shared by the conversion, reduction, linalg and
// data-movement op families: index iteration, window geometry, nan_mode
// folds, undefined-behaviour errors and TOSA emission snippets.
#pragma once

#include "core/OpTable.h"
#include "core/ops/Kernels.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace cc {

// Calls f(index) for every multi-index of `shape` in row-major order.
template <typename F> void forEachIndex(const Shape &shape, F &&f) {
  if (numElements(shape) == 0)
    return;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    f(idx);
    int64_t d = int64_t(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

int64_t flatIndex(const std::vector<int64_t> &strides,
                  const std::vector<int64_t> &idx);

// An ErrorCode::Undefined failure (a TOSA REQUIRE that does not hold).
Error undefinedError(const std::string &why);

inline Expected<std::vector<TensorType>> oneType(TensorType t) {
  return std::vector<TensorType>{std::move(t)};
}

// "[1,2,3]" for messages.
std::string listStr(const std::vector<int64_t> &v);

// Checks 0 <= axis < rank.
Error checkAxis(int64_t axis, int64_t rank);
// Checks that an operand has the given rank.
Error checkRank(const TensorType &t, int64_t rank, const char *what);

// One spatial axis of a window op: the input coordinate that output o reads
// at kernel tap k, or -1 when that falls into padding. Transposed
// convolutions scatter input iy to o = iy * stride + padLo + k.
struct WindowAxis {
  int64_t in, stride, dilation, padLo;
  bool transposed = false;
  int64_t src(int64_t o, int64_t k) const {
    int64_t y;
    if (transposed) {
      int64_t t = o - padLo - k;
      if (t < 0 || t % stride)
        return -1;
      y = t / stride;
    } else {
      y = o * stride - padLo + k * dilation;
    }
    return y >= 0 && y < in ? y : -1;
  }
};

// Rounds an accumulator to `acc` under Precision::Target (the accumulation
// type of the compiled code); under Precision::F64 keeps the exact value.
inline double accRound(Precision p, DType acc, double v) {
  return p == Precision::Target ? roundToFloat(acc, v) : v;
}

// Folds values, in order, into a maximum or minimum with TOSA's nan_mode as
// the spec's acc = apply_max_s(acc, value) does: PROPAGATE makes any NaN the
// result; IGNORE skips NaNs, and all-NaN gives NaN. Signed zeros compare
// equal, so the order decides between -0 and +0.
class NanFold {
public:
  NanFold(bool isMax, bool ignoreNan) : isMax(isMax), ignore(ignoreNan) {}
  void add(double v);
  double result() const { return seen ? acc : NAN; }

private:
  bool isMax, ignore, seen = false, nan = false;
  double acc = 0;
};

// TOSA apply_scale_32 (scale32) or apply_scale_16; a failed REQUIRE is an
// ErrorCode::Undefined error.
Expected<int64_t> applyScale(int64_t value, int64_t mult, int64_t shift,
                             bool scale32, bool doubleRound);

// Output extent of a sliding window; errors name `dim` and say why the
// attributes are invalid (non-positive size, stride not dividing evenly).
Expected<int64_t> windowExtent(int64_t in, int64_t padLo, int64_t padHi,
                               int64_t kernel, int64_t stride, int64_t dilation,
                               const std::string &dim);

// Attribute checks shared by the window and shape ops: `n` values, each at
// least `min` and within +-kMaxTensorElements (core/Limits.h).
Error checkIntsAttr(const std::vector<int64_t> &v, size_t n, int64_t min,
                    const char *name);

// --- emission -------------------------------------------------------------

// "array<i64: 1, 2>" / "array<i32: ...>".
std::string denseArray(const char *elem, const std::vector<int64_t> &v);
// A `tosa.const_shape` holding v; returns its SSA name. Its type is
// shapeType(v.size()).
std::string shapeConst(EmitContext &ctx, const std::vector<int64_t> &v);
std::string shapeType(size_t n);
// A one-element tensor constant of dtype t holding v (zero points,
// pad_const); returns its SSA name. Its type is tensor<1xT>.
std::string scalarConst(EmitContext &ctx, DType t, double v);
std::string scalarType(DType t);

// Writes `%r = "tosa.<op>"(operands, extra) <{props}> : (types) -> result`
// for a single-result node; `extra` are (name, type) pairs appended to the
// node's operands.
void emitTosa(EmitContext &ctx, const Node &node, const std::string &op,
              const std::vector<std::pair<std::string, std::string>> &extra,
              const std::string &props);

// ", nan_mode = ..." to append to other properties ("" for PROPAGATE), or
// Unsupported where the syntax version has no nan_mode.
Expected<std::string> nanModeSuffix(const EmitContext &ctx, const Node &node);

// Fails with ErrorCode::Unsupported.
Error unsupported(const std::string &why);

} // namespace cc
