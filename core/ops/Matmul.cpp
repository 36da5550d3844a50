// matmul: the batched matrix product of TOSA 1.0.
#include "core/ops/Accumulate.h"

namespace cc {

namespace {

using namespace ops;

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

} // namespace

void addMatmulOps(std::vector<OpDef> &ops) {
  // dtypes: TOSA 1.0 PRO-INT, PRO-FP, EXT-INT16 and EXT-BF16.
  OpDef mm;
  mm.id = OpId::MatMul;
  mm.summary =
      "batched matrix product [N,H,C] x [N,C,W] (i8 -> i32, bf16 -> f32)";
  mm.minOperands = mm.maxOperands = 2;
  mm.dtypes = {kF32, kF16, kBF16, kI8};
  mm.example = [](DType d) {
    return std::vector<TensorType>{{d, {1, 2, 3}}, {d, {1, 3, 4}}};
  };
  mm.attrs = {zp("a_zp"), zp("b_zp")};
  mm.operandDoc = "a [N,H,C], b [N,C,W]";
  mm.notes = "f32, f16 -> same dtype; bf16 -> f32 (TOSA 1.0 allows no bf16 "
             "result); i8 -> i32; accumulates C products in the result type";
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
}

} // namespace cc
