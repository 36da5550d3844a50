// const, cast, rescale (TOSA 1.0).
#include "core/ops/Families.h"
#include "core/ops/Indexing.h"

#include <algorithm>
#include <cmath>

namespace cc {

namespace {

const std::vector<DType> kAll = {DType::f32, DType::f16, DType::bf16, DType::i8,
                                 DType::i16, DType::i32, DType::i1};
const std::vector<DType> kRescaleTypes = {DType::i8, DType::i16, DType::i32};

// The CAST pairs of TOSA 1.0 (PRO-INT, PRO-FP, EXT-BF16).
bool castAllowed(DType from, DType to) {
  if (from == to)
    return false;
  if (isBool(from))
    return isInt(to);
  if (isInt(from))
    return true;
  if (from == DType::f32)
    return !isBool(to);
  return isInt(to) ? !isBool(to) : to == DType::f32; // f16, bf16
}

Expected<std::vector<Tensor>> evalCast(const EvalArgs &a) {
  const Tensor &in = a.in(0);
  Tensor out = a.makeResult();
  DType to = a.resultTypes[0].dtype;
  for (int64_t i = 0; i < in.size(); ++i) {
    if (isInt(in.dtype())) {
      int64_t v = in.getI(i);
      if (isFloat(to))
        out.setF(i, roundToFloat(to, double(v)));
      else
        out.setI(i, isBool(to) ? v != 0 : v); // narrowing wraps
      continue;
    }
    double v = in.getF(i);
    if (isFloat(to)) {
      out.setF(i, roundToFloat(to, v));
      continue;
    }
    if (std::isnan(v))
      return undefinedError("cast of NaN to " + std::string(dtypeName(to)) +
                            " is undefined");
    double r =
        std::clamp(std::nearbyint(v), double(intMin(to)), double(intMax(to)));
    out.setI(i, int64_t(r));
  }
  return std::vector<Tensor>{std::move(out)};
}

// --- rescale ---------------------------------------------------------------

struct RescaleParams {
  DType in, out;
  bool scale32, perChannel, inUnsigned, outUnsigned;
  std::string rounding;
  int64_t inZp, outZp, channels;
  std::vector<int64_t> multiplier, shift;
};

RescaleParams rescaleParams(DType in, const Shape &shape, const Attrs &at) {
  RescaleParams p{in,
                  at.getType("to"),
                  at.getBool("scale32"),
                  at.getBool("per_channel"),
                  at.getBool("input_unsigned"),
                  at.getBool("output_unsigned"),
                  at.getString("rounding_mode"),
                  at.getInt("input_zp"),
                  at.getInt("output_zp"),
                  1,
                  at.getInts("multiplier"),
                  at.getInts("shift")};
  if (p.perChannel && !shape.empty())
    p.channels = shape.back();
  return p;
}

// Range of a zero point: the (un)signed range of its type.
Error checkZp(int64_t zp, DType t, bool isUnsigned, const char *name) {
  int64_t lo = isUnsigned ? 0 : intMin(t);
  int64_t hi = isUnsigned ? (int64_t(1) << bitWidth(t)) - 1 : intMax(t);
  // TOSA: only 8-bit and unsigned 16-bit values may have a zero point.
  bool mayBeNonZero = t == DType::i8 || (t == DType::i16 && isUnsigned);
  if (!mayBeNonZero && zp != 0)
    return makeError(std::string(name) + " must be 0 for " +
                     (isUnsigned ? "unsigned " : "") +
                     std::string(dtypeName(t)) + ", got " + std::to_string(zp));
  if (t == DType::i16 && zp != 0 && zp != 32768)
    return makeError(std::string(name) +
                     " of unsigned i16 must be 0 or 32768, got " +
                     std::to_string(zp));
  if (zp < lo || zp > hi)
    return makeError(std::string(name) + " " + std::to_string(zp) +
                     " is out of range [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]");
  return Error();
}

Expected<std::vector<TensorType>>
inferRescale(const std::vector<TensorType> &ops, const Attrs &at) {
  RescaleParams p = rescaleParams(ops[0].dtype, ops[0].shape, at);
  if (std::find(kRescaleTypes.begin(), kRescaleTypes.end(), p.out) ==
      kRescaleTypes.end())
    return makeError("result type 'to' must be i8, i16 or i32, got " +
                     std::string(dtypeName(p.out)));
  if (p.rounding != "SINGLE_ROUND" && p.rounding != "DOUBLE_ROUND" &&
      p.rounding != "INEXACT_ROUND")
    return makeError("rounding_mode must be SINGLE_ROUND, DOUBLE_ROUND or "
                     "INEXACT_ROUND, got '" +
                     p.rounding + "'");
  if (!p.scale32 && p.rounding == "DOUBLE_ROUND")
    return makeError("DOUBLE_ROUND requires scale32");
  if (p.perChannel && ops[0].rank() == 0)
    return makeError("per_channel needs an input of rank >= 1");
  if (p.inUnsigned && p.outUnsigned)
    return makeError("input_unsigned and output_unsigned cannot both be set");
  if (p.inUnsigned && (p.in == DType::i32 || p.out == DType::i32))
    return makeError("input_unsigned is not allowed with i32 input or output");
  if (p.outUnsigned && (p.in == DType::i32 || p.out == DType::i32))
    return makeError("output_unsigned is not allowed with i32 input or output");
  size_t n = size_t(p.channels);
  if (p.multiplier.size() != n || p.shift.size() != n)
    return makeError("multiplier and shift need " + std::to_string(n) +
                     " value(s), got " + std::to_string(p.multiplier.size()) +
                     " and " + std::to_string(p.shift.size()));
  DType multType = p.scale32 ? DType::i32 : DType::i16;
  for (size_t c = 0; c < n; ++c) {
    if (p.multiplier[c] < intMin(multType) ||
        p.multiplier[c] > intMax(multType))
      return makeError("multiplier " + std::to_string(p.multiplier[c]) +
                       " does not fit " + std::string(dtypeName(multType)));
    if (p.shift[c] < intMin(DType::i8) || p.shift[c] > intMax(DType::i8))
      return makeError("shift " + std::to_string(p.shift[c]) +
                       " does not fit i8");
  }
  CC_TRY(checkZp(p.inZp, p.in, p.inUnsigned, "input_zp"));
  CC_TRY(checkZp(p.outZp, p.out, p.outUnsigned, "output_zp"));
  return oneType({p.out, ops[0].shape});
}

Expected<std::vector<Tensor>> evalRescale(const EvalArgs &a) {
  const Tensor &in = a.in(0);
  RescaleParams p = rescaleParams(in.dtype(), in.shape(), a.attrs());
  Tensor out = a.makeResult();
  int64_t inMask = (int64_t(1) << bitWidth(p.in)) - 1;
  int64_t lo = p.outUnsigned ? 0 : intMin(p.out);
  int64_t hi =
      p.outUnsigned ? (int64_t(1) << bitWidth(p.out)) - 1 : intMax(p.out);
  for (int64_t i = 0; i < in.size(); ++i) {
    int64_t v = in.getI(i);
    if (p.inUnsigned)
      v &= inMask; // zero extension
    v -= p.inZp;
    size_t c = p.perChannel ? size_t(i % p.channels) : 0;
    // The pseudocode's apply_scale (with its REQUIREs) for every mode.
    auto scaled = applyScale(v, p.multiplier[c], p.shift[c], p.scale32,
                             p.rounding == "DOUBLE_ROUND");
    if (!scaled)
      return scaled.error();
    int64_t r = *scaled;
    if (p.rounding == "INEXACT_ROUND") {
      // The precision requirement allows any result in [out_ref_min,
      // out_ref_max]; it is defined only where that range is one value.
      double ref =
          double(v) * double(p.multiplier[c]) * std::exp2(-double(p.shift[c]));
      double bound =
          0.5 + (3 * std::fabs(ref) + std::fabs(ref + double(p.outZp))) *
                    std::exp2(-24.0);
      double lo64 = std::clamp(std::ceil(ref - bound + double(p.outZp)),
                               double(lo), double(hi));
      double hi64 = std::clamp(std::floor(ref + bound + double(p.outZp)),
                               double(lo), double(hi));
      if (lo64 != hi64)
        return undefinedError("INEXACT_ROUND allows any result in [" +
                              std::to_string(int64_t(lo64)) + ", " +
                              std::to_string(int64_t(hi64)) + "]");
      out.setI(i, int64_t(lo64));
      continue;
    }
    r += p.outZp;
    if (r < intMin(DType::i32) || r > intMax(DType::i32))
      return undefinedError("rescale output_zp addition overflows i32");
    out.setI(i, std::clamp(r, lo, hi)); // unsigned results wrap into storage
  }
  return std::vector<Tensor>{std::move(out)};
}

Error emitRescale(EmitContext &ctx, const Node &node) {
  DType in = ctx.graph().typeOf(node.operands[0]).dtype;
  RescaleParams p =
      rescaleParams(in, ctx.graph().typeOf(node.operands[0]).shape, node.attrs);
  auto flag = [](bool b) { return b ? "true" : "false"; };
  if (ctx.syntaxVersion < 20) {
    if (p.inUnsigned || p.outUnsigned || p.rounding == "INEXACT_ROUND")
      return unsupported("rescale with unsigned values or INEXACT_ROUND needs "
                         "MLIR 20 or newer");
    emitTosa(ctx, node, "rescale", {},
             std::string("double_round = ") +
                 flag(p.rounding == "DOUBLE_ROUND") +
                 ", input_zp = " + std::to_string(p.inZp) +
                 " : i32, multiplier = " + denseArray("i32", p.multiplier) +
                 ", output_zp = " + std::to_string(p.outZp) +
                 " : i32, per_channel = " + flag(p.perChannel) +
                 ", scale32 = " + flag(p.scale32) +
                 ", shift = " + denseArray("i8", p.shift));
    return Error();
  }
  auto vec = [&](DType t, const std::vector<int64_t> &v) {
    Tensor c(t, {int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i)
      c.setI(int64_t(i), v[i]);
    return std::make_pair(ctx.constant(c), c.type().mlir());
  };
  DType multType = p.scale32 ? DType::i32 : DType::i16;
  auto mult = vec(multType, p.multiplier);
  auto shift = vec(DType::i8, p.shift);
  auto inZp = vec(p.in, {p.inZp});
  auto outZp = vec(p.out, {p.outZp});
  emitTosa(ctx, node, "rescale", {mult, shift, inZp, outZp},
           std::string("input_unsigned = ") + flag(p.inUnsigned) +
               ", output_unsigned = " + flag(p.outUnsigned) +
               ", per_channel = " + flag(p.perChannel) +
               ", rounding_mode = #tosa.rounding_mode<" + p.rounding +
               ">, scale32 = " + flag(p.scale32));
  return Error();
}

Attrs sampleRescale(Rng &rng, const std::vector<TensorType> &ops) {
  DType in = ops[0].dtype;
  Attrs at;
  DType out = rng.pick(kRescaleTypes);
  bool scale32 = rng.chance(0.75);
  bool perChannel = ops[0].rank() > 0 && rng.chance(0.3);
  bool narrow = in != DType::i32 && out != DType::i32;
  bool inUnsigned = narrow && rng.chance(0.15);
  bool outUnsigned = narrow && !inUnsigned && rng.chance(0.15);
  auto zpFor = [&](DType t, bool uns) -> int64_t {
    if (t == DType::i8)
      return uns ? rng.uniformInt(0, 255) : rng.uniformInt(-128, 127);
    return t == DType::i16 && uns && rng.chance(0.5) ? 32768 : 0;
  };
  // Shift large enough that the REQUIREs on value and result hold.
  int64_t minShift = bitWidth(in) + 2;
  int64_t channels = perChannel ? ops[0].shape.back() : 1;
  std::vector<int64_t> mult, shift;
  for (int64_t c = 0; c < channels; ++c) {
    mult.push_back(scale32 ? rng.uniformInt(1, intMax(DType::i32))
                           : rng.uniformInt(1, intMax(DType::i16)));
    shift.push_back(
        rng.uniformInt(minShift, std::min<int64_t>(62, minShift + 28)));
  }
  const std::vector<std::string> modes = {"SINGLE_ROUND", "DOUBLE_ROUND"};
  at.set("to", out);
  at.set("multiplier", mult);
  at.set("shift", shift);
  at.set("input_zp", zpFor(in, inUnsigned));
  at.set("output_zp", zpFor(out, outUnsigned));
  at.set("scale32", scale32);
  at.set("rounding_mode", scale32 ? rng.pick(modes) : modes[0]);
  at.set("per_channel", perChannel);
  at.set("input_unsigned", inUnsigned);
  at.set("output_unsigned", outUnsigned);
  return at;
}

Tensor sampleConstTensor(Rng &rng) {
  Shape shape(size_t(rng.uniformInt(1, 3)));
  for (int64_t &d : shape)
    d = rng.uniformInt(1, 4);
  Tensor t(rng.pick(kAll), shape);
  for (int64_t i = 0; i < t.size(); ++i) {
    if (isFloat(t.dtype()))
      t.setF(i, rng.uniform(-4, 4));
    else
      t.setI(i, rng.uniformInt(isBool(t.dtype()) ? 0 : -100,
                               isBool(t.dtype()) ? 1 : 100));
  }
  return t;
}

} // namespace

void addConversionOps(std::vector<OpDef> &ops) {
  OpDef c;
  c.id = OpId::Const;
  c.summary = "a constant tensor (tosa.const)";
  c.minOperands = c.maxOperands = 0;
  c.dtypes = kAll;
  c.rounding = Rounding::fixed(0);
  c.attrs = {{"value", AttrKind::Tensor, std::nullopt, "the constant"}};
  c.infer = [](const std::vector<TensorType> &,
               const Attrs &at) -> Expected<std::vector<TensorType>> {
    const Tensor &v = at.getTensor("value");
    if (std::find(kAll.begin(), kAll.end(), v.dtype()) == kAll.end())
      return makeError("constant dtype " + std::string(dtypeName(v.dtype())) +
                       " is not a graph type");
    return oneType(v.type());
  };
  // The actual extremes of the values.
  c.range = [](const std::vector<Interval> &, const std::vector<TensorType> &,
               const Attrs &at) {
    const Tensor &v = at.getTensor("value");
    Interval r{INFINITY, -INFINITY, false};
    for (int64_t i = 0; i < v.size(); ++i) {
      double x = isFloat(v.dtype()) ? v.getF(i) : double(v.getI(i));
      if (std::isnan(x))
        r.mayBeNaN = true;
      else
        r.lo = std::min(r.lo, x), r.hi = std::max(r.hi, x);
    }
    return r;
  };
  c.eval = [](const EvalArgs &a) -> Expected<std::vector<Tensor>> {
    const Tensor &v = a.attrs().getTensor("value");
    Tensor out = a.makeResult();
    return std::vector<Tensor>{
        out.dtype() == v.dtype() ? v : v.convertTo(out.dtype())};
  };
  c.emit = [](EmitContext &ctx, const Node &node) -> Error {
    const char *attr = ctx.syntaxVersion >= 21 ? "values" : "value";
    const Tensor &v = node.attrs.getTensor("value");
    ctx.line(ctx.name(node.results[0]) + " = \"tosa.const\"() <{" + attr +
             " = " + denseLiteral(v) + "}> : () -> " + v.type().mlir());
    return Error();
  };
  c.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &) {
    Attrs at;
    at.set("value", sampleConstTensor(rng));
    return at;
  };
  ops.push_back(std::move(c));

  OpDef cast;
  cast.id = OpId::Cast;
  cast.elementwise = true;
  cast.summary = "converts the element type (TOSA CAST: round to nearest even, "
                 "saturating float-to-int)";
  cast.dtypes = kAll;
  cast.rounding = Rounding::fixed(1); // rounds once to the target dtype
  cast.intExtremes = IntExtremes::AllOperands; // wraps or saturates
  cast.magnitude = Magnitude::OfOperands;
  cast.attrs = {{"to", AttrKind::Type, std::nullopt, "result dtype"}};
  cast.infer = [](const std::vector<TensorType> &ops,
                  const Attrs &at) -> Expected<std::vector<TensorType>> {
    DType to = at.getType("to");
    if (!castAllowed(ops[0].dtype, to))
      return makeError("cast from " + std::string(dtypeName(ops[0].dtype)) +
                       " to " + std::string(dtypeName(to)) +
                       " is not allowed by TOSA 1.0");
    return oneType({to, ops[0].shape});
  };
  cast.eval = evalCast;
  // A cast to an integer rounds to a step; one to a float rounds within
  // the tolerance the oracle already allows.
  cast.freedoms.openWithin =
      [moved = openWhenMoved(evalCast)](const EvalArgs &args,
                                        const std::vector<Tensor> &bound) {
        return isFloat(args.resultTypes[0].dtype) ? std::vector<uint8_t>()
                                                  : moved(args, bound);
      };
  cast.emit = [](EmitContext &ctx, const Node &node) -> Error {
    emitTosa(ctx, node, "cast", {}, "");
    return Error();
  };
  cast.range = [](const std::vector<Interval> &x,
                  const std::vector<TensorType> &t, const Attrs &at) {
    DType from = t[0].dtype, to = at.getType("to");
    const Interval &a = x[0];
    if (isBool(to))
      return Interval{0, 1, false};
    if (isFloat(to)) // rounding is monotone
      return Interval{roundToFloat(to, a.lo), roundToFloat(to, a.hi),
                      a.mayBeNaN};
    double lo = double(intMin(to)), hi = double(intMax(to));
    if (isFloat(from)) {
      if (a.mayBeNaN) // undefined: shown as a range beyond the dtype
        return Interval{};
      return Interval{std::clamp(std::nearbyint(a.lo), lo, hi),
                      std::clamp(std::nearbyint(a.hi), lo, hi), false};
    }
    // Narrowing wraps: the range survives only when it fits.
    return a.lo >= lo && a.hi <= hi ? a : Interval{lo, hi, false};
  };
  // NaN cast to an integer is undefined: float sources are leaves (finite).
  cast.sampleOperands = [](Rng &, DType t, const Shape &hint) {
    return std::optional<OperandSample>(
        OperandSample{{{t, hint}}, isFloat(t) ? 1u : 0u});
  };
  cast.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &ops) {
    std::vector<DType> targets;
    for (DType t : kAll)
      if (castAllowed(ops[0].dtype, t))
        targets.push_back(t);
    Attrs at;
    at.set("to", rng.pick(targets));
    return at;
  };
  cast.notes = "TOSA CAST rules: round to nearest even, saturation, bool";
  ops.push_back(std::move(cast));

  OpDef r;
  r.id = OpId::Rescale;
  r.summary = "integer requantization: (x - input_zp) * multiplier >> shift + "
              "output_zp, saturated (TOSA RESCALE)";
  r.dtypes = kRescaleTypes;
  r.rounding = Rounding::fixed(0); // integers only
  r.attrs = {
      {"to", AttrKind::Type, std::nullopt, "result dtype (i8, i16, i32)"},
      {"multiplier", AttrKind::Ints, std::nullopt, "one, or one per channel"},
      {"shift", AttrKind::Ints, std::nullopt, "one, or one per channel"},
      {"input_zp", AttrKind::Int, int64_t(0), "input zero point"},
      {"output_zp", AttrKind::Int, int64_t(0), "output zero point"},
      {"scale32", AttrKind::Bool, true, "32-bit multiplier (else 16-bit)"},
      {"rounding_mode", AttrKind::String, std::string("SINGLE_ROUND"),
       "SINGLE_ROUND, DOUBLE_ROUND or INEXACT_ROUND"},
      {"per_channel", AttrKind::Bool, false, "per last-dim channel scales"},
      {"input_unsigned", AttrKind::Bool, false, "input is unsigned"},
      {"output_unsigned", AttrKind::Bool, false, "output is unsigned"}};
  r.infer = inferRescale;
  r.eval = evalRescale;
  r.emit = emitRescale;
  r.sampleAttrs = sampleRescale;
  r.notes = "per_channel: one multiplier and shift per last-dim channel; "
            "INEXACT_ROUND is defined only where its error bound admits a "
            "single integer (not at ties)";
  ops.push_back(std::move(r));
}

} // namespace cc
