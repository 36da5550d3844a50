// conv2d depthwise_conv2d transpose_conv2d: TOSA 1.0's convolutions, on
// the window walk they share with the pools (Accumulate.h).
#include "core/ops/Accumulate.h"

namespace cc {

namespace {

using namespace ops;

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

// A 6x6 image of 2 channels and 3x3 filters (the transposed one grows a
// 3x3 image); the bias has the result's dtype.
Types convExample(Conv kind, DType t) {
  DType bias = t == kI8 ? kI32 : t;
  switch (kind) {
  case Conv::Depthwise:
    return {{t, {1, 6, 6, 2}}, {t, {3, 3, 2, 2}}, {bias, {4}}};
  case Conv::Transpose:
    return {{t, {1, 3, 3, 2}}, {t, {3, 2, 2, 2}}, {bias, {3}}};
  case Conv::Plain:
    break;
  }
  return {{t, {1, 6, 6, 2}}, {t, {3, 3, 3, 2}}, {bias, {3}}};
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

std::optional<OperandSample> sampleConvOperands(Conv kind, Rng &rng, DType d,
                                                const Shape &hint) {
  Shape in = shapeLike(rng, hint, 4, 6);
  int64_t kh = rng.uniformInt(1, 3), kw = rng.uniformInt(1, 3);
  int64_t c = in[3], o = rng.uniformInt(1, 4), m = rng.uniformInt(1, 2);
  Shape w = kind == Conv::Depthwise ? Shape{kh, kw, c, m} : Shape{o, kh, kw, c};
  int64_t outC = kind == Conv::Depthwise ? c * m : o;
  DType biasType = d == kI8 ? kI32 : d;
  // Weights and bias are
  // leaves: a non-finite weight
  // on a padding tap and an
  // overflowing i32 bias are
  // undefined.
  return OperandSample{
      {{d, in}, {d, w}, {biasType, {rng.chance(0.2) ? 1 : outC}}}, 0b110};
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

} // namespace

void addConvOps(std::vector<OpDef> &ops) {
  struct ConvSpec {
    OpId id;
    const char *summary, *operands, *notes;
    Conv kind;
  };
  const ConvSpec convs[] = {
      {OpId::Conv2d, "2-D convolution, NHWC input, [O,KH,KW,C] weights",
       "input [N,H,W,C], weight [O,KH,KW,C], bias [O]",
       "float -> same dtype (f32 accumulation of KH*KW*C products, +1 for the "
       "bias); i8 -> i32; the bias is added last, in the result type; a "
       "non-finite weight on a padding tap is undefined unless the result is "
       "NaN",
       Conv::Plain},
      {OpId::DepthwiseConv2d, "depthwise 2-D convolution, [KH,KW,C,M] weights",
       "input [N,H,W,C], weight [KH,KW,C,M], bias [C*M]",
       "output channel c*M+m; accumulates KH*KW products, +1; as conv2d",
       Conv::Depthwise},
      {OpId::TransposeConv2d, "transposed 2-D convolution, [O,KH,KW,C] weights",
       "input [N,H,W,C], weight [O,KH,KW,C], bias [O]",
       "input iy reaches output iy*stride + out_pad_top + ky; accumulates "
       "ceil(KH/stride_y)*ceil(KW/stride_x)*C products, +1; as conv2d",
       Conv::Transpose}};
  for (const ConvSpec &spec : convs) {
    Conv kind = spec.kind;
    OpDef d;
    d.id = spec.id;
    d.summary = spec.summary;
    d.operandDoc = spec.operands;
    d.notes = spec.notes;
    d.minOperands = d.maxOperands = 3;
    d.dtypes = {kF32, kF16, kBF16, kI8};
    d.example = [kind](DType t) { return convExample(kind, t); };
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
}

} // namespace cc
