// The LibTorch lowering of the op table: one table from op name to a
// function that computes the op with LibTorch operators, with TOSA 1.0's
// semantics where PyTorch's differ (NaN modes, rounding, integer widths,
// padding, zero points, rescale). Floats stay in the graph's dtypes: an op
// that LibTorch's CPU kernels lack for f16 (or bf16) runs in f32 and rounds
// its result back once, which is exact for correctly rounded ops and what
// LibTorch does inside the kernels it has. Exact ops (max, compares, data
// movement) and integer arithmetic that would overflow narrow types run in
// a wider type and convert back exactly.
#include "backends/torch/Internal.h"

#include "core/OpTable.h"

#include <ATen/TracerMode.h>
#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <map>

namespace cc::torchbackend {

namespace {

using T = at::Tensor;

c10::ScalarType scalarType(DType d) {
  switch (d) {
  case DType::i1:
    return at::kBool;
  case DType::i8:
    return at::kChar;
  case DType::i16:
    return at::kShort;
  case DType::i32:
    return at::kInt;
  case DType::i64:
    return at::kLong;
  case DType::f16:
    return at::kHalf;
  case DType::bf16:
    return at::kBFloat16;
  case DType::f32:
    return at::kFloat;
  case DType::f64:
    return at::kDouble;
  }
  return at::kFloat;
}

std::vector<int64_t> dims(const Shape &s) { return {s.begin(), s.end()}; }

// What a lowering sees of one node.
struct Ctx {
  const Node &node;
  std::vector<T> in;
  std::vector<TensorType> inTypes;
  TensorType out; // declared type of the (only) result

  const Attrs &attrs() const { return node.attrs; }
  DType inType(size_t i = 0) const { return inTypes.at(i).dtype; }
  bool ignoreNaN() const { return attrs().getString("nan_mode") == "IGNORE"; }
};

using Lowering = std::function<T(const Ctx &)>;

bool isHalfType(const T &x) {
  return x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
}

// fn in f32 for f16 inputs (LibTorch's CPU math kernels lack f16), rounded
// back once; other dtypes run natively.
T viaF32ForF16(const T &x, const std::function<T(const T &)> &fn) {
  if (x.scalar_type() != at::kHalf)
    return fn(x);
  return fn(x.to(at::kFloat)).to(at::kHalf);
}

// fn in f32 for f16 and bf16 (kernels missing for both), rounded back.
T viaF32(const T &x, const std::function<T(const T &)> &fn) {
  if (!isHalfType(x))
    return fn(x);
  return fn(x.to(at::kFloat)).to(x.scalar_type());
}

// An exact wider type for exact ops: f32 for floats, f64 for integers up to
// i32 (which it holds exactly).
T widened(const T &x) {
  return x.is_floating_point() ? x.to(at::kFloat) : x.to(at::kDouble);
}

T nanLike(const T &x) { return at::full_like(x, NAN); }

// TOSA apply_max_s / apply_min_s with nan_mode for floats: `a >= b ? a : b`
// (resp. `a < b ? a : b`), NaN by mode.
T maxMinNaN(const T &a, const T &b, bool isMax, bool ignore) {
  T chosen = isMax ? at::where(a >= b, a, b) : at::where(a < b, a, b);
  T na = a.isnan(), nb = b.isnan();
  if (ignore)
    return at::where(na, b, at::where(nb, a, chosen));
  return at::where(na.logical_or(nb), nanLike(chosen), chosen);
}

// NCHW <-> TOSA's NHWC.
T toNCHW(const T &x) { return x.permute({0, 3, 1, 2}).contiguous(); }
T toNHWC(const T &x) { return x.permute({0, 2, 3, 1}).contiguous(); }

// [top, bottom, left, right] as constant_pad_nd wants it (last dim first).
std::vector<int64_t> padLastTwo(const std::vector<int64_t> &p) {
  return {p[2], p[3], p[0], p[1]};
}

// Rounds a double to the dtype first, so that LibTorch's scalar conversion
// (double -> float -> half) cannot round twice.
double exactScalar(DType d, double v) {
  return isFloat(d) ? roundToFloat(d, v) : v;
}

T castTo(const T &x, DType from, DType to) {
  if (isFloat(from) && isInt(to)) {
    // TOSA: round to nearest even, saturate (NaN is undefined). In f64,
    // where the i32 bounds are exact.
    return x.to(at::kDouble)
        .round()
        .clamp(double(intMin(to)), double(intMax(to)))
        .to(at::kLong)
        .to(scalarType(to));
  }
  if (from == DType::i32 && to == DType::bf16) {
    // LibTorch converts through f32 and would round twice; round the
    // integer to bf16's 8 significant bits (ties to even) exactly first.
    T v = x.to(at::kLong);
    T a = v.abs();
    T bits = at::zeros_like(a);
    for (int k = 0; k < 33; ++k)
      bits = bits + a.ge(int64_t(1) << k).to(at::kLong);
    T drop = (bits - 8).clamp_min(0);
    T q = a.__rshift__(drop);
    T rem = a - q.__lshift__(drop);
    T half = at::ones_like(a).__lshift__((drop - 1).clamp_min(0));
    T up = drop.gt(0).logical_and(rem.gt(half).logical_or(
        rem.eq(half).logical_and(q.remainder(2).eq(1))));
    T r = (q + up.to(at::kLong)).__lshift__(drop) * v.sign();
    return r.to(at::kDouble).to(at::kBFloat16);
  }
  if (isBool(to))
    return x.ne(0);
  return x.to(scalarType(to));
}

// Window sums of a zero-padded NCHW tensor (avg_pool2d with divisor 1).
T windowSum(const T &x, const std::vector<int64_t> &k,
            const std::vector<int64_t> &s, const std::vector<int64_t> &p) {
  T xp = at::constant_pad_nd(x, padLastTwo(p), 0);
  return at::avg_pool2d(xp, k, s, {0, 0}, false, true, 1);
}

// Max over windows of an NCHW tensor (floats in f32, integers in f64, both
// exact) with padding excluded and TOSA nan_mode.
T windowMax(const T &x, const std::vector<int64_t> &k,
            const std::vector<int64_t> &s, const std::vector<int64_t> &p,
            bool ignore) {
  T w = widened(x);
  T isNan = w.isnan();
  T clean = at::where(isNan, at::full_like(w, -INFINITY), w);
  T m = at::max_pool2d(at::constant_pad_nd(clean, padLastTwo(p), -INFINITY), k,
                       s);
  T nanF = isNan.to(w.scalar_type());
  T anyNaN =
      at::max_pool2d(at::constant_pad_nd(nanF, padLastTwo(p), 0), k, s).gt(0);
  T anyNum =
      at::max_pool2d(at::constant_pad_nd(1 - nanF, padLastTwo(p), 0), k, s)
          .gt(0);
  T nan = ignore ? anyNum.logical_not() : anyNaN;
  return at::where(nan, nanLike(m), m).to(x.scalar_type());
}

// TOSA apply_scale_32/16 with per-element (or broadcast) multiplier and
// shift, in int64: (v * mult + round) >> shift. |v| < 2^33 and mult < 2^31
// keep the sum below 2^63.
T applyScale(const T &v, const T &mult, const T &shift, bool doubleRound) {
  T one = at::ones_like(shift);
  T round = one.__lshift__(shift - 1);
  if (doubleRound) {
    T extra = at::where(v.ge(0), at::full_like(v, int64_t(1) << 30),
                        at::full_like(v, -(int64_t(1) << 30)));
    round = round + at::where(shift.gt(31), extra, at::zeros_like(extra));
  }
  return (v * mult + round).__rshift__(shift);
}

T longs(const std::vector<int64_t> &v) {
  Tensor t(DType::i64, {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    t.setI(int64_t(i), v[i]);
  return toTorch(t);
}

// --- lowerings ---------------------------------------------------------------

T lowerMul(const Ctx &c) {
  DType d = c.inType();
  if (isFloat(d))
    return c.in[0] * c.in[1];
  T p = c.in[0].to(at::kLong) * c.in[1].to(at::kLong);
  int64_t shift = c.attrs().getInt("shift");
  if (shift > 0) // floor((p + 2^(s-1)) / 2^s) without overflowing int64
    p = (p.__rshift__(shift - 1) + 1).__rshift__(1);
  return p.to(at::kInt);
}

T lowerNegate(const Ctx &c) {
  DType d = c.inType();
  if (isFloat(d) || d == DType::i32)
    return c.in[0].neg();
  // The i32 accumulator's negation, clipped to the narrow type.
  return c.in[0]
      .to(at::kInt)
      .neg()
      .clamp(intMin(d), intMax(d))
      .to(scalarType(d));
}

T lowerClamp(const Ctx &c) {
  DType d = c.inType();
  double lo = exactScalar(d, c.attrs().getFloat("min"));
  double hi = exactScalar(d, c.attrs().getFloat("max"));
  if (isInt(d))
    return c.in[0].clamp(int64_t(lo), int64_t(hi));
  const T &x = c.in[0];
  bool ignore = c.ignoreNaN();
  T l = at::full_like(x, lo), h = at::full_like(x, hi);
  return maxMinNaN(maxMinNaN(x, l, true, ignore), h, false, ignore);
}

T lowerShiftRight(const Ctx &c) {
  const T &x = c.in[0], &s = c.in[1];
  T r = x.__rshift__(s);
  if (!c.attrs().getBool("round"))
    return r;
  // Adds the last bit shifted out (when the amount is positive).
  T last = x.__rshift__((s - 1).clamp_min(0)).bitwise_and(1);
  T add = at::where(s.gt(0), last, at::zeros_like(last));
  return (r + add).to(x.scalar_type());
}

T lowerRescale(const Ctx &c) {
  const Attrs &a = c.attrs();
  DType in = c.inType(), out = a.getType("to");
  bool inU = a.getBool("input_unsigned"), outU = a.getBool("output_unsigned");
  T v = c.in[0].to(at::kLong);
  if (inU)
    v = v.bitwise_and((int64_t(1) << bitWidth(in)) - 1);
  v = v - a.getInt("input_zp");
  // Per-channel vectors broadcast along the last dimension.
  T mult = longs(a.getInts("multiplier")), shift = longs(a.getInts("shift"));
  if (!a.getBool("per_channel"))
    mult = mult.reshape({}), shift = shift.reshape({});
  // INEXACT_ROUND is defined only where it equals the single rounding.
  T r = applyScale(v, mult, shift,
                   a.getString("rounding_mode") == "DOUBLE_ROUND");
  r = r + a.getInt("output_zp");
  int64_t lo = outU ? 0 : intMin(out);
  int64_t hi = outU ? (int64_t(1) << bitWidth(out)) - 1 : intMax(out);
  return r.clamp(lo, hi).to(scalarType(out)); // unsigned values wrap in
}

T reduceMaxMin(const Ctx &c, bool isMax) {
  const T &x = c.in[0];
  int64_t axis = c.attrs().getInt("axis");
  if (!x.is_floating_point())
    return isMax ? x.amax(axis, true) : x.amin(axis, true);
  T isNan = x.isnan();
  T fill = at::full_like(x, isMax ? -INFINITY : INFINITY);
  T clean = at::where(isNan, fill, x);
  T r = isMax ? clean.amax(axis, true) : clean.amin(axis, true);
  T nan = c.ignoreNaN() ? isNan.all(axis, true) : isNan.any(axis, true);
  return at::where(nan, nanLike(r), r);
}

T lowerArgmax(const Ctx &c) {
  T x = widened(c.in[0]);
  int64_t axis = c.attrs().getInt("axis");
  T isNan = x.isnan();
  // Ties and NaNs: the first index wins; IGNORE skips NaNs (index 0 when
  // nothing else is there), PROPAGATE returns the first NaN.
  T clean = at::where(isNan, at::full_like(x, -INFINITY), x);
  T best = clean.argmax(axis);
  if (c.ignoreNaN())
    return best.to(at::kInt);
  T firstNaN = isNan.to(at::kFloat).argmax(axis);
  return at::where(isNan.any(axis), firstNaN, best).to(at::kInt);
}

T lowerMatmul(const Ctx &c) {
  DType d = c.inType();
  if (d == DType::i8) { // exact in f64
    T a = c.in[0].to(at::kDouble) - c.attrs().getInt("a_zp");
    T b = c.in[1].to(at::kDouble) - c.attrs().getInt("b_zp");
    return a.bmm(b).to(at::kInt);
  }
  T r = c.in[0].to(at::kFloat).bmm(c.in[1].to(at::kFloat));
  return r.to(scalarType(c.out.dtype)); // bf16 products are f32 results
}

enum class ConvKind { Plain, Depthwise, Transpose };

T lowerConv(const Ctx &c, ConvKind kind) {
  const Attrs &a = c.attrs();
  DType d = c.inType();
  bool integer = isInt(d);
  auto work = integer ? at::kDouble : at::kFloat; // exact / TOSA's f32 acc
  T x = toNCHW(c.in[0].to(work)), w = c.in[1].to(work);
  if (integer) {
    x = x - a.getInt("input_zp");
    w = w - a.getInt("weight_zp");
  }
  const auto &stride = a.getInts("stride");
  T r;
  if (kind == ConvKind::Transpose) {
    // [O,KH,KW,I] -> [I,O,KH,KW]; TOSA's out_pad shifts and crops (negative)
    // or extends (positive) the full transposed result.
    r = at::conv_transpose2d(x, w.permute({3, 0, 1, 2}).contiguous(), {},
                             stride);
    r = at::constant_pad_nd(r, padLastTwo(a.getInts("out_pad")), 0);
  } else {
    x = at::constant_pad_nd(x, padLastTwo(a.getInts("pad")), 0);
    int64_t groups = 1;
    if (kind == ConvKind::Depthwise) {
      // [KH,KW,C,M] -> [C*M,1,KH,KW]: output channel c*M+m reads channel c.
      const Shape &ws = c.inTypes[1].shape;
      groups = ws[2];
      w = w.permute({2, 3, 0, 1}).reshape({ws[2] * ws[3], 1, ws[0], ws[1]});
    } else {
      w = toNCHW(w); // [O,KH,KW,I] -> [O,I,KH,KW]
    }
    r = at::conv2d(x, w.contiguous(), {}, stride, at::IntArrayRef{0, 0},
                   a.getInts("dilation"), groups);
  }
  r = toNHWC(r);
  auto outType = scalarType(c.out.dtype);
  if (integer) // exact in f64; the i32 sum with the bias too
    return (r + c.in[2].to(at::kDouble)).to(at::kLong).to(outType);
  // The accumulator cast to the result type, then the bias added there.
  return r.to(outType) + c.in[2];
}

T lowerPool(const Ctx &c, bool avg) {
  const Attrs &a = c.attrs();
  const auto &k = a.getInts("kernel"), &s = a.getInts("stride"),
             &p = a.getInts("pad");
  T x = toNCHW(c.in[0]);
  DType d = c.inType();
  if (!avg)
    return toNHWC(windowMax(x, k, s, p, c.ignoreNaN()));
  // Padding is excluded from the count.
  bool integer = isInt(d);
  auto work = integer ? at::kDouble : at::kFloat;
  T xw = x.to(work);
  if (integer)
    xw = xw - a.getInt("input_zp");
  T sum = windowSum(xw, k, s, p);
  T count = windowSum(at::ones_like(xw), k, s, p);
  if (!integer)
    return toNHWC((sum / count).to(scalarType(d)));
  // TOSA's reciprocal_scale: multiplier and shift that divide by count.
  T acc = sum.to(at::kLong), n = count.to(at::kLong);
  T kBits = at::zeros_like(n);
  for (int j = 0; j < 32; ++j) // smallest k with 2^k >= count
    kBits = kBits + n.gt(int64_t(1) << j).to(at::kLong);
  T mult = at::div(at::full_like(n, (int64_t(1) << 30) + 1).__lshift__(kBits),
                   n, "floor");
  T r = applyScale(acc, mult, kBits + 30, false) + a.getInt("output_zp");
  return toNHWC(r.clamp(intMin(d), intMax(d)).to(scalarType(d)));
}

T lowerPad(const Ctx &c) {
  const auto &padding = c.attrs().getInts("padding");
  std::vector<int64_t> p;
  for (size_t i = padding.size(); i >= 2; i -= 2) { // last dim first
    p.push_back(padding[i - 2]);
    p.push_back(padding[i - 1]);
  }
  DType d = c.inType();
  double v = exactScalar(d, c.attrs().getFloat("pad_const"));
  if (isBool(d)) // in i8: constant_pad_nd takes no bool fill
    return at::constant_pad_nd(c.in[0].to(at::kChar), p, v).ne(0);
  return at::constant_pad_nd(c.in[0], p, v);
}

T lowerSlice(const Ctx &c) {
  const auto &start = c.attrs().getInts("start"),
             &size = c.attrs().getInts("size");
  T r = c.in[0];
  for (size_t d = 0; d < start.size(); ++d)
    r = r.narrow(int64_t(d), start[d], size[d]);
  return r.contiguous();
}

T lowerGather(const Ctx &c) {
  const T &values = c.in[0];
  T idx = c.in[1].to(at::kLong).unsqueeze(2).expand(
      {values.size(0), c.in[1].size(1), values.size(2)});
  return at::gather(values, 1, idx);
}

bool hasType(const T &t, const TensorType &type) {
  return t.scalar_type() == scalarType(type.dtype) &&
         t.sizes().vec() == dims(type.shape);
}

std::string typeText(const T &t) {
  return std::string(c10::toString(t.scalar_type())) + c10::str(t.sizes());
}

const std::map<OpId, Lowering> &table() {
  using Fn = std::function<T(const T &)>;
  auto unaryF32 = [](Fn f) {
    return Lowering([f](const Ctx &c) { return viaF32ForF16(c.in[0], f); });
  };
  auto maxMin = [](bool isMax) {
    return Lowering([isMax](const Ctx &c) {
      if (!c.in[0].is_floating_point())
        return isMax ? at::maximum(c.in[0], c.in[1])
                     : at::minimum(c.in[0], c.in[1]);
      return maxMinNaN(c.in[0], c.in[1], isMax, c.ignoreNaN());
    });
  };
  static const std::map<OpId, Lowering> t = {
      {OpId::Add, [](const Ctx &c) { return c.in[0] + c.in[1]; }},
      {OpId::Sub, [](const Ctx &c) { return c.in[0] - c.in[1]; }},
      {OpId::Mul, lowerMul},
      {OpId::IntDiv,
       [](const Ctx &c) { return at::div(c.in[0], c.in[1], "trunc"); }},
      {OpId::Maximum, maxMin(true)},
      {OpId::Minimum, maxMin(false)},
      {OpId::Pow, [](const Ctx &c) { return c.in[0].pow(c.in[1]); }},
      {OpId::Abs, [](const Ctx &c) { return c.in[0].abs(); }},
      {OpId::Negate, lowerNegate},
      {OpId::Exp, unaryF32([](const T &x) { return x.exp(); })},
      {OpId::Log, unaryF32([](const T &x) { return x.log(); })},
      {OpId::Tanh, unaryF32([](const T &x) { return x.tanh(); })},
      {OpId::Sigmoid, unaryF32([](const T &x) { return x.sigmoid(); })},
      {OpId::Erf, unaryF32([](const T &x) { return x.erf(); })},
      {OpId::Rsqrt, unaryF32([](const T &x) { return x.rsqrt(); })},
      {OpId::Reciprocal, unaryF32([](const T &x) { return x.reciprocal(); })},
      {OpId::Floor, unaryF32([](const T &x) { return x.floor(); })},
      {OpId::Ceil, unaryF32([](const T &x) { return x.ceil(); })},
      {OpId::Clamp, lowerClamp},
      {OpId::Select,
       [](const Ctx &c) { return at::where(c.in[0], c.in[1], c.in[2]); }},
      {OpId::Equal, [](const Ctx &c) { return c.in[0].eq(c.in[1]); }},
      {OpId::Greater, [](const Ctx &c) { return c.in[0].gt(c.in[1]); }},
      {OpId::GreaterEqual, [](const Ctx &c) { return c.in[0].ge(c.in[1]); }},
      {OpId::LogicalAnd,
       [](const Ctx &c) { return c.in[0].logical_and(c.in[1]); }},
      {OpId::LogicalOr,
       [](const Ctx &c) { return c.in[0].logical_or(c.in[1]); }},
      {OpId::LogicalNot, [](const Ctx &c) { return c.in[0].logical_not(); }},
      {OpId::BitwiseAnd,
       [](const Ctx &c) { return c.in[0].bitwise_and(c.in[1]); }},
      {OpId::BitwiseOr,
       [](const Ctx &c) { return c.in[0].bitwise_or(c.in[1]); }},
      {OpId::BitwiseXor,
       [](const Ctx &c) { return c.in[0].bitwise_xor(c.in[1]); }},
      {OpId::ArithmeticRightShift, lowerShiftRight},
      {OpId::LogicalLeftShift,
       [](const Ctx &c) { return c.in[0].__lshift__(c.in[1]); }},
      {OpId::Const,
       [](const Ctx &c) {
         const Tensor &v = c.attrs().getTensor("value");
         return toTorch(v.dtype() == c.out.dtype ? v
                                                 : v.convertTo(c.out.dtype));
       }},
      {OpId::Cast,
       [](const Ctx &c) {
         return castTo(c.in[0], c.inType(), c.attrs().getType("to"));
       }},
      {OpId::Rescale, lowerRescale},
      {OpId::ReduceSum,
       [](const Ctx &c) {
         return c.in[0].sum(c.attrs().getInt("axis"), true,
                            c.in[0].scalar_type());
       }},
      {OpId::ReduceProduct,
       [](const Ctx &c) {
         int64_t axis = c.attrs().getInt("axis");
         return viaF32(c.in[0],
                       [axis](const T &x) { return x.prod(axis, true); });
       }},
      {OpId::ReduceMax, [](const Ctx &c) { return reduceMaxMin(c, true); }},
      {OpId::ReduceMin, [](const Ctx &c) { return reduceMaxMin(c, false); }},
      {OpId::ArgMax, lowerArgmax},
      {OpId::MatMul, lowerMatmul},
      {OpId::Conv2d,
       [](const Ctx &c) { return lowerConv(c, ConvKind::Plain); }},
      {OpId::DepthwiseConv2d,
       [](const Ctx &c) { return lowerConv(c, ConvKind::Depthwise); }},
      {OpId::TransposeConv2d,
       [](const Ctx &c) { return lowerConv(c, ConvKind::Transpose); }},
      {OpId::AvgPool2d, [](const Ctx &c) { return lowerPool(c, true); }},
      {OpId::MaxPool2d, [](const Ctx &c) { return lowerPool(c, false); }},
      {OpId::Reshape,
       [](const Ctx &c) { return c.in[0].reshape(dims(c.out.shape)); }},
      {OpId::Transpose,
       [](const Ctx &c) {
         return c.in[0].permute(c.attrs().getInts("perms")).contiguous();
       }},
      {OpId::Slice, lowerSlice},
      {OpId::Concat,
       [](const Ctx &c) { return at::cat(c.in, c.attrs().getInt("axis")); }},
      {OpId::Pad, lowerPad},
      {OpId::Tile,
       [](const Ctx &c) {
         return c.in[0].repeat(c.attrs().getInts("multiples"));
       }},
      {OpId::Reverse,
       [](const Ctx &c) { return c.in[0].flip(c.attrs().getInt("axis")); }},
      {OpId::Gather, lowerGather},
  };
  return t;
}

} // namespace

bool canLower(OpId op) { return table().count(op) != 0; }

std::vector<OpId> lowerableOps() {
  std::vector<OpId> ops;
  for (const auto &[op, fn] : table())
    ops.push_back(op);
  return ops;
}

at::Tensor toTorch(const Tensor &t) {
  // from_blob does not copy: clone so that the tensor owns its bytes. Not
  // traced: a traced graph keeps the result as a constant, whereas the
  // borrowed buffer would be gone by the time it runs.
  at::tracer::impl::NoTracerDispatchMode notTraced;
  return at::from_blob(const_cast<uint8_t *>(t.data()), dims(t.shape()),
                       at::TensorOptions().dtype(scalarType(t.dtype())))
      .clone();
}

Expected<Tensor> fromTorch(const at::Tensor &t, const TensorType &declared) {
  if (!hasType(t, declared))
    return makeError("LibTorch result " + typeText(t) +
                     " does not match the declared " + declared.str());
  Tensor out(declared);
  T c = t.contiguous();
  std::memcpy(out.data(), c.data_ptr(), out.byteCount());
  return out;
}

Expected<std::vector<at::Tensor>>
lowerGraph(const Graph &g, const std::vector<at::Tensor> &inputs) {
  std::vector<T> values(g.values.size());
  for (size_t i = 0; i < g.inputs.size(); ++i)
    values[size_t(g.inputs[i])] = inputs.at(i);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    auto it = table().find(node.op);
    if (it == table().end())
      return Error::failure("LibTorch cannot express op '" +
                                std::string(opName(node.op)) + "'",
                            ErrorCode::Unsupported);
    Node withAttrs = node;
    withAttrs.attrs = withDefaults(opDef(node.op), node.attrs);
    Ctx full{withAttrs, {}, {}, g.typeOf(node.results.at(0))};
    for (ValueId v : node.operands) {
      full.in.push_back(values[size_t(v)]);
      full.inTypes.push_back(g.typeOf(v));
    }
    T r = it->second(full);
    if (!hasType(r, full.out))
      return makeError("node " + std::to_string(n) + " (" +
                       std::string(opName(node.op)) +
                       "): the LibTorch lowering gave " + typeText(r) +
                       " instead of " + full.out.str());
    values[size_t(node.results[0])] = r;
  }
  std::vector<T> outs;
  for (ValueId v : g.outputs)
    outs.push_back(values[size_t(v)]);
  return outs;
}

Expected<Outputs> runEager(const Graph &g, const Inputs &inputs,
                           StageTimes *times) {
  auto start = std::chrono::steady_clock::now();
  try {
    at::NoGradGuard noGrad;
    std::vector<T> in;
    for (const Tensor &t : inputs)
      in.push_back(toTorch(t));
    CC_ASSIGN(outs, lowerGraph(g, in));
    Outputs result;
    for (size_t i = 0; i < outs.size(); ++i) {
      CC_ASSIGN(t, fromTorch(outs[i], g.typeOf(g.outputs[i])));
      result.push_back(std::move(t));
    }
    addStageTime(times, "execute", start);
    return result;
  } catch (const c10::Error &e) {
    return makeError(std::string("LibTorch rejected the graph: ") +
                     e.what_without_backtrace());
  } catch (const std::exception &e) {
    return makeError(std::string("LibTorch rejected the graph: ") + e.what());
  }
}

} // namespace cc::torchbackend
