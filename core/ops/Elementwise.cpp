// Elementwise arithmetic ops: TOSA 1.0's elementwise binary, unary and
// ternary operators and CLAMP. Allowed dtypes are those of the TOSA 1.0
// profiles (PRO-INT, PRO-FP) and the BF16 and INT16 extensions.
#include "core/ops/Families.h"
#include "core/ops/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cc {

namespace {

using Results = Expected<std::vector<Tensor>>;
using IntElem = Elem<int64_t>;
using FloatElem = Elem<double>;

constexpr DType f32 = DType::f32, f16 = DType::f16, bf16 = DType::bf16,
                i1 = DType::i1, i8 = DType::i8, i16 = DType::i16,
                i32 = DType::i32;
const std::vector<DType> kFloat = {f32, f16, bf16};
const std::vector<DType> kFloatI32 = {f32, f16, bf16, i32};
const std::vector<DType> kFloatInt = {f32, f16, bf16, i8, i16, i32};
const std::vector<DType> kClampTypes = {f32, f16, bf16, i8, i16};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Ulps of error of a math function as compilers implement it: libm or a
// polynomial approximation (MLIR's math-polynomial-approximation) is
// faithful to a few ulps, not correctly rounded.
constexpr double kApproxUlps = 4;

bool ignoreNaN(const Attrs &attrs) {
  return attrs.getString("nan_mode") == "IGNORE";
}

// apply_max_s / apply_min_s of TOSA 1.0 for floats: NaN handling by
// nan_mode; otherwise `a >= b ? a : b` (resp. `a < b ? a : b`), which also
// fixes which zero wins for max(-0, +0).
// TOSA 1.0 leaves pow's result undefined for a NaN operand, a negative
// base and a zero base with a non-positive exponent.
bool powUndefined(const double *x) {
  return std::isnan(x[0]) || std::isnan(x[1]) || x[0] < 0 ||
         (x[0] == 0 && x[1] <= 0);
}

double maxNaN(double a, double b, bool ignore) {
  if (std::isnan(a) || std::isnan(b))
    return ignore ? (std::isnan(a) ? b : a) : kNaN;
  return a >= b ? a : b;
}
double minNaN(double a, double b, bool ignore) {
  if (std::isnan(a) || std::isnan(b))
    return ignore ? (std::isnan(a) ? b : a) : kNaN;
  return a < b ? a : b;
}

Error emitNanModeOp(EmitContext &ctx, const Node &node, const std::string &op,
                    const std::string &otherAttrs = "") {
  CC_ASSIGN(nan, nanModeAttr(ctx, node));
  std::string attrs = otherAttrs;
  if (!nan.empty())
    attrs += (attrs.empty() ? "" : ", ") + nan;
  emitOp(ctx, node, op, attrs);
  return Error();
}

Attrs sampleNanMode(Rng &rng) {
  Attrs a;
  a.set("nan_mode", std::string(rng.chance(0.5) ? "PROPAGATE" : "IGNORE"));
  return a;
}

// --- binary -----------------------------------------------------------------

OpDef addOrSub(bool isAdd) {
  auto eval = [isAdd](const EvalArgs &args) {
    return floatOrInt(
        args,
        [isAdd](const double *x) { return isAdd ? x[0] + x[1] : x[0] - x[1]; },
        [isAdd](const int64_t *x, DType t) {
          return checkedInt(t, isAdd ? x[0] + x[1] : x[0] - x[1],
                            "integer overflow");
        });
  };
  OpDef op = elementwiseOp(isAdd ? OpId::Add : OpId::Sub,
                           isAdd ? "elementwise sum (broadcasting)"
                                 : "elementwise difference (broadcasting)",
                           2, kFloatI32, eval);
  op.notes = "broadcast; i32 overflow is undefined";
  // i32 overflow is undefined: only bounded (leaf) values are summed.
  op.sampleOperands = elementwiseOperands(2, 0b11, {i32});
  op.magnitude = isAdd ? Magnitude::OfOperands : Magnitude::AsAdd;
  op.range = [isAdd](const std::vector<Interval> &x,
                     const std::vector<TensorType> &, const Attrs &) {
    return addRange(x[0], isAdd ? x[1] : negRange(x[1]));
  };
  return op;
}

OpDef mulOp() {
  OpDef op =
      elementwiseOp(OpId::Mul, "elementwise product; i32 may round-shift right",
                    2, kFloatInt, nullptr);
  op.rounding = Rounding::fixed(1, {1, 1});
  op.magnitude = Magnitude::OfOperands;
  op.notes = "shift only for i32 (rounding right shift, exact in 128 bits); "
             "unshifted i32 keeps the low 32 bits; i8 and i16 give i32";
  // A shifted i32 product may overflow: bounded (leaf) factors only.
  op.sampleOperands = elementwiseOperands(2, 0b11, {i32});
  op.attrs = {{"shift", AttrKind::Int, AttrValue(int64_t(0)),
               "i32 only: the product is shifted right by this amount with "
               "rounding (0..63)"}};
  // i8 and i16 products are i32.
  op.infer = [](const std::vector<TensorType> &ops,
                const Attrs &attrs) -> Expected<std::vector<TensorType>> {
    CC_TRY(requireArity(ops, 2));
    std::optional<DType> result;
    if (ops[0].dtype == i8 || ops[0].dtype == i16)
      result = i32;
    CC_ASSIGN(types, inferBroadcastOp(ops, 2, kFloatInt, result));
    int64_t shift = attrs.has("shift") ? attrs.getInt("shift") : 0;
    if (shift < 0 || shift > 63)
      return makeError("shift " + std::to_string(shift) +
                       " is outside [0, 63]");
    if (shift != 0 && ops[0].dtype != i32)
      return makeError("shift must be 0 for " + ops[0].str() +
                       " operands (only i32 products are shifted)");
    return types;
  };
  op.eval = [](const EvalArgs &args) {
    int64_t shift = args.attrs().getInt("shift");
    return floatOrInt(
        args, [](const double *x) { return x[0] * x[1]; },
        [shift](const int64_t *x, DType) -> IntElem {
          int64_t product = x[0] * x[1]; // exact: operands are at most i32
          if (shift == 0)
            return product; // low 32 bits, wrapped by the i32 result
          // In 128 bits: at shift 63, INT32_MIN^2 + 2^62 overflows int64.
          __int128 rounded =
              (__int128(product) + (__int128(1) << (shift - 1))) >> shift;
          if (rounded < intMin(i32) || rounded > intMax(i32))
            return IntElem::why("shifted product overflows i32");
          return int64_t(rounded);
        });
  };
  op.emit = [](EmitContext &ctx, const Node &node) {
    int64_t shift = node.attrs.getInt("shift");
    if (ctx.syntaxVersion <= 19) {
      emitOp(ctx, node, "tosa.mul",
             "shift = " + std::to_string(shift) + " : i8");
      return Error();
    }
    Tensor shiftConst(i8, {1});
    shiftConst.setI(0, shift);
    auto operands = operandsOf(ctx, node);
    operands.push_back(constOperand(ctx, shiftConst));
    emitOp(ctx, node, "tosa.mul", operands);
    return Error();
  };
  op.range = [](const std::vector<Interval> &x, const std::vector<TensorType> &,
                const Attrs &attrs) {
    Interval r = mulRange(x[0], x[1]);
    // The rounded shift stays within the floors and ceilings of the bounds.
    if (int64_t shift = attrs.getInt("shift"))
      r.lo = std::floor(std::ldexp(r.lo, -int(shift))),
      r.hi = std::ceil(std::ldexp(r.hi, -int(shift)));
    return r;
  };
  op.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &ops) {
    Attrs a;
    bool shifted = !ops.empty() && ops[0].dtype == i32 && rng.chance(0.5);
    a.set("shift", shifted ? rng.uniformInt(1, 31) : int64_t(0));
    return a;
  };
  return op;
}

OpDef intdivOp() {
  OpDef op = elementwiseOp(
      OpId::IntDiv, "integer division truncating toward zero", 2, {i32},
      [](const EvalArgs &args) {
        return mapElements<int64_t>(args, [](const int64_t *x) -> IntElem {
          if (x[1] == 0)
            return IntElem::why("integer division by zero");
          return checkedInt(i32, x[0] / x[1], "INT_MIN / -1 overflows");
        });
      });
  op.domains = {Domain::Any, Domain::NonZero};
  // Zero divisors and INT_MIN / -1 are undefined.
  op.sampleOperands = elementwiseOperands(2, 0b11);
  op.rounding = Rounding::fixed(0); // integers only
  op.range = [](const std::vector<Interval> &x, const std::vector<TensorType> &,
                const Attrs &) {
    const Interval &a = x[0], &b = x[1];
    if (b.lo > 0 || b.hi < 0) { // truncation is monotone: corners bound it
      Interval r = mulRange(a, {1 / b.hi, 1 / b.lo, false});
      return Interval{std::trunc(r.lo), std::trunc(r.hi), false};
    }
    // A non-zero integer divisor (the domain) never grows the magnitude;
    // INT_MIN / -1 shows as 2^31.
    double m = std::max(std::fabs(a.lo), std::fabs(a.hi));
    return Interval{-m, m, false};
  };
  op.emit = [](EmitContext &ctx, const Node &node) {
    // MLIR renamed tosa.int_div to tosa.intdiv for TOSA 1.0.
    emitOp(ctx, node, ctx.syntaxVersion <= 19 ? "tosa.int_div" : "tosa.intdiv");
    return Error();
  };
  op.notes = "divisor != 0, no INT_MIN / -1 (both undefined)";
  return op;
}

OpDef maxOrMin(bool isMax) {
  OpId id = isMax ? OpId::Maximum : OpId::Minimum;
  std::string name(opName(id));
  OpDef op = elementwiseOp(
      id,
      std::string("elementwise ") + (isMax ? "maximum" : "minimum") +
          " with TOSA nan_mode",
      2, kFloatI32, [isMax](const EvalArgs &args) {
        bool ignore = ignoreNaN(args.attrs());
        return floatOrInt(
            args,
            [=](const double *x) {
              return isMax ? maxNaN(x[0], x[1], ignore)
                           : minNaN(x[0], x[1], ignore);
            },
            [=](const int64_t *x, DType) {
              return isMax ? std::max(x[0], x[1]) : std::min(x[0], x[1]);
            });
      });
  op.attrs = {nanModeSpec()};
  op.rounding = Rounding::fixed(0);
  op.intExtremes = IntExtremes::AllOperands;
  op.freedoms.zeroSign = true; // max(+0.0, -0.0) may be either zero
  op.range = [isMax](const std::vector<Interval> &x,
                     const std::vector<TensorType> &, const Attrs &) {
    auto pick = [isMax](double p, double q) {
      return isMax ? std::max(p, q) : std::min(p, q);
    };
    return Interval{pick(x[0].lo, x[1].lo), pick(x[0].hi, x[1].hi),
                    x[0].mayBeNaN || x[1].mayBeNaN};
  };
  auto base = op.infer;
  op.infer = [base](const std::vector<TensorType> &ops,
                    const Attrs &attrs) -> Expected<std::vector<TensorType>> {
    CC_TRY(checkNanMode(attrs));
    return base(ops, attrs);
  };
  op.emit = [name](EmitContext &ctx, const Node &node) {
    return emitNanModeOp(ctx, node, "tosa." + name);
  };
  op.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &) {
    return sampleNanMode(rng);
  };
  op.notes = isMax ? "a >= b ? a : b: of -0 and +0 returns a"
                   : "a < b ? a : b: of -0 and +0 returns b";
  return op;
}

OpDef powOp() {
  OpDef op = elementwiseOp(OpId::Pow, "elementwise power input1 ** input2", 2,
                           kFloat, [](const EvalArgs &args) {
                             return mapElements<double>(
                                 args, [](const double *x) -> FloatElem {
                                   // NaN where the result is undefined
                                   // (OpDef::freedoms): a stand-in, any value
                                   // is permitted there.
                                   if (powUndefined(x))
                                     return kNaN;
                                   return std::pow(x[0], x[1]);
                                 });
                           });
  op.freedoms.undefinedAt = powUndefined;
  op.domains = {Domain::Positive};
  op.sampleOperands =
      elementwiseOperands(2, 0b01); // a negative base is undefined
  op.rounding = Rounding::fixed(kApproxUlps);
  op.range = [](const std::vector<Interval> &x, const std::vector<TensorType> &,
                const Attrs &) {
    const Interval &a = x[0], &b = x[1];
    if (!(a.lo > 0))
      return Interval{0, INFINITY, true};
    // x ** y = exp(y * log x), monotone in y * log x.
    Interval e = mulRange(b, {std::log(a.lo), std::log(a.hi), false});
    return Interval{std::exp(e.lo), std::exp(e.hi), a.mayBeNaN || e.mayBeNaN};
  };
  op.notes = "undefined for a NaN operand, a negative base, or a zero base "
             "with an exponent <= 0";
  return op;
}

// --- unary ------------------------------------------------------------------

OpDef absOp() {
  OpDef op = elementwiseOp(
      OpId::Abs, "absolute value", 1, kFloatI32, [](const EvalArgs &args) {
        return floatOrInt(
            args, [](const double *x) { return std::fabs(x[0]); },
            [](const int64_t *x, DType t) {
              return checkedInt(t, x[0] < 0 ? -x[0] : x[0],
                                "abs of the minimum integer overflows");
            });
      });
  op.sampleOperands = elementwiseOperands(1, 0b1, {i32});
  op.rounding = Rounding::fixed(0);
  op.magnitude = Magnitude::OfOperands;
  op.range = [](const std::vector<Interval> &x, const std::vector<TensorType> &,
                const Attrs &) {
    const Interval &a = x[0];
    if (a.lo >= 0)
      return a;
    if (a.hi <= 0)
      return negRange(a);
    return Interval{0, std::max(-a.lo, a.hi), a.mayBeNaN};
  };
  return op;
}

OpDef negateOp() {
  OpDef op = elementwiseOp(
      OpId::Negate, "negation", 1, kFloatInt, [](const EvalArgs &args) {
        return floatOrInt(
            args,
            // IEEE negation (sign flip); the spec's 0 - x would differ only
            // in the sign of a zero result.
            [](const double *x) { return -x[0]; },
            [](const int64_t *x, DType t) -> IntElem {
              // Computed in the i32 accumulator, then clipped to t (with
              // zero points 0): only i32's minimum overflows.
              int64_t v = -x[0];
              if (v > intMax(i32))
                return IntElem::why("negation of the minimum i32 overflows");
              return std::clamp(v, intMin(t), intMax(t));
            });
      });
  op.sampleOperands = elementwiseOperands(1, 0b1, {i32});
  op.rounding = Rounding::fixed(0);
  op.magnitude = Magnitude::OfOperands;
  op.range = [](const std::vector<Interval> &x,
                const std::vector<TensorType> &t, const Attrs &) {
    Interval r = negRange(x[0]);
    DType d = t[0].dtype;
    if (isInt(d) && d != i32) // clipped to the narrow type
      r.lo = std::clamp(r.lo, double(intMin(d)), double(intMax(d))),
      r.hi = std::clamp(r.hi, double(intMin(d)), double(intMax(d)));
    return r;
  };
  op.emit = [](EmitContext &ctx, const Node &node) {
    if (ctx.syntaxVersion <= 19) {
      emitOp(ctx, node, "tosa.negate");
      return Error();
    }
    // MLIR 22 takes the input and output zero points as operands.
    Tensor zp(ctx.graph().typeOf(node.operands.at(0)).dtype, {1});
    auto operands = operandsOf(ctx, node);
    EmitOperand zero = constOperand(ctx, zp);
    operands.push_back(zero);
    operands.push_back(zero);
    emitOp(ctx, node, "tosa.negate", operands);
    return Error();
  };
  op.notes = "integers with input_zp = output_zp = 0";
  return op;
}

struct FloatUnary {
  OpId id;
  const char *summary;
  double (*fn)(double);
  Domain domain; // what the generator should draw to stay in the useful range
  double ulps;   // error as compilers implement it (Rounding::steps)
  double (*slope)(double x, double fx); // f'(x) (OpDef::slope); none: null
  bool steps = false;                   // floor, ceil: Freedoms::openWithin
};

// The float-only unary ops, computed in f64 with <cmath>. Their special
// values are TOSA 1.0's: log(0) = -inf, log(x < 0) = NaN, rsqrt(x < 0) =
// NaN, reciprocal(±0) = ±inf; none is undefined.
const FloatUnary kFloatUnary[] = {
    {OpId::Exp, "e to the power x", [](double x) { return std::exp(x); },
     Domain::Any, kApproxUlps, [](double, double fx) { return fx; }},
    {OpId::Log, "natural logarithm", [](double x) { return std::log(x); },
     Domain::Positive, kApproxUlps, [](double x, double) { return 1 / x; }},
    {OpId::Tanh, "hyperbolic tangent", [](double x) { return std::tanh(x); },
     Domain::Any, kApproxUlps, [](double, double fx) { return 1 - fx * fx; }},
    {OpId::Sigmoid, "logistic function 1 / (1 + exp(-x))",
     [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, Domain::Any,
     kApproxUlps, [](double, double fx) { return fx * (1 - fx); }},
    {OpId::Erf, "error function", [](double x) { return std::erf(x); },
     Domain::Any, kApproxUlps,
     [](double x, double) { return 2 / std::sqrt(M_PI) * std::exp(-x * x); }},
    {OpId::Rsqrt, "reciprocal square root",
     [](double x) { return x < 0 ? kNaN : 1.0 / std::sqrt(x); },
     Domain::Positive, kApproxUlps,
     [](double, double fx) { return -0.5 * fx * fx * fx; }},
    {OpId::Reciprocal, "1 / x", [](double x) { return 1.0 / x; },
     Domain::NonZero, kApproxUlps, [](double, double fx) { return -fx * fx; }},
    // Steps: an error in x moves the result by a whole step or not at all.
    {OpId::Floor, "round toward -inf", [](double x) { return std::floor(x); },
     Domain::Any, 0, nullptr, true},
    {OpId::Ceil, "round toward +inf", [](double x) { return std::ceil(x); },
     Domain::Any, 0, nullptr, true},
};

OpDef floatUnaryOp(const FloatUnary &u) {
  auto fn = u.fn;
  OpDef op =
      elementwiseOp(u.id, u.summary, 1, kFloat, [fn](const EvalArgs &args) {
        return mapElements<double>(args,
                                   [fn](const double *x) { return fn(x[0]); });
      });
  op.domains = {u.domain};
  op.rounding = Rounding::fixed(u.ulps);
  if (u.steps)
    op.freedoms.openWithin = openWhenMoved(op.eval);
  if (u.slope) {
    op.magnitude = Magnitude::BySlope;
    op.slope = u.slope;
  }
  if (u.id == OpId::Rsqrt || u.id == OpId::Reciprocal) {
    bool rsqrt = u.id == OpId::Rsqrt;
    // Decreasing on each side of zero; a range touching zero reaches +-Inf.
    op.range = [fn, rsqrt](const std::vector<Interval> &x,
                           const std::vector<TensorType> &, const Attrs &) {
      const Interval &a = x[0];
      if (a.lo > 0 || (!rsqrt && a.hi < 0))
        return Interval{fn(a.hi), fn(a.lo), a.mayBeNaN};
      // rsqrt(-0) = 1 / -0 = -Inf; negatives give NaN.
      return Interval{-INFINITY, INFINITY, a.mayBeNaN || (rsqrt && a.lo < 0)};
    };
  } else {
    op.range = monotoneRange(fn); // exp log tanh sigmoid erf floor ceil
  }
  return op;
}

// --- clamp ------------------------------------------------------------------

// min/max rounded to the element type (TOSA's attributes have that type).
std::pair<double, double> clampBounds(const Attrs &attrs, DType t) {
  double lo = attrs.getFloat("min"), hi = attrs.getFloat("max");
  if (isFloat(t))
    return {roundToFloat(t, lo), roundToFloat(t, hi)};
  return {lo, hi};
}

Expected<std::vector<TensorType>> inferClamp(const std::vector<TensorType> &ops,
                                             const Attrs &attrs) {
  CC_ASSIGN(types, inferBroadcastOp(ops, 1, kClampTypes));
  CC_TRY(checkNanMode(attrs));
  if (!attrs.has("min") || !attrs.has("max"))
    return makeError("needs attributes 'min' and 'max'");
  DType t = ops[0].dtype;
  double rawLo = attrs.getFloat("min"), rawHi = attrs.getFloat("max");
  if (std::isnan(rawLo) || std::isnan(rawHi))
    return makeError("min and max must not be NaN");
  if (isInt(t))
    for (double v : {rawLo, rawHi})
      if (v != std::floor(v) || v < double(intMin(t)) || v > double(intMax(t)))
        return makeError("bound " + std::to_string(v) +
                         " is not an integer in the range of " +
                         std::string(dtypeName(t)));
  auto [lo, hi] = clampBounds(attrs, t);
  if (hi < lo)
    return makeError("max (" + std::to_string(hi) + ") is below min (" +
                     std::to_string(lo) + ")");
  return types;
}

Error emitClamp(EmitContext &ctx, const Node &node) {
  DType t = ctx.graph().typeOf(node.operands.at(0)).dtype;
  auto [lo, hi] = clampBounds(node.attrs, t);
  if (ctx.syntaxVersion <= 19) {
    // MLIR 19 has both float (f32) and integer (i64) bounds.
    auto asInt = [](double v) {
      return std::to_string(int64_t(std::clamp(v, -9.0e18, 9.0e18)));
    };
    return emitNanModeOp(ctx, node, "tosa.clamp",
                         "min_fp = " + scalarLiteral(f32, lo) +
                             " : f32, max_fp = " + scalarLiteral(f32, hi) +
                             " : f32, min_int = " + asInt(lo) +
                             " : i64, max_int = " + asInt(hi) + " : i64");
  }
  std::string type(dtypeName(t));
  return emitNanModeOp(ctx, node, "tosa.clamp",
                       "min_val = " + scalarLiteral(t, lo) + " : " + type +
                           ", max_val = " + scalarLiteral(t, hi) + " : " +
                           type);
}

OpDef clampOp() {
  OpDef op;
  op.id = OpId::Clamp;
  op.elementwise = true;
  op.summary = "clamps to [min, max] with TOSA nan_mode";
  op.dtypes = kClampTypes;
  op.attrs = {{"min", AttrKind::Float, std::nullopt,
               "lower bound (an integer for integer inputs)"},
              {"max", AttrKind::Float, std::nullopt,
               "upper bound, >= min (an integer for integer inputs)"},
              nanModeSpec()};
  op.infer = inferClamp;
  op.rounding = Rounding::fixed(0);
  op.intExtremes = IntExtremes::AllOperands; // saturates
  op.freedoms.zeroSign = true;               // a max and a min
  // Inside the bounds x passes through, with its error; at a bound not.
  op.magnitude = Magnitude::BySlope;
  op.slope = [](double x, double fx) { return fx == x ? 1.0 : 0.0; };
  op.eval = [](const EvalArgs &args) {
    auto [lo, hi] = clampBounds(args.attrs(), args.resultTypes.at(0).dtype);
    bool ignore = ignoreNaN(args.attrs());
    return floatOrInt(
        args,
        [=](const double *x) {
          return minNaN(maxNaN(x[0], lo, ignore), hi, ignore);
        },
        [=](const int64_t *x, DType) {
          return std::clamp(x[0], int64_t(lo), int64_t(hi));
        });
  };
  op.emit = emitClamp;
  op.range = [](const std::vector<Interval> &x,
                const std::vector<TensorType> &t, const Attrs &attrs) {
    auto [lo, hi] = clampBounds(attrs, t[0].dtype);
    return Interval{std::min(std::max(x[0].lo, lo), hi),
                    std::max(std::min(x[0].hi, hi), lo), x[0].mayBeNaN};
  };
  op.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &ops) {
    Attrs a = sampleNanMode(rng);
    DType t = ops.empty() ? f32 : ops[0].dtype;
    double lo, hi;
    if (isInt(t)) {
      lo = double(rng.uniformInt(intMin(t), 0));
      hi = double(rng.uniformInt(0, intMax(t)));
    } else if (rng.chance(0.25)) {
      lo = 0, hi = 6; // relu6
    } else {
      lo = roundToFloat(t, rng.uniform(-4, 2));
      hi = roundToFloat(t, lo + rng.uniform(0, 6));
    }
    a.set("min", lo);
    a.set("max", hi);
    return a;
  };
  op.notes = "integers use the integer values of min and max";
  return op;
}

// --- select -----------------------------------------------------------------

OpDef selectOp() {
  // The dtypes are those of the selected values; the condition is i1.
  const std::vector<DType> dtypes = {i1, i8, i16, i32, f32, f16, bf16};
  OpDef op = elementwiseOp(
      OpId::Select, "cond ? a : b, elementwise (broadcasting)", 3, dtypes,
      [](const EvalArgs &args) {
        return floatOrInt(
            args, [](const double *x) { return x[0] != 0 ? x[1] : x[2]; },
            [](const int64_t *x, DType) { return x[0] != 0 ? x[1] : x[2]; }, 1);
      });
  op.infer = [dtypes](const std::vector<TensorType> &ops,
                      const Attrs &) -> Expected<std::vector<TensorType>> {
    CC_TRY(requireArity(ops, 3));
    CC_TRY(requireDType(ops[0], {i1}, "condition"));
    return inferBroadcastOp(ops, 3, dtypes, std::nullopt, 1);
  };
  auto values = elementwiseOperands(3);
  op.example = [](DType d) {
    return std::vector<TensorType>{{i1, {2, 3}}, {d, {2, 3}}, {d, {1, 3}}};
  };
  op.sampleOperands = [values](Rng &rng, DType d, const Shape &hint) {
    auto s = values(rng, d, hint);
    s->types[0].dtype = i1; // the condition
    return s;
  };
  op.rounding = Rounding::fixed(0);
  op.intExtremes = IntExtremes::AllOperands;
  op.magnitude = Magnitude::OfOperands;
  op.range = hullRange(1);
  op.operandDoc = "cond (i1), a, b";
  op.notes = "broadcast";
  return op;
}

} // namespace

void addElementwiseOps(std::vector<OpDef> &ops) {
  ops.push_back(addOrSub(true));
  ops.push_back(addOrSub(false));
  ops.push_back(mulOp());
  ops.push_back(intdivOp());
  ops.push_back(maxOrMin(true));
  ops.push_back(maxOrMin(false));
  ops.push_back(powOp());
  ops.push_back(absOp());
  ops.push_back(negateOp());
  for (const FloatUnary &u : kFloatUnary)
    ops.push_back(floatUnaryOp(u));
  ops.push_back(clampOp());
  ops.push_back(selectOp());
}

} // namespace cc
