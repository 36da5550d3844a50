// avg_pool2d max_pool2d: TOSA 1.0's pools over 2-D windows.
#include "core/ops/Accumulate.h"

namespace cc {

namespace {

using namespace ops;

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

} // namespace

void addPoolOps(std::vector<OpDef> &ops) {
  for (bool avg : {true, false}) {
    OpDef d;
    d.id = avg ? OpId::AvgPool2d : OpId::MaxPool2d;
    d.summary =
        avg ? "average over 2-D windows, padding excluded from the count"
            : "maximum over 2-D windows";
    d.dtypes = {kF32, kF16, kBF16, kI8, kI16};
    d.example = [](DType t) {
      return std::vector<TensorType>{{t, {1, 6, 6, 2}}};
    };
    d.operandDoc = "input [N,H,W,C]";
    d.notes = avg ? "float (f32 accumulation of KH*KW, +1 for the division), "
                    "i8, i16; padding is excluded from the count; integers "
                    "divide by reciprocal_scale (rounding half up), an i32 "
                    "accumulator overflow is undefined"
                  : "folds like reduce_max";
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
