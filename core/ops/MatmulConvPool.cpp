// matmul conv2d depthwise_conv2d transpose_conv2d avg_pool2d max_pool2d
// (TOSA 1.0's tensor operators but argmax, which is a reduction here). The
// conv-like ops and the pools share one window walk.
#include "core/ops/Families.h"
#include "core/ops/Indexing.h"

#include <cmath>

namespace cc {

namespace {

using Types = std::vector<TensorType>;
using Result = Expected<std::vector<TensorType>>;
using Out = Expected<std::vector<Tensor>>;

const DType kF32 = DType::f32, kF16 = DType::f16, kBF16 = DType::bf16,
            kI8 = DType::i8, kI16 = DType::i16, kI32 = DType::i32;

// Accumulator type: i32 for integers, f32 for floats (TOSA acc_type).
DType accType(DType t) { return isFloat(t) ? kF32 : kI32; }

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

int64_t at4(const Shape &s, int64_t a, int64_t b, int64_t c, int64_t d) {
  return ((a * s[1] + b) * s[2] + c) * s[3] + d;
}

Error checkZeroPoint(const Attrs &at, const char *name, DType t) {
  int64_t zp = at.getInt(name);
  if (zp != 0 && t != kI8)
    return makeError(std::string(name) + " must be 0 for " +
                     std::string(dtypeName(t)) + ", got " + std::to_string(zp));
  if (zp < intMin(kI8) || zp > intMax(kI8))
    return makeError(std::string(name) + " " + std::to_string(zp) +
                     " is out of the i8 range");
  return Error();
}

std::string arr(const Attrs &at, const char *n) {
  return denseArray("i64", at.getInts(n));
}

// Zero-point operands (MLIR 20+): one-element tensors of the operand types.
std::vector<std::pair<std::string, std::string>>
zeroPoints(EmitContext &ctx,
           const std::vector<std::pair<DType, int64_t>> &zps) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto [t, v] : zps)
    out.push_back({scalarConst(ctx, t, double(v)), scalarType(t)});
  return out;
}

// --- matmul ----------------------------------------------------------------

DType matmulResult(DType t) {
  return t == kI8 ? kI32 : t == kBF16 ? kF32 : t; // TOSA 1.0: bf16 -> f32
}

Result inferMatmul(const Types &ops, const Attrs &at) {
  CC_TRY(checkRank(ops[0], 3, "a"));
  CC_TRY(checkRank(ops[1], 3, "b"));
  if (ops[1].dtype != ops[0].dtype)
    return makeError("a and b must have the same dtype, got " + ops[0].str() +
                     " and " + ops[1].str());
  const Shape &a = ops[0].shape, &b = ops[1].shape;
  if (a[0] != b[0] || a[2] != b[1])
    return makeError("matmul shapes " + ops[0].str() + " x " + ops[1].str() +
                     " do not match ([N,H,C] x [N,C,W])");
  CC_TRY(checkZeroPoint(at, "a_zp", ops[0].dtype));
  CC_TRY(checkZeroPoint(at, "b_zp", ops[1].dtype));
  return oneType({matmulResult(ops[0].dtype), {a[0], a[1], b[2]}});
}

Out evalMatmul(const EvalArgs &e) {
  const Tensor &a = e.in(0), &b = e.in(1);
  int64_t n = a.shape()[0], h = a.shape()[1], c = a.shape()[2],
          w = b.shape()[2];
  int64_t za = e.attrs().getInt("a_zp"), zb = e.attrs().getInt("b_zp");
  Tensor out = e.makeResult();
  for (int64_t bn = 0; bn < n; ++bn)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x) {
        // TOSA 1.0 MATMUL accumulates in out_t (f16 for f16 results).
        Accum acc{isInt(a.dtype()), e.precision, e.resultTypes[0].dtype};
        for (int64_t k = 0; k < c; ++k)
          acc.mac(a, (bn * h + y) * c + k, za, b, (bn * c + k) * w + x, zb);
        CC_TRY(acc.store(out, (bn * h + y) * w + x));
      }
  return std::vector<Tensor>{std::move(out)};
}

Error emitMatmul(EmitContext &ctx, const Node &node) {
  DType t = ctx.graph().typeOf(node.operands[0]).dtype;
  int64_t za = node.attrs.getInt("a_zp"), zb = node.attrs.getInt("b_zp");
  if (ctx.syntaxVersion < 20) {
    emitTosa(ctx, node, "matmul", {},
             t == kI8 ? "quantization_info = #tosa.matmul_quant<a_zp = " +
                            std::to_string(za) +
                            ", b_zp = " + std::to_string(zb) + ">"
                      : "");
    return Error();
  }
  emitTosa(ctx, node, "matmul", zeroPoints(ctx, {{t, za}, {t, zb}}), "");
  return Error();
}

// --- convolutions ------------------------------------------------------------

enum class Conv { Plain, Depthwise, Transpose };

struct ConvGeom {
  Conv kind;
  int64_t kh, kw, multiplier; // multiplier: depthwise channel multiplier
  WindowAxis ay, ax;
};

ConvGeom convGeom(Conv kind, const Shape &in, const Shape &w, const Attrs &at) {
  bool tr = kind == Conv::Transpose;
  const auto &pad = at.getInts(tr ? "out_pad" : "pad");
  const auto &stride = at.getInts("stride");
  std::vector<int64_t> dil =
      tr ? std::vector<int64_t>{1, 1} : at.getInts("dilation");
  bool dw = kind == Conv::Depthwise;
  return {kind,
          dw ? w[0] : w[1],
          dw ? w[1] : w[2],
          dw ? w[3] : 1,
          {in[1], stride[0], dil[0], pad[0], tr},
          {in[2], stride[1], dil[1], pad[2], tr}};
}

Result inferConv(Conv kind, const Types &ops, const Attrs &at) {
  CC_TRY(checkRank(ops[0], 4, "input"));
  CC_TRY(checkRank(ops[1], 4, "weight"));
  CC_TRY(checkRank(ops[2], 1, "bias"));
  DType t = ops[0].dtype;
  DType outType = t == kI8 ? kI32 : t;
  if (ops[1].dtype != t)
    return makeError("weight dtype must match the input's (" +
                     std::string(dtypeName(t)) + "), got " + ops[1].str());
  if (ops[2].dtype != outType)
    return makeError("bias must be " + std::string(dtypeName(outType)) +
                     ", got " + ops[2].str());
  CC_TRY(checkZeroPoint(at, "input_zp", t));
  CC_TRY(checkZeroPoint(at, "weight_zp", t));
  bool tr = kind == Conv::Transpose;
  CC_TRY(checkIntsAttr(at.getInts("stride"), 2, 1, "stride"));
  if (tr)
    CC_TRY(checkIntsAttr(at.getInts("out_pad"), 4, INT64_MIN, "out_pad"));
  else {
    CC_TRY(checkIntsAttr(at.getInts("pad"), 4, 0, "pad"));
    CC_TRY(checkIntsAttr(at.getInts("dilation"), 2, 1, "dilation"));
  }
  const Shape &in = ops[0].shape, &w = ops[1].shape;
  ConvGeom g = convGeom(kind, in, w, at);
  int64_t inC = kind == Conv::Depthwise ? w[2] : w[3];
  if (inC != in[3])
    return makeError("weight " + ops[1].str() + " expects " +
                     std::to_string(inC) + " input channels, input " +
                     ops[0].str() + " has " + std::to_string(in[3]));
  int64_t outC = kind == Conv::Depthwise ? w[2] * w[3] : w[0];
  if (ops[2].shape[0] != outC && ops[2].shape[0] != 1)
    return makeError("bias " + ops[2].str() + " must have 1 or " +
                     std::to_string(outC) + " elements");
  int64_t oh, ow;
  if (tr) {
    const auto &p = at.getInts("out_pad");
    oh = (in[1] - 1) * g.ay.stride + p[0] + p[1] + g.kh;
    ow = (in[2] - 1) * g.ax.stride + p[2] + p[3] + g.kw;
    if (p[0] <= -g.kh || p[1] <= -g.kh || p[2] <= -g.kw || p[3] <= -g.kw ||
        oh < 1 || ow < 1)
      return makeError(
          "out_pad " + listStr(p) +
          " makes the output size non-positive or exceeds the kernel");
  } else {
    const auto &p = at.getInts("pad");
    CC_ASSIGN(h, windowExtent(in[1], p[0], p[1], g.kh, g.ay.stride,
                              g.ay.dilation, "height"));
    CC_ASSIGN(wd, windowExtent(in[2], p[2], p[3], g.kw, g.ax.stride,
                               g.ax.dilation, "width"));
    oh = h;
    ow = wd;
  }
  return oneType({outType, {in[0], oh, ow, outC}});
}

Out evalConv(Conv kind, const EvalArgs &e) {
  const Tensor &in = e.in(0), &w = e.in(1), &bias = e.in(2);
  const Shape &is = in.shape(), &ws = w.shape();
  ConvGeom g = convGeom(kind, is, ws, e.attrs());
  int64_t zi = e.attrs().getInt("input_zp"), zw = e.attrs().getInt("weight_zp");
  bool integer = isInt(in.dtype());
  DType outType = e.resultTypes[0].dtype;
  return fillResult(
      e, [&](const std::vector<int64_t> &o, Tensor &out, int64_t flat) {
        Accum acc{integer, e.precision};
        // Weights of the taps (channels) that output o reads at (ky, kx).
        auto weightAt = [&](int64_t ky, int64_t kx, int64_t c) {
          return kind == Conv::Depthwise
                     ? at4(ws, ky, kx, o[3] / g.multiplier, o[3] % g.multiplier)
                     : at4(ws, o[3], ky, kx, c);
        };
        int64_t channels = kind == Conv::Depthwise ? 1 : is[3];
        // TOSA lets an implementation multiply the weights of padding taps by a
        // zero input (tosa_extra_multiplies): a non-finite weight there makes
        // the float result implementation-defined unless it is NaN anyway.
        bool extraNaN = false;
        forWindow(
            g.ay, g.ax, g.kh, g.kw, o[1], o[2],
            [&](int64_t ky, int64_t kx, int64_t y, int64_t x) {
              for (int64_t c = 0; c < channels; ++c) {
                int64_t ic = kind == Conv::Depthwise ? o[3] / g.multiplier : c;
                acc.mac(in, at4(is, o[0], y, x, ic), zi, w, weightAt(ky, kx, c),
                        zw);
              }
            },
            [&](int64_t ky, int64_t kx) {
              for (int64_t c = 0; !integer && !extraNaN && c < channels; ++c)
                extraNaN = !std::isfinite(w.getF(weightAt(ky, kx, c)));
            });
        if (extraNaN && !std::isnan(acc.f))
          return undefinedError("a non-finite weight meets a padding tap: the "
                                "result depends on tosa_extra_multiplies");
        return acc.storeWithBias(out, flat, outType, bias,
                                 bias.size() == 1 ? 0 : o[3]);
      });
}

// Products summed into one output element, then the bias. A transposed
// convolution reaches an output through one kernel tap in every `stride`.
Rounding convRounding(Conv kind, const Types &ops, const Attrs &at) {
  ConvGeom g = convGeom(kind, ops[0].shape, ops[1].shape, at);
  auto taps = [&](int64_t k, const WindowAxis &a) {
    return kind == Conv::Transpose ? (k + a.stride - 1) / a.stride : k;
  };
  double products = double(taps(g.kh, g.ay) * taps(g.kw, g.ax));
  if (kind != Conv::Depthwise)
    products *= double(ops[0].shape[3]);
  return {products + 1, {1, 1}};
}

Error emitConv(Conv kind, EmitContext &ctx, const Node &node) {
  static const char *names[] = {"conv2d", "depthwise_conv2d",
                                "transpose_conv2d"};
  const Attrs &at = node.attrs;
  DType t = ctx.graph().typeOf(node.operands[0]).dtype;
  bool tr = kind == Conv::Transpose;
  int64_t zi = at.getInt("input_zp"), zw = at.getInt("weight_zp");
  std::string geom =
      tr ? "out_pad = " + arr(at, "out_pad")
         : "dilation = " + arr(at, "dilation") + ", pad = " + arr(at, "pad");
  geom += ", stride = " + arr(at, "stride");
  if (ctx.syntaxVersion < 20) {
    if (tr)
      geom += ", out_shape = " +
              denseArray("i64", ctx.graph().typeOf(node.results[0]).shape);
    if (t == kI8)
      geom += ", quantization_info = #tosa.conv_quant<input_zp = " +
              std::to_string(zi) + ", weight_zp = " + std::to_string(zw) + ">";
    // TOSA 1.0 lets one bias serve every output channel; MLIR 19 (TOSA
    // 0.80) wants one per channel and its lowering mis-sizes a single one
    // (an invalid linalg.generic): tile it to the channel count.
    const Graph &g = ctx.graph();
    std::string bias = ctx.name(node.operands[2]);
    TensorType biasType = g.typeOf(node.operands[2]);
    int64_t channels = g.typeOf(node.results[0]).shape.back();
    if (biasType.shape[0] == 1 && channels > 1) {
      std::string tiled = ctx.fresh();
      TensorType full{biasType.dtype, {channels}};
      ctx.line(tiled + " = \"tosa.tile\"(" + bias +
               ") <{multiples = array<i64: " + std::to_string(channels) +
               ">}> : (" + biasType.mlir() + ") -> " + full.mlir());
      bias = tiled;
      biasType = full;
    }
    ValueId r = node.results.at(0);
    ctx.line(ctx.name(r) + " = \"tosa." + names[int(kind)] + "\"(" +
             ctx.name(node.operands[0]) + ", " + ctx.name(node.operands[1]) +
             ", " + bias + ") <{" + geom + "}> : (" +
             ctx.type(node.operands[0]) + ", " + ctx.type(node.operands[1]) +
             ", " + biasType.mlir() + ") -> " + ctx.type(r));
    return Error();
  }
  emitTosa(ctx, node, names[int(kind)], zeroPoints(ctx, {{t, zi}, {t, zw}}),
           "acc_type = " + std::string(dtypeName(accType(t))) + ", " + geom);
  return Error();
}

// Stride, dilation and padding along one axis that give an exact division
// and a positive output (TOSA's idiv_check).
void sampleAxis(Rng &rng, int64_t in, int64_t k, bool dilate, int64_t maxPad,
                int64_t out[4]) {
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

Attrs sampleConv(Conv kind, Rng &rng, const Types &ops) {
  const Shape &in = ops[0].shape, &w = ops[1].shape;
  int64_t kh = kind == Conv::Depthwise ? w[0] : w[1];
  int64_t kw = kind == Conv::Depthwise ? w[1] : w[2];
  Attrs at;
  if (ops[0].dtype == kI8) {
    at.set("input_zp", rng.uniformInt(-128, 127));
    at.set("weight_zp",
           rng.chance(0.5) ? int64_t(0) : rng.uniformInt(-128, 127));
  }
  if (kind == Conv::Transpose) {
    std::vector<int64_t> p;
    for (int64_t k : {kh, kh, kw, kw})
      p.push_back(rng.uniformInt(-(k - 1) / 2, 1));
    at.set("out_pad", p);
    at.set("stride",
           std::vector<int64_t>{rng.uniformInt(1, 2), rng.uniformInt(1, 2)});
    return at;
  }
  int64_t y[4], x[4];
  sampleAxis(rng, in[1], kh, true, kh, y);
  sampleAxis(rng, in[2], kw, true, kw, x);
  at.set("stride", std::vector<int64_t>{y[0], x[0]});
  at.set("dilation", std::vector<int64_t>{y[1], x[1]});
  at.set("pad", std::vector<int64_t>{y[2], y[3], x[2], x[3]});
  return at;
}

// --- pools -------------------------------------------------------------------

Result inferPool(bool avg, const Types &ops, const Attrs &at) {
  CC_TRY(checkRank(ops[0], 4, "input"));
  const auto &k = at.getInts("kernel"), &s = at.getInts("stride"),
             &p = at.getInts("pad");
  CC_TRY(checkIntsAttr(k, 2, 1, "kernel"));
  CC_TRY(checkIntsAttr(s, 2, 1, "stride"));
  CC_TRY(checkIntsAttr(p, 4, 0, "pad"));
  if (p[0] >= k[0] || p[1] >= k[0] || p[2] >= k[1] || p[3] >= k[1])
    return makeError("pad " + listStr(p) + " must be smaller than kernel " +
                     listStr(k));
  if (avg) {
    CC_TRY(checkZeroPoint(at, "input_zp", ops[0].dtype));
    CC_TRY(checkZeroPoint(at, "output_zp", ops[0].dtype));
  } else {
    CC_TRY(checkNanMode(at));
  }
  const Shape &in = ops[0].shape;
  CC_ASSIGN(h, windowExtent(in[1], p[0], p[1], k[0], s[0], 1, "height"));
  CC_ASSIGN(w, windowExtent(in[2], p[2], p[3], k[1], s[1], 1, "width"));
  return oneType({ops[0].dtype, {in[0], h, w, in[3]}});
}

// TOSA reciprocal_scale: multiplier and shift that divide by `count`.
void reciprocalScale(int64_t count, int64_t &mult, int64_t &shift) {
  int64_t k = 0;
  while ((int64_t(1) << k) < count)
    ++k; // (1 << k) / 2 < count <= (1 << k)
  mult = (((int64_t(1) << 30) + 1) << k) / count;
  shift = 30 + k;
}

Out evalPool(bool avg, const EvalArgs &e) {
  const Tensor &in = e.in(0);
  const Shape &is = in.shape();
  const Attrs &at = e.attrs();
  const auto &k = at.getInts("kernel"), &s = at.getInts("stride"),
             &p = at.getInts("pad");
  WindowAxis ay{is[1], s[0], 1, p[0]}, ax{is[2], s[1], 1, p[2]};
  bool integer = isInt(in.dtype());
  int64_t zi = avg ? at.getInt("input_zp") : 0,
          zo = avg ? at.getInt("output_zp") : 0;
  bool ignore = !avg && at.getString("nan_mode") == "IGNORE";
  return fillResult(
      e, [&](const std::vector<int64_t> &o, Tensor &out, int64_t flat) {
        Accum acc{integer, e.precision};
        NanFold mx(true, ignore);
        int64_t count = 0;
        forWindow(
            ay, ax, k[0], k[1], o[1], o[2],
            [&](int64_t, int64_t, int64_t y, int64_t x) {
              int64_t i = at4(is, o[0], y, x, o[3]);
              ++count;
              if (!avg)
                mx.add(in.asDouble(i));
              else
                integer ? acc.add(0, in.getI(i) - zi) : acc.add(in.getF(i), 0);
            },
            [](int64_t, int64_t) {});
        if (!avg) {
          integer ? out.setI(flat, int64_t(mx.result()))
                  : out.setF(flat, mx.result());
        } else if (!integer) {
          out.setF(flat, accRound(e.precision, kF32, acc.f / double(count)));
        } else {
          if (acc.overflow)
            return undefinedError("i32 accumulator overflow");
          int64_t mult, shift;
          reciprocalScale(count, mult, shift);
          CC_ASSIGN(v, applyScale(acc.i, mult, shift, true, false));
          out.setI(flat,
                   std::clamp(v + zo, intMin(in.dtype()), intMax(in.dtype())));
        }
        return Error();
      });
}

Error emitPool(bool avg, EmitContext &ctx, const Node &node) {
  const Attrs &at = node.attrs;
  DType t = ctx.graph().typeOf(node.operands[0]).dtype;
  std::string geom = "kernel = " + arr(at, "kernel") +
                     ", pad = " + arr(at, "pad") +
                     ", stride = " + arr(at, "stride");
  if (!avg) {
    CC_ASSIGN(nan, nanModeSuffix(ctx, node));
    emitTosa(ctx, node, "max_pool2d", {}, geom + nan);
    return Error();
  }
  std::string acc = "acc_type = " + std::string(dtypeName(accType(t))) + ", ";
  int64_t zi = at.getInt("input_zp"), zo = at.getInt("output_zp");
  if (ctx.syntaxVersion < 20) {
    if (t == kI8)
      geom += ", quantization_info = #tosa.unary_quant<input_zp = " +
              std::to_string(zi) + ", output_zp = " + std::to_string(zo) + ">";
    emitTosa(ctx, node, "avg_pool2d", {}, acc + geom);
    return Error();
  }
  emitTosa(ctx, node, "avg_pool2d", zeroPoints(ctx, {{t, zi}, {t, zo}}),
           acc + geom);
  return Error();
}

Attrs samplePool(bool avg, Rng &rng, const Types &ops) {
  const Shape &in = ops[0].shape;
  Attrs at;
  std::vector<int64_t> kernel, stride, pad;
  for (int64_t d : {in[1], in[2]}) {
    int64_t k = rng.uniformInt(1, std::min<int64_t>(3, d + 1));
    int64_t a[4];
    sampleAxis(rng, d, k, false, k - 1, a);
    if (a[2] >= k || a[3] >= k) // fallback padding must stay below the kernel
      k = 1, a[0] = 1, a[2] = a[3] = 0;
    kernel.push_back(k);
    stride.push_back(a[0]);
    pad.push_back(a[2]);
    pad.push_back(a[3]);
  }
  at.set("kernel", kernel);
  at.set("stride", stride);
  at.set("pad", pad);
  if (!avg)
    at.set("nan_mode", std::string(rng.chance(0.5) ? "PROPAGATE" : "IGNORE"));
  else if (ops[0].dtype == kI8) {
    at.set("input_zp", rng.uniformInt(-128, 127));
    at.set("output_zp", rng.uniformInt(-128, 127));
  }
  return at;
}

// `hint` when it has `rank` dimensions, else random sizes in [1, hi] (a
// leading batch of 1 or 2).
Shape shapeLike(Rng &rng, const Shape &hint, size_t rank, int64_t hi) {
  if (hint.size() == rank)
    return hint;
  Shape s(rank);
  for (size_t i = 0; i < rank; ++i)
    s[i] = rng.uniformInt(i == 0 ? 1 : 2, i == 0 ? 2 : hi);
  return s;
}

std::optional<OperandSample> sampleConvOperands(Conv kind, Rng &rng, DType d,
                                                const Shape &hint) {
  Shape in = shapeLike(rng, hint, 4, 6);
  int64_t kh = rng.uniformInt(1, 3), kw = rng.uniformInt(1, 3);
  int64_t c = in[3], o = rng.uniformInt(1, 4), m = rng.uniformInt(1, 2);
  Shape w = kind == Conv::Depthwise ? Shape{kh, kw, c, m} : Shape{o, kh, kw, c};
  int64_t outC = kind == Conv::Depthwise ? c * m : o;
  DType biasType = d == kI8 ? kI32 : d;
  // Weights and bias are leaves: a non-finite weight on a padding tap and an
  // overflowing i32 bias are undefined.
  return OperandSample{
      {{d, in}, {d, w}, {biasType, {rng.chance(0.2) ? 1 : outC}}}, 0b110};
}

// Operand range minus an i8 zero point (0 for other dtypes).
Interval lessZp(const Interval &x, const Attrs &at, const char *zp) {
  double z = double(at.getInt(zp));
  return {x.lo - z, x.hi - z, x.mayBeNaN};
}

// Sums of `terms` products (padding taps add zero products) plus a bias.
Interval convRange(Conv kind, const std::vector<Interval> &x, const Types &t,
                   const Attrs &at) {
  const Shape &w = t[1].shape;
  double terms =
      double(kind == Conv::Depthwise ? w[0] * w[1] : w[1] * w[2] * w[3]);
  Interval p =
      mulRange(lessZp(x[0], at, "input_zp"), lessZp(x[1], at, "weight_zp"));
  return addRange(sumRange(hull(p, {0, 0, false}), terms), x[2]);
}

AttrSpec ints(const char *n, std::optional<std::vector<int64_t>> def,
              const char *doc) {
  return {n, AttrKind::Ints,
          def ? std::optional<AttrValue>(*def) : std::nullopt, doc};
}
AttrSpec zp(const char *n) {
  return {n, AttrKind::Int, int64_t(0), "zero point (i8 only)"};
}

} // namespace

void addMatmulConvPoolOps(std::vector<OpDef> &ops) {
  // dtypes: TOSA 1.0 PRO-INT, PRO-FP, EXT-INT16 and EXT-BF16.
  OpDef mm;
  mm.name = "matmul";
  mm.summary =
      "batched matrix product [N,H,C] x [N,C,W] (i8 -> i32, bf16 -> f32)";
  mm.minOperands = mm.maxOperands = 2;
  mm.dtypes = {kF32, kF16, kBF16, kI8};
  mm.attrs = {zp("a_zp"), zp("b_zp")};
  mm.accumulates = true;
  mm.freedoms.zeroSign = true; // a dot product's accuracy bound
  mm.magnitude = Magnitude::OfOperands;
  mm.infer = inferMatmul;
  mm.eval = evalMatmul;
  mm.emit = emitMatmul;
  mm.rounding = [](const Types &ops, const Attrs &) {
    return Rounding{double(ops[0].shape[2]), {1, 1}}; // C products summed
  };
  mm.range = [](const std::vector<Interval> &x, const Types &t,
                const Attrs &at) {
    Interval p = mulRange(lessZp(x[0], at, "a_zp"), lessZp(x[1], at, "b_zp"));
    return sumRange(p, double(t[0].shape[2]));
  };
  mm.sampleOperands = [](Rng &rng, DType d, const Shape &hint) {
    Shape a = shapeLike(rng, hint, 3, 6);
    Shape b = {a[0], a[2], rng.uniformInt(1, 6)};
    return std::optional<OperandSample>(OperandSample{{{d, a}, {d, b}}, 0});
  };
  mm.sampleAttrs = [](Rng &rng, const Types &ops) {
    Attrs at;
    if (ops[0].dtype == kI8) {
      at.set("a_zp", rng.uniformInt(-128, 127));
      at.set("b_zp", rng.uniformInt(-128, 127));
    }
    return at;
  };
  ops.push_back(std::move(mm));

  struct ConvSpec {
    const char *name, *summary;
    Conv kind;
  };
  const ConvSpec convs[] = {
      {"conv2d", "2-D convolution, NHWC input, [O,KH,KW,C] weights",
       Conv::Plain},
      {"depthwise_conv2d", "depthwise 2-D convolution, [KH,KW,C,M] weights",
       Conv::Depthwise},
      {"transpose_conv2d", "transposed 2-D convolution, [O,KH,KW,C] weights",
       Conv::Transpose}};
  for (const ConvSpec &spec : convs) {
    Conv kind = spec.kind;
    OpDef d;
    d.name = spec.name;
    d.summary = spec.summary;
    d.minOperands = d.maxOperands = 3;
    d.dtypes = {kF32, kF16, kBF16, kI8};
    d.domains = {Domain::Any, Domain::Finite};
    d.accumulates = true;
    d.freedoms.zeroSign = true; // a dot product's accuracy bound
    d.magnitude = Magnitude::OfOperands;
    if (kind == Conv::Transpose)
      d.attrs = {ints("out_pad", std::vector<int64_t>{0, 0, 0, 0},
                      "[top,bottom,left,right]"),
                 ints("stride", std::vector<int64_t>{1, 1}, "[y,x]")};
    else
      d.attrs = {ints("pad", std::vector<int64_t>{0, 0, 0, 0},
                      "[top,bottom,left,right]"),
                 ints("stride", std::vector<int64_t>{1, 1}, "[y,x]"),
                 ints("dilation", std::vector<int64_t>{1, 1}, "[y,x]")};
    d.attrs.push_back(zp("input_zp"));
    d.attrs.push_back(zp("weight_zp"));
    d.infer = [kind](const Types &ops, const Attrs &at) {
      return inferConv(kind, ops, at);
    };
    d.eval = [kind](const EvalArgs &e) { return evalConv(kind, e); };
    d.emit = [kind](EmitContext &ctx, const Node &n) {
      return emitConv(kind, ctx, n);
    };
    d.rounding = [kind](const Types &ops, const Attrs &at) {
      return convRounding(kind, ops, at);
    };
    d.sampleAttrs = [kind](Rng &rng, const Types &ops) {
      return sampleConv(kind, rng, ops);
    };
    d.range = [kind](const std::vector<Interval> &x, const Types &t,
                     const Attrs &at) { return convRange(kind, x, t, at); };
    d.sampleOperands = [kind](Rng &rng, DType t, const Shape &hint) {
      return sampleConvOperands(kind, rng, t, hint);
    };
    ops.push_back(std::move(d));
  }

  for (bool avg : {true, false}) {
    OpDef d;
    d.name = avg ? "avg_pool2d" : "max_pool2d";
    d.summary =
        avg ? "average over 2-D windows, padding excluded from the count"
            : "maximum over 2-D windows";
    d.dtypes = {kF32, kF16, kBF16, kI8, kI16};
    d.freedoms.zeroSign = true; // an average's accuracy bound; max of zeros
    d.attrs = {ints("kernel", std::nullopt, "[y,x]"),
               ints("stride", std::vector<int64_t>{1, 1}, "[y,x]"),
               ints("pad", std::vector<int64_t>{0, 0, 0, 0},
                    "[top,bottom,left,right]")};
    if (avg) {
      d.attrs.push_back(zp("input_zp"));
      d.attrs.push_back(zp("output_zp"));
      d.accumulates = true;
      d.magnitude = Magnitude::OfOperands;
    } else {
      d.attrs.push_back(nanModeSpec());
      d.intExtremes = IntExtremes::AllOperands;
      d.keepsQuantScale = true;
    }
    d.infer = [avg](const Types &ops, const Attrs &at) {
      return inferPool(avg, ops, at);
    };
    d.eval = [avg](const EvalArgs &e) { return evalPool(avg, e); };
    d.emit = [avg](EmitContext &ctx, const Node &n) {
      return emitPool(avg, ctx, n);
    };
    // avg: the window's sum, then the division; max: exact.
    d.rounding = [avg](const Types &, const Attrs &at) {
      const auto &k = at.getInts("kernel");
      return Rounding{avg ? double(k[0] * k[1]) + 1 : 0, {}};
    };
    d.sampleAttrs = [avg](Rng &rng, const Types &ops) {
      return samplePool(avg, rng, ops);
    };
    // Averages and maxima of the window stay within the input's range
    // (padding is excluded); zero points shift i8 averages.
    d.range = [avg](const std::vector<Interval> &x, const Types &t,
                    const Attrs &at) {
      DType d = t[0].dtype;
      if (avg && isInt(d) &&
          (at.getInt("input_zp") != 0 || at.getInt("output_zp") != 0))
        return Interval{double(intMin(d)), double(intMax(d)), false};
      return x[0];
    };
    d.sampleOperands = [](Rng &rng, DType t, const Shape &hint) {
      return std::optional<OperandSample>(
          OperandSample{{{t, shapeLike(rng, hint, 4, 6)}}, 0});
    };
    ops.push_back(std::move(d));
  }
}

} // namespace cc
