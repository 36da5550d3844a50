// Rewrite shapes: canonicalization patterns and folders fire on op pairs
// and constants that random ops reach only by chance (a cast undone, x * 0,
// select(true, a, b), cmp(0 - x, 0), clamp(clamp x), a widened multiply's
// high half). Each shape emits one such sequence on a value, defined for
// every input; the scalar op generator draws them like ops.
#include "generators/ProgramInternal.h"

#include <cmath>

namespace cc::prog {

namespace {

bool plainInt(Elt e) { return isInt(e) && e != Elt::index; }

// ext then trunc (or the reverse), an int through a float, a float through
// another float, a bitcast and back.
Value roundTrip(Gen &g, const Value &a) {
  const Elt e = a.type.elt;
  std::vector<Elt> via;
  for (Elt o : {Elt::i1, Elt::i8, Elt::i16, Elt::i32, Elt::i64, Elt::f16,
                Elt::bf16, Elt::f32, Elt::f64})
    if (o != e && isFloat(o) == isFloat(e))
      via.push_back(o);
  if (a.type.kind == Kind::Scalar && e != Elt::index && isInt(e))
    via.push_back(Elt::index);
  if (e == Elt::index)
    via = {Elt::i32, Elt::i64};
  if (plainInt(e) && g.rng.chance(0.2))
    via = {Elt::f32, Elt::f64};
  if (g.rng.chance(0.25) && e != Elt::i1 && e != Elt::i8 && e != Elt::index) {
    std::vector<Elt> same;
    for (Elt o : {Elt::i16, Elt::i32, Elt::i64, Elt::f16, Elt::bf16, Elt::f32,
                  Elt::f64})
      if (widthOf(o) == widthOf(e) && o != e)
        same.push_back(o);
    Value b = castOp(g, "arith.bitcast", a, g.rng.pick(same));
    return castOp(g, "arith.bitcast", b, e);
  }
  return g.convert(g.convert(a, g.rng.pick(via)), e);
}

// An integer op with its identity or absorbing constant, or with `a` itself.
Value intConstantOperand(Gen &g, const Value &a) {
  const Type t = a.type;
  const int64_t smin = signedMin(t.elt), smax = -(smin + 1);
  // The constant may go first where the op commutes.
  struct WithConst {
    const char *op;
    int64_t value;
    bool commutes;
  };
  static const WithConst withConst[] = {
      {"arith.addi", 0, true},   {"arith.subi", 0, false},
      {"arith.muli", 1, true},   {"arith.muli", 0, true},
      {"arith.muli", -1, true},  {"arith.andi", -1, true},
      {"arith.andi", 0, true},   {"arith.ori", 0, true},
      {"arith.ori", -1, true},   {"arith.xori", 0, true},
      {"arith.xori", -1, true},  {"arith.divsi", 1, false},
      {"arith.divui", 1, false}, {"arith.shli", 0, false},
      {"arith.shrsi", 0, false}, {"arith.maxui", 0, true},
      {"arith.minui", -1, true}};
  int pick = g.rng.uniformInt(0, 20);
  if (pick < 17) {
    auto [op, v, commutes] = withConst[pick];
    Value c = g.intConst(t, v);
    return commutes && g.rng.chance(0.5) ? binary(g, op, c, a)
                                         : binary(g, op, a, c);
  }
  if (pick == 17)
    return binary(g, "arith.maxsi", a, g.intConst(t, smin));
  if (pick == 18)
    return binary(g, "arith.minsi", a, g.intConst(t, smax));
  static const char *const self[] = {"arith.subi", "arith.xori", "arith.andi",
                                     "arith.ori", "arith.maxsi"};
  return binary(g, self[g.rng.uniformInt(0, 4)], a, a);
}

// A float op with ±0, ±1, ±inf or NaN, or with `a` itself.
Value floatConstantOperand(Gen &g, const Value &a) {
  const Type t = a.type;
  const double inf = INFINITY, nan = NAN;
  struct WithConst {
    const char *op;
    double value;
    bool commutes;
  };
  static const WithConst withConst[] = {
      {"arith.addf", -0.0, true},    {"arith.addf", 0.0, true},
      {"arith.subf", 0.0, false},    {"arith.subf", -0.0, false},
      {"arith.mulf", 1.0, true},     {"arith.mulf", -1.0, true},
      {"arith.mulf", 0.0, true},     {"arith.divf", 1.0, false},
      {"arith.divf", -1.0, false},   {"arith.maxnumf", nan, true},
      {"arith.minnumf", nan, true},  {"arith.maximumf", -inf, true},
      {"arith.minimumf", inf, true}, {"arith.maximumf", nan, true},
      {"arith.minnumf", inf, true},  {"math.copysign", 1.0, false}};
  int pick = g.rng.uniformInt(0, 17);
  if (pick < 16) {
    auto [op, v, commutes] = withConst[pick];
    Value c = g.constant(t, floatLiteral(t.elt, v));
    bool first = g.rng.chance(0.3) && commutes;
    return first ? binary(g, op, c, a) : binary(g, op, a, c);
  }
  return binary(g, pick == 16 ? "arith.subf" : "arith.maxnumf", a, a);
}

Value constantOperand(Gen &g, const Value &a) {
  if (isFloat(a.type.elt))
    return floatConstantOperand(g, a);
  if (a.type.elt == Elt::i1) {
    const char *op = g.rng.pick(
        std::vector<const char *>{"arith.andi", "arith.ori", "arith.xori"});
    return binary(g, op, a, g.intConst(a.type, g.rng.uniformInt(0, 1)));
  }
  if (a.type.elt == Elt::index && g.rng.chance(0.5)) {
    const char *op = g.rng.pick(std::vector<const char *>{
        "index.add", "index.mul", "index.and", "index.or", "index.maxs"});
    return indexBinary(g, op, a, g.intConst(a.type, g.rng.uniformInt(-1, 1)));
  }
  return intConstantOperand(g, a);
}

// select with a constant condition, or of one value twice.
Value selectConstant(Gen &g, const Value &a) {
  Value b = g.rng.chance(0.25) ? a : g.operand(a.type);
  Value c = g.intConst(a.type.with(Elt::i1), g.rng.uniformInt(0, 1));
  return select(g, c, a, b);
}

// 0 - x (or -x) compared with 0, either side.
Value negateCompare(Gen &g, const Value &a) {
  const Type t = a.type;
  const char *pred = kCmpI[g.rng.uniformInt(0, 9)];
  if (isFloat(t.elt)) {
    Value n = g.def(t, "arith.negf " + g.use(a) + " : " + t.str());
    Value z = g.constant(t, floatLiteral(t.elt, 0.0));
    return cmpf(g, kCmpF[g.rng.uniformInt(0, 15)], n, z);
  }
  Value z = g.intConst(t, 0);
  bool swap = g.rng.chance(0.3);
  if (t.elt == Elt::index && g.rng.chance(0.5)) {
    Value n = indexBinary(g, "index.sub", z, a);
    return g.def(t.with(Elt::i1), "index.cmp " + std::string(pred) + "(" +
                                      g.use(swap ? z : n) + ", " +
                                      g.use(swap ? n : z) + ")");
  }
  Value n = binary(g, "arith.subi", z, a);
  return swap ? cmpi(g, pred, z, n) : cmpi(g, pred, n, z);
}

// One op applied twice: a unary op, or a min/max (a clamp) with constants.
Value repeat(Gen &g, const Value &a) {
  const Type t = a.type;
  if (isFloat(t.elt) && g.rng.chance(0.5)) {
    const char *op = g.rng.pick(
        std::vector<const char *>{"arith.negf", "math.absf", "math.floor",
                                  "math.ceil", "math.trunc", "math.roundeven"});
    auto once = [&](const Value &v) {
      return g.def(t, std::string(op) + " " + g.use(v) + " : " + t.str());
    };
    return once(once(a));
  }
  const bool fl = isFloat(t.elt);
  auto bound = [&](int64_t v) {
    return fl ? g.constant(t, floatLiteral(t.elt, double(v)))
              : g.intConst(t, v);
  };
  const char *mx = fl ? (g.rng.chance(0.5) ? "arith.maxnumf" : "arith.maximumf")
                      : (g.rng.chance(0.5) ? "arith.maxsi" : "arith.maxui");
  const char *mn = fl ? (g.rng.chance(0.5) ? "arith.minnumf" : "arith.minimumf")
                      : (g.rng.chance(0.5) ? "arith.minsi" : "arith.minui");
  int64_t lo = g.rng.uniformInt(-3, 1), hi = g.rng.uniformInt(0, 4);
  if (t.elt == Elt::i1)
    lo = 0, hi = 1;
  Value once = binary(g, mn, binary(g, mx, a, bound(lo)), bound(hi));
  if (g.rng.chance(0.5))
    return binary(g, mn, binary(g, mx, once, bound(lo)), bound(hi));
  int64_t lo2 = g.rng.uniformInt(-3, 1), hi2 = g.rng.uniformInt(0, 4);
  if (t.elt == Elt::i1)
    lo2 = 0, hi2 = 1;
  return binary(g, mn, binary(g, mx, once, bound(lo2)), bound(hi2));
}

// The high half of a product widened to twice the width: the form that
// canonicalization turns into arith.mulsi_extended / mului_extended.
Value mulHigh(Gen &g, const Value &a) {
  const Elt e = a.type.elt;
  if (e != Elt::i8 && e != Elt::i16 && e != Elt::i32)
    return constantOperand(g, a);
  const Elt wide = e == Elt::i8    ? Elt::i16
                   : e == Elt::i16 ? Elt::i32
                                   : Elt::i64;
  bool sign = g.rng.chance(0.5);
  const char *ext = sign ? "arith.extsi" : "arith.extui";
  Value x = castOp(g, ext, a, wide),
        y = castOp(g, ext, g.operand(a.type), wide);
  Value p = binary(g, "arith.muli", x, y);
  Value h = binary(g, sign && g.rng.chance(0.5) ? "arith.shrsi" : "arith.shrui",
                   p, g.intConst(p.type, widthOf(e)));
  return castOp(g, "arith.trunci", h, e);
}

} // namespace

Value applyShape(Gen &g, const std::string &shape, const Value &a) {
  ++g.shapes[shape];
  if (shape == "shape.round-trip")
    return roundTrip(g, a);
  if (shape == "shape.constant-operand")
    return constantOperand(g, a);
  if (shape == "shape.select-constant")
    return selectConstant(g, a);
  if (shape == "shape.negate-compare")
    return negateCompare(g, a);
  if (shape == "shape.repeat")
    return repeat(g, a);
  return mulHigh(g, a);
}

} // namespace cc::prog
