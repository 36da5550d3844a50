// The Z3 encoding of TOSA's compute kernels: matmul, conv2d,
// depthwise_conv2d, transpose_conv2d, avg_pool2d, max_pool2d, argmax,
// gather, rescale and apply_scale, following the reference interpreter
// (core/ops/Matmul.cpp, Conv.cpp, Pool.cpp, Reduction.cpp, Conversion.cpp).
//
// Float accumulations are one reassociable sum (fsum) in acc_type; integer
// ones are sums in i32 (intDot).
#include "smt/Encoder.h"

#include "core/ops/Indexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {
std::vector<int64_t> intsAttr(Operation *op, const char *name) {
  auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
  if (!a)
    unsupported(op->getName().getStringRef().str() + " without " + name);
  return std::vector<int64_t>(a.asArrayRef().begin(), a.asArrayRef().end());
}

// A zero point or other operand that must be one known constant; an
// unsigned one is zero-extended.
int64_t constantOf(const SVal &s, const std::string &what,
                   bool isUnsigned = false) {
  if (s.v.empty())
    unsupported(what + " without a value");
  z3::expr x = s.v[0].simplify();
  uint64_t u;
  if (!x.is_numeral_u64(u) || !s.p[0].simplify().is_false())
    unsupported(what + " that is not a constant");
  unsigned w = x.get_sort().bv_size();
  if (isUnsigned || w >= 64)
    return int64_t(u);
  return int64_t(u << (64 - w)) >> (64 - w);
}

// acc + sum((a - za) * (b - zb)) over 8-bit operands, in i32 as the
// lowerings compute it (operands sign-extended, zero points subtracted,
// products and sums wrapping): TOSA leaves an accumulator that leaves i32
// undefined, and the reference refuses such inputs, so wrapping there is
// one of the allowed behaviours, and the lowered sums meet these terms
// once Z3 normalizes them.
z3::expr intDot(Encoder &e, z3::expr acc,
                const std::vector<std::pair<z3::expr, z3::expr>> &ab,
                int64_t za, int64_t zb) {
  auto diff = [&](const z3::expr &x, int64_t z) {
    if (x.get_sort().bv_size() > 32)
      unsupported("an integer product of operands wider than 32 bits");
    return z3::sext(x, 32 - x.get_sort().bv_size()) - e.c.bv_val(z, 32);
  };
  for (const auto &[a, b] : ab)
    acc = acc + diff(a, za) * diff(b, zb);
  return acc;
}

// TOSA's apply_scale_32 (scale32) or apply_scale_16 of one value, as the
// reference computes it (core/ops/Indexing.cpp): the i32 result and the
// condition of a failed REQUIRE (negative multiplier, shift outside
// [2, 62], an i32 value outside the range the shift allows, a result
// outside i32). In 96 bits, where the product of an i48 value and an i32
// multiplier fits, or 64. The MLIR op (`spec` false) is not bound by the
// REQUIREs on its operands: tosa-to-linalg gives it tosa.mul's operands (any
// multiplier, any value, a shift from 1) and its documentation asks for
// no more than a wide enough product; only a shift past 63 and a result
// outside i32 stay undefined.
Elem applyScaleTerm(Encoder &e, const z3::expr &value, const z3::expr &mult,
                    const z3::expr &shift, bool doubleRound, bool scale32,
                    bool spec = true) {
  // 64 bits where they hold the rounded product (an i32 value, a known
  // shift), with the constants as numbers: the product is then the term
  // tosa.mul's encoding has, and the two meet.
  uint64_t known = 64;
  (void)shift.simplify().is_numeral_u64(known);
  const unsigned w = value.get_sort().bv_size() <= 32 && known <= 62 ? 64 : 96;
  auto k = [&](int64_t v) { return e.c.bv_val(v, w); };
  auto wide = [&](const z3::expr &x) {
    return z3::sext(x, w - x.get_sort().bv_size());
  };
  z3::expr v = wide(value), m = wide(mult);
  z3::expr s = known <= 62 ? k(int64_t(known)) : wide(shift);
  z3::expr half = known <= 62
                      ? k(known ? int64_t(1) << (known - 1) : 0)
                      : z3::ite(s > k(0), z3::shl(k(1), s - k(1)), k(0));
  // TOSA's REQUIREs on the operands; an i32 value is within the range of
  // any shift past 32.
  z3::expr require = m < k(0) || s < k(2) || s > k(62);
  if (scale32 && !(value.get_sort().bv_size() <= 32 && known > 32))
    require = require || v < -half || v >= half;
  require = require.simplify();
  // Where they hold whatever the operands, both ops are undefined at the
  // same (shared) terms.
  z3::expr bad = spec || require.is_false() ? require : s < k(0) || s > k(63);
  z3::expr round = half;
  if (doubleRound)
    round = z3::ite(s > k(31),
                    z3::ite(v >= k(0), half + k(int64_t(1) << 30),
                            half - k(int64_t(1) << 30)),
                    half);
  z3::expr r = z3::ashr(v * m + round, s);
  // The result's range as one term that both ops share (the MLIR op's
  // poison is then plainly within the TOSA op's undefinedness).
  z3::expr outside = r < k(INT32_MIN) || r > k(INT32_MAX);
  return {r.extract(31, 0), bad || outside};
}

// The accumulator type of a convolution or pooling (its input's element
// type by default).
Type accType(Operation *op, Type inElt) {
  if (auto a = op->getAttrOfType<TypeAttr>("acc_type"))
    return a.getValue();
  return inElt;
}

// The zero points of a convolution: integers must be known constants;
// floats must be zero (TOSA allows no other).
std::pair<int64_t, int64_t> convZeroPoints(Encoder &e, Operation *op,
                                           const std::vector<SVal> &ins,
                                           bool fl) {
  std::string n = op->getName().getStringRef().str();
  if (!fl)
    return {constantOf(ins.at(3), n + " input_zp"),
            constantOf(ins.at(4), n + " weight_zp")};
  for (unsigned zp : {3u, 4u}) {
    auto zt =
        cast<FloatType>(getElementTypeOrSelf(op->getOperand(zp).getType()));
    z3::expr zero = e.floatBits(0, zt).simplify();
    for (const z3::expr &x : ins.at(zp).v)
      if (!z3::eq(x.simplify(), zero))
        unsupported(n + " with a non-zero or unknown zero point");
  }
  return {0, 0};
}

// A float avg_pool2d window: +0 plus the taps as one sum in `acc` divided
// by their count, cast to `elt`.
z3::expr floatAverage(Encoder &e, const std::vector<z3::expr> &taps,
                      FloatType acc, Type elt) {
  std::vector<z3::expr> terms{e.floatBits(0, acc)};
  for (const z3::expr &t : taps)
    terms.push_back(e.fcast(t, acc));
  APFloat cnt{double(taps.size())};
  bool lost;
  cnt.convert(acc.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return e.fcast(e.fdiv(e.fsum(terms),
                        e.floatBits(cnt.bitcastToAPInt().getZExtValue(), acc)),
                 elt);
}

// An integer avg_pool2d window of `w`-bit taps, and the condition of a
// failed REQUIRE: the exact sum of (x - zi) scaled by TOSA's reciprocal of
// the count (apply_scale), plus zo, clamped.
Elem intAverage(Encoder &e, const std::vector<z3::expr> &taps, int64_t zi,
                int64_t zo, unsigned w) {
  z3::context &c = e.c;
  int64_t count = int64_t(taps.size());
  // In i32, as the lowering sums (a window of i8 or i16 cannot leave it).
  z3::expr total = c.bv_val(0, 32);
  for (const z3::expr &t : taps)
    total = total + (z3::sext(t, 32 - w) - c.bv_val(zi, 32));
  // TOSA's reciprocal_scale of the count, as the reference computes it.
  int64_t sh = 0;
  while ((int64_t(1) << sh) < count)
    ++sh;
  int64_t mult = (((int64_t(1) << 30) + 1) << sh) / count, shift = 30 + sh;
  auto [scaled, bad] = applyScaleTerm(e, total, c.bv_val(mult, 32),
                                      c.bv_val(shift, 8), false, true);
  // + output_zp and the clamp in i32, as tosa-to-linalg-named writes them
  // (maxsi(lo, x), then minsi(hi, x)), so that both meet.
  z3::expr out = scaled + c.bv_val(zo, 32);
  z3::expr lo = c.bv_val(-(int64_t(1) << (w - 1)), 32),
           hi = c.bv_val((int64_t(1) << (w - 1)) - 1, 32);
  out = imaxmin(hi, imaxmin(lo, out, true, true), false, true);
  return {out.extract(w - 1, 0), bad};
}

// conv2d (weights [O,KH,KW,C]), depthwise_conv2d ([KH,KW,C,M], output
// channel c*M+m) and transpose_conv2d ([O,KH,KW,C], out_pad). Floats: one
// reassociable sum in acc_type of every tap's product and the bias, cast to
// the result type. The pseudo-code adds the bias after the cast, but TOSA's
// precision rules make the output "a dot product ... with optional bias
// addition" (`out = in[0] * w[0] + ... + b`) held to an accuracy bound, not
// an order: the lowerings' bias-first sum in acc_type meets it. Taps in
// padding multiply a zero input (TOSA allows these extra multiplies and the
// lowerings make them), so that a non-finite weight there gives NaN as in
// the lowering. Integers: exact, with the zero points.
void convolution(Encoder &e, Operation *op, const std::vector<SVal> &ins) {
  std::string n = op->getName().getStringRef().str();
  bool depthwise = isa<tosa::DepthwiseConv2DOp>(op);
  bool transposed = isa<tosa::TransposeConv2DOp>(op);
  Type inElt = getElementTypeOrSelf(op->getOperand(0).getType());
  Type elt = getElementTypeOrSelf(op->getResult(0).getType());
  bool fl = e.isFloat(inElt);
  auto [zi, zw] = convZeroPoints(e, op, ins, fl);
  Type acc = accType(op, inElt);
  std::vector<int64_t> pad = intsAttr(op, transposed ? "out_pad" : "pad"),
                       stride = intsAttr(op, "stride"),
                       dil = transposed ? std::vector<int64_t>{1, 1}
                                        : intsAttr(op, "dilation");
  const SVal &x = ins[0], &w = ins[1], &bias = ins[2];
  const std::vector<int64_t> &xs = x.shape, &ws = w.shape;
  int64_t KH = depthwise ? ws[0] : ws[1], KW = depthwise ? ws[1] : ws[2];
  int64_t M = depthwise ? ws[3] : 1;
  WindowAxis ay{xs[1], stride[0], dil[0], pad[0], transposed},
      ax{xs[2], stride[1], dil[1], pad[2], transposed};
  auto rt = cast<ShapedType>(op->getResult(0).getType());
  std::vector<int64_t> os(rt.getShape().begin(), rt.getShape().end());
  if (product(os) * KH * KW * (depthwise ? 1 : xs[3]) > kMaxIterations)
    unsupported(n + " too large");
  z3::expr zero =
      fl ? e.floatBits(0, cast<FloatType>(inElt)) : e.c.bv_val(0, 8);
  SVal r;
  r.shape = os;
  for (int64_t i = 0; i < product(os); ++i) {
    std::vector<int64_t> o = unflatten(i, os);
    int64_t oc = o[3];
    size_t b = size_t(bias.size() == 1 ? 0 : oc);
    std::vector<z3::expr> terms;
    std::vector<std::pair<z3::expr, z3::expr>> pairs;
    // The order of a float sum is free (TOSA bounds a dot product's error,
    // not its order); IEEE mode takes the lowering's, so that both sides
    // share the sum and a check can cut there: conv2d starts from the bias,
    // depthwise_conv2d from the spec's `acc_t acc = 0` and adds the bias
    // last.
    bool biasFirst = !depthwise;
    if (fl)
      terms.push_back(biasFirst ? e.fcast(bias.v[b], acc)
                                : e.floatBits(0, cast<FloatType>(acc)));
    z3::expr_vector p(e.c);
    p.push_back(bias.p[b]);
    for (int64_t ky = 0; ky < KH; ++ky)
      for (int64_t kx = 0; kx < KW; ++kx) {
        int64_t iy = ay.src(o[1], ky), ix = iy < 0 ? -1 : ax.src(o[2], kx);
        bool inside = ix >= 0;
        if (!inside && !fl)
          continue; // (zp - zp) * w adds nothing
        int64_t channels = depthwise ? 1 : xs[3];
        for (int64_t ch = 0; ch < channels; ++ch) {
          int64_t ic = depthwise ? oc / M : ch;
          size_t wj =
              size_t(depthwise ? ((ky * KW + kx) * xs[3] + ic) * M + oc % M
                               : ((oc * KH + ky) * KW + kx) * xs[3] + ch);
          z3::expr xv = zero;
          if (inside) {
            size_t xj = size_t(((o[0] * xs[1] + iy) * xs[2] + ix) * xs[3] + ic);
            xv = x.v[xj];
            p.push_back(x.p[xj]);
          }
          p.push_back(w.p[wj]);
          if (fl)
            terms.push_back(e.fmul(e.fcast(xv, acc), e.fcast(w.v[wj], acc)));
          else
            pairs.push_back({xv, w.v[wj]});
        }
      }
    if (fl && !biasFirst)
      terms.push_back(e.fcast(bias.v[b], acc));
    r.v.push_back(fl ? e.fcast(e.fsum(terms), elt)
                     : intDot(e, bias.v[b], pairs, zi, zw));
    r.p.push_back(z3::mk_or(p));
  }
  e.env[op->getResult(0)] = r;
}

// matmul [N,H,C] x [N,C,W]: floats accumulate in the result type (TOSA 1.0),
// integers exactly with the zero points.
void matmul(Encoder &e, Operation *op, const std::vector<SVal> &ins) {
  Type inElt = getElementTypeOrSelf(op->getOperand(0).getType());
  Type elt = getElementTypeOrSelf(op->getResult(0).getType());
  bool fl = e.isFloat(inElt);
  int64_t za = fl ? 0 : constantOf(ins.at(2), "tosa.matmul a_zp");
  int64_t zb = fl ? 0 : constantOf(ins.at(3), "tosa.matmul b_zp");
  const SVal &a = ins[0], &b = ins[1];
  int64_t N = a.shape[0], H = a.shape[1], C = a.shape[2], W = b.shape[2];
  if (N * H * W * C > kMaxIterations)
    unsupported("tosa.matmul too large");
  SVal r;
  r.shape = {N, H, W};
  for (int64_t nn = 0; nn < N; ++nn)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) {
        std::vector<z3::expr> ts;
        std::vector<std::pair<z3::expr, z3::expr>> pairs;
        if (fl)
          ts.push_back(e.floatBits(0, cast<FloatType>(elt)));
        z3::expr_vector p(e.c);
        for (int64_t k = 0; k < C; ++k) {
          size_t ia = size_t((nn * H + h) * C + k),
                 ib = size_t((nn * C + k) * W + w);
          if (fl)
            ts.push_back(e.fmul(e.fcast(a.v[ia], elt), e.fcast(b.v[ib], elt)));
          else
            pairs.push_back({a.v[ia], b.v[ib]});
          p.push_back(a.p[ia]);
          p.push_back(b.p[ib]);
        }
        r.v.push_back(fl ? e.fsum(ts)
                         : intDot(e, e.c.bv_val(0, 32), pairs, za, zb));
        r.p.push_back(p.empty() ? e.c.bool_val(false) : z3::mk_or(p));
      }
  e.env[op->getResult(0)] = r;
}

// avg_pool2d and max_pool2d over the taps inside the input (padding is
// excluded). max: a NaN fold in the reference's order (nan_mode). avg:
// floats, +0 plus the taps as one sum in acc_type divided by their count;
// integers, the exact sum of (x - input_zp) scaled by TOSA's reciprocal of
// the count (apply_scale), plus output_zp, clamped.
void pool(Encoder &e, Operation *op, const std::vector<SVal> &ins) {
  std::string n = op->getName().getStringRef().str();
  bool avg = isa<tosa::AvgPool2dOp>(op);
  Type inElt = getElementTypeOrSelf(op->getOperand(0).getType());
  Type elt = getElementTypeOrSelf(op->getResult(0).getType());
  bool fl = e.isFloat(inElt);
  std::vector<int64_t> k = intsAttr(op, "kernel"), s = intsAttr(op, "stride"),
                       pad = intsAttr(op, "pad");
  const SVal &x = ins[0];
  const std::vector<int64_t> &xs = x.shape;
  WindowAxis ay{xs[1], s[0], 1, pad[0], false},
      ax{xs[2], s[1], 1, pad[2], false};
  int64_t zi = 0, zo = 0;
  if (avg && !fl) {
    zi = constantOf(ins.at(1), n + " input_zp");
    zo = constantOf(ins.at(2), n + " output_zp");
  }
  bool propagate = propagatesNaN(op);
  Type acc = accType(op, inElt);
  auto rt = cast<ShapedType>(op->getResult(0).getType());
  std::vector<int64_t> os(rt.getShape().begin(), rt.getShape().end());
  SVal r;
  r.shape = os;
  unsigned w = inElt.getIntOrFloatBitWidth();
  for (int64_t i = 0; i < product(os); ++i) {
    std::vector<int64_t> o = unflatten(i, os);
    std::vector<z3::expr> taps;
    z3::expr_vector p(e.c);
    for (int64_t ky = 0; ky < k[0]; ++ky)
      for (int64_t kx = 0; kx < k[1]; ++kx) {
        int64_t iy = ay.src(o[1], ky), ix = iy < 0 ? -1 : ax.src(o[2], kx);
        if (ix < 0)
          continue;
        size_t j = size_t(((o[0] * xs[1] + iy) * xs[2] + ix) * xs[3] + o[3]);
        taps.push_back(x.v[j]);
        p.push_back(x.p[j]);
      }
    if (taps.empty())
      unsupported(n + " with a window entirely in padding");
    z3::expr v = taps[0];
    if (!avg) {
      for (size_t t = 1; t < taps.size(); ++t)
        v = fl ? e.fmaxmin(v, taps[t], true, propagate)
               : imaxmin(v, taps[t], true, true);
    } else if (fl) {
      v = floatAverage(e, taps, cast<FloatType>(acc), elt);
    } else {
      auto [average, bad] = intAverage(e, taps, zi, zo, w);
      v = average;
      p.push_back(bad);
    }
    r.v.push_back(v);
    r.p.push_back(z3::mk_or(p));
  }
  e.env[op->getResult(0)] = r;
}

// argmax along `axis` (i32 result): the first NaN under PROPAGATE, else the
// first maximal non-NaN value (0 when all are NaN), as the reference.
void argmax(Encoder &e, Operation *op, const std::vector<SVal> &ins) {
  const SVal &x = ins[0];
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  if (!axisAttr)
    unsupported("tosa.argmax without axis");
  int64_t ax = axisAttr.getInt();
  Type inElt = getElementTypeOrSelf(op->getOperand(0).getType());
  bool fl = e.isFloat(inElt);
  bool propagate = propagatesNaN(op);
  std::vector<int64_t> outShape = x.shape;
  outShape.erase(outShape.begin() + ax);
  SVal r;
  r.shape = outShape;
  std::vector<int64_t> reduced = x.shape;
  reduced[size_t(ax)] = 1;
  for (int64_t i = 0; i < product(reduced); ++i) {
    std::vector<int64_t> idx = unflatten(i, reduced);
    z3::expr best = e.c.bv_val(0, 32);
    z3::expr bestV = x.v[0], sawNaN = e.c.bool_val(false);
    z3::expr_vector p(e.c);
    for (int64_t kk = 0; kk < x.shape[size_t(ax)]; ++kk) {
      idx[size_t(ax)] = kk;
      size_t j = size_t(flatten(idx, x.shape));
      const z3::expr &v = x.v[j];
      p.push_back(x.p[j]);
      z3::expr at = e.c.bv_val(uint64_t(kk), 32);
      if (!fl) {
        if (kk == 0) {
          bestV = v;
          continue;
        }
        z3::expr better = v > bestV;
        best = z3::ite(better, at, best);
        bestV = z3::ite(better, v, bestV);
        continue;
      }
      z3::expr nan = e.fcmp(arith::CmpFPredicate::UNO, v, v);
      if (kk == 0) {
        // The reference starts from -Inf: a first value that is not NaN
        // is the best so far (index 0 either way).
        auto ft = cast<FloatType>(inElt);
        APInt minusInf =
            APFloat::getInf(ft.getFloatSemantics(), true).bitcastToAPInt();
        sawNaN = propagate ? nan : e.c.bool_val(false);
        bestV = propagate
                    ? v
                    : z3::ite(nan, e.floatBits(minusInf.getZExtValue(), ft), v);
        continue;
      }
      z3::expr better = !nan && e.fcmp(arith::CmpFPredicate::OGT, v, bestV);
      if (propagate) {
        best = z3::ite(sawNaN, best, z3::ite(nan || better, at, best));
        bestV = z3::ite(sawNaN || nan, bestV, z3::ite(better, v, bestV));
        sawNaN = sawNaN || nan;
      } else {
        best = z3::ite(better, at, best);
        bestV = z3::ite(better, v, bestV);
      }
    }
    r.v.push_back(best);
    r.p.push_back(z3::mk_or(p));
  }
  e.env[op->getResult(0)] = r;
}

// tosa.apply_scale (what rescale and an integer mul with a shift become
// inside linalg bodies): undefined only where applyScaleTerm's MLIR op is
// (a result outside i32 is poison). INEXACT_ROUND allows a range of results:
// unsupported.
void applyScale(Encoder &e, tosa::ApplyScaleOp op,
                const std::vector<SVal> &ins) {
  if (op.getRoundingMode() == tosa::RoundingMode::INEXACT_ROUND)
    unsupported("tosa.apply_scale with INEXACT_ROUND (not one value)");
  bool doubleRound = op.getRoundingMode() == tosa::RoundingMode::DOUBLE_ROUND;
  e.env[op.getResult()] =
      e.elementwise(ins, [&](const std::vector<z3::expr> &a,
                             const std::vector<z3::expr> &pa) {
        // apply_scale_32 takes an i32 value, apply_scale_16 an i48 one.
        auto [r, bad] = applyScaleTerm(e, a[0], a[1], a[2], doubleRound,
                                       a[0].get_sort().bv_size() == 32,
                                       /*spec=*/false);
        z3::expr p = bad;
        for (const z3::expr &x : pa)
          p = p || x;
        return std::pair{r, p};
      });
}

// tosa.rescale: (in - input_zp) scaled per tensor or per channel (the last
// dimension) by apply_scale, plus output_zp, clamped to the result type;
// unsigned inputs are zero-extended and unsigned results clamp to their
// range, as the reference. Written in i32 (i48 inputs stay i48) as
// tosa-to-linalg writes it (maxsi(lo, x), then minsi(hi, x)), so that both
// meet. A failed REQUIRE is poison, as in apply_scale; an output_zp
// addition that leaves i32 (undefined in TOSA) wraps.
void rescale(Encoder &e, tosa::RescaleOp op, const std::vector<SVal> &ins) {
  if (op.getRoundingMode() == tosa::RoundingMode::INEXACT_ROUND)
    unsupported("tosa.rescale with INEXACT_ROUND (not one value)");
  bool doubleRound = op.getRoundingMode() == tosa::RoundingMode::DOUBLE_ROUND;
  bool inUnsigned = op.getInputUnsigned(), outUnsigned = op.getOutputUnsigned();
  const SVal &x = ins[0], &mult = ins[1], &shift = ins[2];
  int64_t zi = constantOf(ins[3], "tosa.rescale input_zp", inUnsigned);
  int64_t zo = constantOf(ins[4], "tosa.rescale output_zp", outUnsigned);
  unsigned win = x.v.empty() ? 8 : x.v[0].get_sort().bv_size();
  unsigned wout = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
  unsigned vw = std::max(win, 32u);
  z3::expr lo = e.c.bv_val(outUnsigned ? 0 : -(int64_t(1) << (wout - 1)), 32);
  z3::expr hi = e.c.bv_val(outUnsigned ? (int64_t(1) << wout) - 1
                                       : (int64_t(1) << (wout - 1)) - 1,
                           32);
  int64_t channels = x.shape.empty() ? 1 : x.shape.back();
  SVal r;
  r.shape = x.shape;
  for (int64_t i = 0; i < x.size(); ++i) {
    size_t ch = size_t(mult.size() == 1 ? 0 : i % channels);
    z3::expr v = x.v[size_t(i)];
    if (win < vw)
      v = inUnsigned ? z3::zext(v, vw - win) : z3::sext(v, vw - win);
    v = v - e.c.bv_val(zi, vw);
    auto [scaled, bad] = applyScaleTerm(e, v, mult.v[ch], shift.v[ch],
                                        doubleRound, op.getScale32());
    z3::expr out = scaled + e.c.bv_val(zo, 32);
    out = imaxmin(hi, imaxmin(lo, out, true, true), false, true);
    r.v.push_back(wout < 32 ? out.extract(wout - 1, 0) : out);
    r.p.push_back(bad || x.p[size_t(i)] || mult.p[ch] || shift.p[ch]);
  }
  e.env[op.getResult()] = r;
}

// gather: values [N,K,C], indices [N,W]: out[n,w,c] = values[n, idx[n,w], c];
// an index outside [0, K) is undefined behaviour (a TOSA REQUIRE), a poison
// index poisons the row.
void gather(Encoder &e, Operation *op, const std::vector<SVal> &ins) {
  const SVal &x = ins[0], &idx = ins[1];
  int64_t N = x.shape[0], K = x.shape[1], C = x.shape[2], W = idx.shape[1];
  unsigned iw = idx.v[0].get_sort().bv_size();
  SVal r;
  r.shape = {N, W, C};
  for (int64_t nn = 0; nn < N; ++nn)
    for (int64_t w = 0; w < W; ++w) {
      const z3::expr &i = idx.v[size_t(nn * W + w)];
      const z3::expr &bad = idx.p[size_t(nn * W + w)];
      e.ub =
          e.ub ||
          (!bad && (i < e.c.bv_val(0, iw) || i >= e.c.bv_val(uint64_t(K), iw)));
      for (int64_t ch = 0; ch < C; ++ch) {
        z3::expr v = x.v[size_t((nn * K + K - 1) * C + ch)];
        z3::expr p = x.p[size_t((nn * K + K - 1) * C + ch)];
        for (int64_t k = K - 2; k >= 0; --k) {
          size_t j = size_t((nn * K + k) * C + ch);
          z3::expr hit = i == e.c.bv_val(uint64_t(k), iw);
          v = z3::ite(hit, x.v[j], v);
          p = z3::ite(hit, x.p[j], p);
        }
        r.v.push_back(v);
        r.p.push_back(bad || p);
      }
    }
  e.env[op->getResult(0)] = r;
}

} // namespace

void Encoder::encodeTosaKernel(Operation *op, const std::vector<SVal> &ins) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(
          [&](Operation *) { convolution(*this, op, ins); })
      .Case([&](tosa::MatMulOp) { matmul(*this, op, ins); })
      .Case<tosa::AvgPool2dOp, tosa::MaxPool2dOp>(
          [&](Operation *) { pool(*this, op, ins); })
      .Case([&](tosa::ArgMaxOp) { argmax(*this, op, ins); })
      .Case([&](tosa::GatherOp) { gather(*this, op, ins); })
      .Case([&](tosa::ApplyScaleOp a) { applyScale(*this, a, ins); })
      .Case([&](tosa::RescaleOp r) { rescale(*this, r, ins); })
      .Default([](Operation *op) { unsupportedOp(op); });
}

} // namespace cc::smt::detail
