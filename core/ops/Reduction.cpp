// reduce_sum reduce_product reduce_max reduce_min argmax (TOSA 1.0).
#include "core/ops/Families.h"
#include "core/ops/Indexing.h"

namespace cc {

namespace {

enum class Fold { Sum, Product, Max, Min, ArgMax };

struct ReduceSpec {
  OpId id;
  const char *summary, *notes;
  Fold fold;
  std::vector<DType> dtypes;
};

bool hasNanMode(Fold f) { return f != Fold::Sum && f != Fold::Product; }

// The reduced axis splits the flat index into (outer, k, inner).
struct AxisSplit {
  int64_t outer = 1, extent = 1, inner = 1;
  AxisSplit(const Shape &s, int64_t axis) {
    for (int64_t d = 0; d < int64_t(s.size()); ++d)
      (d < axis ? outer : d == axis ? extent : inner) *= s[d];
  }
};

Expected<std::vector<TensorType>>
inferReduce(Fold fold, const std::vector<TensorType> &ops, const Attrs &at) {
  int64_t axis = at.getInt("axis");
  if (ops[0].rank() < 1)
    return makeError("input must have rank >= 1, got " + ops[0].str());
  CC_TRY(checkAxis(axis, ops[0].rank()));
  if (hasNanMode(fold))
    CC_TRY(checkNanMode(at));
  TensorType t = ops[0];
  if (fold == Fold::ArgMax) {
    t.shape.erase(t.shape.begin() + axis);
    t.dtype = DType::i32;
  } else {
    t.shape[size_t(axis)] = 1;
  }
  return oneType(t);
}

// Index of the maximum along the axis: the first NaN under PROPAGATE,
// otherwise the first maximal non-NaN value (0 when all are NaN).
int64_t argMax(const Tensor &in, int64_t base, int64_t stride, int64_t n,
               bool ignoreNan) {
  int64_t best = 0;
  double bestV = -INFINITY;
  for (int64_t k = 0; k < n; ++k) {
    double v = in.asDouble(base + k * stride);
    if (std::isnan(v)) {
      if (!ignoreNan)
        return k;
      continue;
    }
    if (v > bestV) {
      bestV = v;
      best = k;
    }
  }
  return best;
}

// Freedoms::openWithin of argmax: a slice whose maximum another element
// could reach within both their bounds (a float tie) is open.
std::vector<uint8_t> argMaxOpen(const EvalArgs &a,
                                const std::vector<Tensor> &bound) {
  std::vector<uint8_t> mask;
  const Tensor &in = a.in(0);
  if (!isFloat(in.dtype()) || bound.empty() || bound[0].byteCount() == 0 ||
      bound[0].shape() != in.shape())
    return mask;
  bool ignore = a.attrs().getString("nan_mode") == "IGNORE";
  AxisSplit s(in.shape(), a.attrs().getInt("axis"));
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < s.inner; ++j) {
      int64_t base = o * s.extent * s.inner + j;
      int64_t m = base + argMax(in, base, s.inner, s.extent, ignore) * s.inner;
      double top = in.getF(m) - bound[0].getF(m);
      if (std::isnan(top))
        continue; // a NaN wins exactly
      for (int64_t k = 0; k < s.extent; ++k) {
        int64_t i = base + k * s.inner;
        double b = bound[0].getF(i) + bound[0].getF(m);
        // Equal values without a bound are an exact tie: the first wins.
        if (i != m && b > 0 && in.getF(i) + bound[0].getF(i) >= top) {
          mask.resize(size_t(s.outer * s.inner));
          mask[size_t(o * s.inner + j)] = 1;
          break;
        }
      }
    }
  return mask;
}

Expected<std::vector<Tensor>> evalReduce(Fold fold, const EvalArgs &a) {
  const Tensor &in = a.in(0);
  DType dt = in.dtype();
  bool fl = isFloat(dt);
  DType declared = a.resultTypes[0].dtype;
  bool ignore = hasNanMode(fold) && a.attrs().getString("nan_mode") == "IGNORE";
  AxisSplit s(in.shape(), a.attrs().getInt("axis"));
  Tensor out = a.makeResult();
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < s.inner; ++j) {
      int64_t base = o * s.extent * s.inner + j, at = o * s.inner + j;
      if (fold == Fold::ArgMax) {
        out.setI(at, argMax(in, base, s.inner, s.extent, ignore));
        continue;
      }
      if (fold == Fold::Max || fold == Fold::Min) {
        NanFold f(fold == Fold::Max, ignore);
        for (int64_t k = 0; k < s.extent; ++k)
          f.add(in.asDouble(base + k * s.inner));
        fl ? out.setF(at, f.result()) : out.setI(at, int64_t(f.result()));
        continue;
      }
      bool sum = fold == Fold::Sum;
      if (fl) {
        double acc = sum ? 0.0 : 1.0;
        for (int64_t k = 0; k < s.extent; ++k) {
          double v = in.getF(base + k * s.inner);
          acc = accRound(a.precision, declared, sum ? acc + v : acc * v);
        }
        out.setF(at, acc);
        continue;
      }
      int64_t acc = sum ? 0 : 1;
      for (int64_t k = 0; k < s.extent; ++k) {
        int64_t v = in.getI(base + k * s.inner);
        acc = sum ? acc + v : acc * v;
        if (acc < intMin(dt) || acc > intMax(dt))
          return undefinedError(
              std::string(sum ? "reduce_sum" : "reduce_product") +
              " overflows " + std::string(dtypeName(dt)));
      }
      out.setI(at, acc);
    }
  return std::vector<Tensor>{std::move(out)};
}

} // namespace

void addReductionOps(std::vector<OpDef> &ops) {
  const DType f32 = DType::f32, f16 = DType::f16, bf16 = DType::bf16,
              i8 = DType::i8, i16 = DType::i16, i32 = DType::i32;
  // dtypes: TOSA 1.0 PRO-INT, PRO-FP, EXT-INT16 and EXT-BF16.
  const ReduceSpec specs[] = {
      {OpId::ReduceSum,
       "sum along an axis (kept with size 1)",
       "accumulates the axis size",
       Fold::Sum,
       {f32, f16, bf16, i32}},
      {OpId::ReduceProduct,
       "product along an axis (kept with size 1)",
       "accumulates the axis size",
       Fold::Product,
       {f32, f16, bf16}},
      {OpId::ReduceMax,
       "maximum along an axis (kept with size 1)",
       "folds in order as acc = apply_max_s(acc, x): of -0 and +0 the first "
       "stays; IGNORE with all NaN gives NaN",
       Fold::Max,
       {f32, f16, bf16, i8, i16, i32}},
      {OpId::ReduceMin,
       "minimum along an axis (kept with size 1)",
       "folds in order as acc = apply_min_s(acc, x): of -0 and +0 the last "
       "wins; IGNORE with all NaN gives NaN",
       Fold::Min,
       {f32, f16, bf16, i8, i16, i32}},
      {OpId::ArgMax,
       "index of the maximum along an axis (axis removed; i32)",
       "PROPAGATE: the first NaN; IGNORE skips NaNs (0 when all are NaN); "
       "ties: the first index",
       Fold::ArgMax,
       {f32, f16, bf16, i8, i16}},
  };
  for (const ReduceSpec &spec : specs) {
    Fold fold = spec.fold;
    OpDef d;
    d.id = spec.id;
    d.summary = spec.summary;
    d.notes = spec.notes;
    d.dtypes = spec.dtypes;
    d.attrs = {{"axis", AttrKind::Int, std::nullopt, "reduced axis"}};
    if (hasNanMode(fold))
      d.attrs.push_back(nanModeSpec());
    // Sums and products accumulate; max, min and argmax only compare.
    d.accumulates = fold == Fold::Sum || fold == Fold::Product;
    // Sums and products meet an accuracy bound; max and min of zeros.
    d.freedoms.zeroSign = fold != Fold::ArgMax;
    if (fold == Fold::ArgMax)
      d.freedoms.openWithin = argMaxOpen;
    d.intExtremes =
        hasNanMode(fold) ? IntExtremes::AllOperands : IntExtremes::None;
    if (fold == Fold::Sum)
      d.magnitude = Magnitude::OfOperands;
    d.infer = [fold](const std::vector<TensorType> &ops, const Attrs &at) {
      return inferReduce(fold, ops, at);
    };
    d.eval = [fold](const EvalArgs &a) { return evalReduce(fold, a); };
    d.rounding = [fold](const std::vector<TensorType> &ops, const Attrs &at) {
      double n = double(ops[0].shape[size_t(at.getInt("axis"))]);
      // A product of n terms adds their n relative errors.
      return fold == Fold::Sum ? Rounding{n, {}}
             : fold == Fold::Product
                 ? Rounding{n, {n}}
                 : Rounding{0, {}}; // max, min, argmax: exact
    };
    d.range = [fold](const std::vector<Interval> &x,
                     const std::vector<TensorType> &t, const Attrs &at) {
      double n = double(t[0].shape[size_t(at.getInt("axis"))]);
      switch (fold) {
      case Fold::Sum:
        return sumRange(x[0], n);
      case Fold::Product: {
        Interval r = x[0];
        for (double k = 1; k < n; ++k)
          r = mulRange(r, x[0]);
        return r;
      }
      case Fold::ArgMax:
        return Interval{0, n - 1, false};
      default:
        return x[0]; // max, min
      }
    };
    std::string tosaName(opName(spec.id));
    d.emit = [fold, tosaName](EmitContext &ctx, const Node &node) -> Error {
      std::string props =
          "axis = " + std::to_string(node.attrs.getInt("axis")) + " : i32";
      // MLIR 19's argmax (TOSA 0.80, no nan_mode) compares with `ogt`, so
      // a NaN never wins: it cannot express TOSA 1.0's PROPAGATE either.
      if (fold == Fold::ArgMax && ctx.syntaxVersion <= 19 &&
          isFloat(ctx.graph().typeOf(node.operands[0]).dtype))
        return unsupported("float argmax has no NaN semantics in MLIR " +
                           std::to_string(ctx.syntaxVersion) + "'s TOSA");
      if (hasNanMode(fold)) {
        auto nan = nanModeSuffix(ctx, node);
        if (!nan)
          return nan.error();
        props += *nan;
      }
      // MLIR 19 spells reduce_product "reduce_prod".
      bool oldProd = ctx.syntaxVersion < 20 && fold == Fold::Product;
      emitTosa(ctx, node, oldProd ? "reduce_prod" : tosaName, {}, props);
      return Error();
    };
    // An i32 sum may overflow, which is undefined: sum bounded (leaf) values.
    if (fold == Fold::Sum)
      d.sampleOperands = [](Rng &, DType t, const Shape &hint) {
        return std::optional<OperandSample>(
            OperandSample{{{t, hint}}, t == DType::i32 ? 1u : 0u});
      };
    d.sampleAttrs = [fold](Rng &rng, const std::vector<TensorType> &ops) {
      Attrs at;
      at.set("axis",
             rng.uniformInt(0, std::max<int64_t>(0, ops[0].rank() - 1)));
      if (hasNanMode(fold))
        at.set("nan_mode",
               std::string(rng.chance(0.5) ? "PROPAGATE" : "IGNORE"));
      return at;
    };
    ops.push_back(std::move(d));
  }
}

} // namespace cc
