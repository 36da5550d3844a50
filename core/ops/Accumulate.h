// What matmul, the convolutions and the pools share: TOSA's accumulator,
// the walk over a window, zero points and operand shapes. Internal to
// core/ops/ (Matmul.cpp, Conv.cpp, Pool.cpp).
#pragma once

#include "core/ops/Families.h"
#include "core/ops/Indexing.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cc::ops {

using Types = std::vector<TensorType>;
using Result = Expected<std::vector<TensorType>>;
using Out = Expected<std::vector<Tensor>>;

inline const DType kF32 = DType::f32, kF16 = DType::f16, kBF16 = DType::bf16,
                   kI8 = DType::i8, kI16 = DType::i16, kI32 = DType::i32;

// Accumulator type: i32 for integers, f32 for floats (TOSA acc_type).
inline DType accType(DType t) { return isFloat(t) ? kF32 : kI32; }

// A TOSA accumulator. Floats accumulate exactly under Precision::F64 and in
// `floatAcc` under Precision::Target; integers in i32, where overflow is
// undefined (apply_add_s).
struct Accum {
  bool integer;
  Precision prec;
  DType floatAcc = kF32;
  double f = 0;
  int64_t i = 0;
  bool overflow = false;

  void add(double fv, int64_t iv) {
    if (integer) {
      i += iv;
      overflow |= i < intMin(kI32) || i > intMax(kI32);
    } else {
      f = accRound(prec, floatAcc, f + fv);
    }
  }
  // acc += (a - za) * (b - zb).
  void mac(const Tensor &a, int64_t ia, int64_t za, const Tensor &b, int64_t ib,
           int64_t zb) {
    if (integer)
      add(0, (a.getI(ia) - za) * (b.getI(ib) - zb));
    else
      add(accRound(prec, floatAcc, a.getF(ia) * b.getF(ib)), 0);
  }
  Error store(Tensor &out, int64_t at) const {
    if (overflow)
      return undefinedError("i32 accumulator overflow");
    integer ? out.setI(at, i) : out.setF(at, f);
    return Error();
  }
  // The convolutions' `out = static_cast<out_t>(acc); out = apply_add_s<
  // out_t>(out, bias)`: the bias is added last, in the result type.
  Error storeWithBias(Tensor &out, int64_t at, DType outType,
                      const Tensor &bias, int64_t b) const {
    if (overflow)
      return undefinedError("i32 accumulator overflow");
    if (integer) {
      int64_t v = i + bias.getI(b);
      if (v < intMin(kI32) || v > intMax(kI32))
        return undefinedError("adding the bias overflows i32");
      out.setI(at, v);
      return Error();
    }
    double v = accRound(prec, outType, f);
    out.setF(at, accRound(prec, outType, v + bias.getF(b)));
    return Error();
  }
};

// Calls f(ky, kx, y, x) for each tap of output (oy, ox) inside the input,
// and skipped(ky, kx) for each tap that falls into padding (or, transposed,
// between the strided input positions).
template <typename F, typename G>
void forWindow(const WindowAxis &ay, const WindowAxis &ax, int64_t kh,
               int64_t kw, int64_t oy, int64_t ox, F &&f, G &&skipped) {
  for (int64_t ky = 0; ky < kh; ++ky) {
    int64_t y = ay.src(oy, ky);
    for (int64_t kx = 0; kx < kw; ++kx) {
      int64_t x = y >= 0 ? ax.src(ox, kx) : -1;
      if (x >= 0)
        f(ky, kx, y, x);
      else
        skipped(ky, kx);
    }
  }
}

// Fills the result element by element; f(outIndex, out, flat) may fail,
// which stops the walk and becomes the op's error.
template <typename F> Out fillResult(const EvalArgs &e, F &&f) {
  Tensor out = e.makeResult();
  int64_t flat = 0;
  Error err;
  forEachIndex(out.shape(), [&](const std::vector<int64_t> &o) {
    if (!err)
      err = f(o, out, flat++);
  });
  if (err)
    return err;
  return std::vector<Tensor>{std::move(out)};
}

inline int64_t at4(const Shape &s, int64_t a, int64_t b, int64_t c, int64_t d) {
  return ((a * s[1] + b) * s[2] + c) * s[3] + d;
}

inline Error checkZeroPoint(const Attrs &at, const char *name, DType t) {
  int64_t zp = at.getInt(name);
  if (zp != 0 && t != kI8)
    return makeError(std::string(name) + " must be 0 for " +
                     std::string(dtypeName(t)) + ", got " + std::to_string(zp));
  if (zp < intMin(kI8) || zp > intMax(kI8))
    return makeError(std::string(name) + " " + std::to_string(zp) +
                     " is out of the i8 range");
  return Error();
}

inline std::string arr(const Attrs &at, const char *n) {
  return denseArray("i64", at.getInts(n));
}

// Zero-point operands (MLIR 20+): one-element tensors of the operand types.
inline std::vector<std::pair<std::string, std::string>>
zeroPoints(EmitContext &ctx,
           const std::vector<std::pair<DType, int64_t>> &zps) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto [t, v] : zps)
    out.push_back({scalarConst(ctx, t, double(v)), scalarType(t)});
  return out;
}

// `hint` when it has `rank` dimensions, else random sizes in [1, hi] (a
// leading batch of 1 or 2).
inline Shape shapeLike(Rng &rng, const Shape &hint, size_t rank, int64_t hi) {
  if (hint.size() == rank)
    return hint;
  Shape s(rank);
  for (size_t i = 0; i < rank; ++i)
    s[i] = rng.uniformInt(i == 0 ? 1 : 2, i == 0 ? 2 : hi);
  return s;
}

// Operand range minus an i8 zero point (0 for other dtypes).
inline Interval lessZp(const Interval &x, const Attrs &at, const char *zp) {
  double z = double(at.getInt(zp));
  return {x.lo - z, x.hi - z, x.mayBeNaN};
}

// Stride, dilation and padding along one axis that give an exact division
// and a positive output (TOSA's idiv_check).
inline void sampleAxis(Rng &rng, int64_t in, int64_t k, bool dilate,
                       int64_t maxPad, int64_t out[4]) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    int64_t s = rng.uniformInt(1, 2), d = dilate ? rng.uniformInt(1, 2) : 1;
    int64_t lo = rng.uniformInt(0, maxPad);
    int64_t span = in - 1 + lo - (k - 1) * d;
    int64_t hi = ((-span) % s + s) % s;
    while (span + hi < 0)
      hi += s;
    if (hi <= maxPad) {
      out[0] = s, out[1] = d, out[2] = lo, out[3] = hi;
      return;
    }
  }
  // Stride 1 always divides; pad just enough to fit the kernel.
  int64_t need = std::max<int64_t>(0, k - in);
  out[0] = 1, out[1] = 1, out[2] = need / 2, out[3] = need - need / 2;
}

inline AttrSpec ints(const char *n, std::optional<std::vector<int64_t>> def,
                     const char *doc) {
  return {n, AttrKind::Ints,
          def ? std::optional<AttrValue>(*def) : std::nullopt, doc};
}
inline AttrSpec zp(const char *n) {
  return {n, AttrKind::Int, int64_t(0), "zero point (i8 only)"};
}

} // namespace cc::ops
