// The Z3 encoding of TOSA 1.0's elementwise ops and the dispatch of every
// TOSA op: one entry per op in encodeTosa's table; data movement and
// reductions are in EncodeTosaMovement.cpp, the compute kernels in
// EncodeTosaKernels.cpp, what TOSA leaves open in EncodeTosaFreedoms.cpp.
#include "smt/EncodeTosa.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace cc::smt::detail {

using namespace mlir;

bool propagatesNaN(Operation *op) {
  Attribute a = op->getAttr("nan_mode");
  std::string t;
  llvm::raw_string_ostream os(t);
  if (a)
    os << a;
  return t.find("IGNORE") == std::string::npos;
}

namespace tosaops {

// Zero-result ops (none is encoded) have no result type.
Tosa::Tosa(Encoder &e, Operation *op)
    : e(e), c(e.c), op(op), n(op->getName().stripDialect().str()),
      rt(op->getNumResults() ? op->getResult(0).getType() : Type()),
      elt(rt ? getElementTypeOrSelf(rt) : Type()),
      inElt(op->getNumOperands()
                ? getElementTypeOrSelf(op->getOperand(0).getType())
                : elt),
      fl(inElt && Encoder::isFloat(inElt)), ins(e.operandsOf(op)) {}

z3::expr Tosa::anyP(const Exprs &p) {
  z3::expr r = c.bool_val(false);
  for (const z3::expr &x : p)
    r = r || x;
  return r;
}

void Tosa::ew(std::vector<SVal> xs, std::function<z3::expr(const Exprs &)> f) {
  set(e.elementwise(
      xs, [&](const Exprs &v, const Exprs &p) { return Elem{f(v), anyP(p)}; }));
}

void Tosa::bin(std::function<z3::expr(const z3::expr &, const z3::expr &)> f) {
  ew({ins[0], ins[1]}, [&](const Exprs &v) { return f(v[0], v[1]); });
}

void Tosa::un(std::function<z3::expr(const z3::expr &)> f) {
  ew({ins[0]}, [&](const Exprs &v) { return f(v[0]); });
}

void Tosa::ewRequire(std::vector<SVal> xs,
                     std::function<Elem(const Exprs &)> f) {
  set(e.elementwise(xs, [&](const Exprs &v, const Exprs &p) {
    auto [r, fails] = f(v);
    return Elem{r, anyP(p) || fails};
  }));
}

bool Tosa::isZeroConst(const SVal &s) {
  for (const z3::expr &x : s.v) {
    z3::expr y = x.simplify();
    uint64_t u;
    if (!(y.is_numeral_u64(u) && u == 0))
      return false;
  }
  return true;
}

z3::expr Tosa::isMin(const z3::expr &a) {
  unsigned w = a.get_sort().bv_size();
  return a == c.bv_val(uint64_t(1) << (w - 1), w);
}

int64_t Tosa::intAttr(const char *name) {
  auto a = op->getAttrOfType<IntegerAttr>(name);
  if (!a)
    unsupported("tosa." + n + " without " + name);
  return a.getInt();
}

std::vector<int64_t> Tosa::shapeOperand(unsigned i) {
  std::vector<int64_t> s;
  for (const z3::expr &x : ins[i].v)
    s.push_back(e.concreteIndex(x));
  return s;
}

void Tosa::gather(
    std::vector<int64_t> shape,
    std::function<std::vector<int64_t>(std::vector<int64_t>)> src) {
  const SVal &x = ins[0];
  SVal r;
  r.shape = shape;
  for (int64_t i = 0; i < product(shape); ++i) {
    auto s = src(unflatten(i, shape));
    for (size_t k = 0; k < s.size(); ++k)
      if (s[k] < 0 || s[k] >= x.shape[k]) {
        e.ub = c.bool_val(true);
        s[k] = 0;
      }
    int64_t j = flatten(s, x.shape);
    r.v.push_back(x.v[j]);
    r.p.push_back(x.p[j]);
  }
  set(r);
}

namespace {

// ---- elementwise ------------------------------------------------------------

void constShape(Tosa &t, tosa::ConstShapeOp op) {
  auto d = cast<DenseElementsAttr>(op->getAttr("values"));
  SVal r;
  for (APInt v : d.getValues<APInt>()) {
    r.v.push_back(t.c.bv_val(uint64_t(v.getSExtValue()), 64));
    r.p.push_back(t.c.bool_val(false));
  }
  r.shape = {int64_t(r.v.size())};
  t.set(r);
}

void addSub(Tosa &t, bool add) {
  if (t.fl)
    return t.bin([&](auto &a, auto &b) {
      return add ? t.e.fadd(a, b) : t.e.fsub(a, b);
    });
  t.ewRequire({t.ins[0], t.ins[1]}, [&](const Exprs &v) {
    z3::expr r = add ? v[0] + v[1] : v[0] - v[1];
    z3::expr wa = z3::sext(v[0], 1), wb = z3::sext(v[1], 1);
    return Elem{r, z3::sext(r, 1) != (add ? wa + wb : wa - wb)};
  });
}

// `x` sign-extended (or truncated) to `w` bits.
z3::expr widen(const z3::expr &x, unsigned w) {
  unsigned xw = x.get_sort().bv_size();
  return xw < w ? z3::sext(x, w - xw) : xw > w ? x.extract(w - 1, 0) : x;
}

void mul(Tosa &t) {
  Encoder &e = t.e;
  if (t.fl || t.isZeroConst(t.ins[2]))
    return t.bin([&](auto &a, auto &b) {
      if (t.fl)
        return e.fmul(a, b);
      // i8 and i16 products are i32 (each operand widened from its own
      // width: a rewrite's intermediate IR may mix them).
      unsigned rw = t.elt.getIntOrFloatBitWidth();
      return widen(a, rw) * widen(b, rw);
    });
  // i32 with a shift: the 64-bit product, rounded and shifted, must fit.
  int64_t shift = e.concreteIndex(z3::sext(t.ins[2].v[0], 56));
  t.bin([&](auto &a, auto &b) {
    unsigned w = t.elt.getIntOrFloatBitWidth();
    z3::expr prod = widen(a, 64) * widen(b, 64);
    if (shift > 0)
      prod = z3::ashr(prod + t.c.bv_val(uint64_t(1) << (shift - 1), 64),
                      t.c.bv_val(uint64_t(shift), 64));
    z3::expr r = prod.extract(w - 1, 0);
    e.ub = e.ub || z3::sext(r, 64 - w) != prod;
    return r;
  });
}

void maxMin(Tosa &t, bool mx) {
  bool prop = propagatesNaN(t.op);
  t.bin([&](auto &a, auto &b) {
    return t.fl ? t.e.fmaxmin(a, b, mx, prop) : imaxmin(a, b, mx, true);
  });
}

void intdiv(Tosa &t) {
  t.ew({t.ins[0], t.ins[1]}, [&](const Exprs &v) {
    // A zero divisor and INT_MIN / -1 are undefined (as the reference).
    unsigned w = v[1].get_sort().bv_size();
    t.e.ub = t.e.ub || v[1] == t.c.bv_val(0, w) ||
             (v[0] == t.c.bv_val(uint64_t(1) << (w - 1), w) &&
              v[1] == t.c.bv_val(~uint64_t(0), w));
    return v[0] / v[1];
  });
}

// A shift by the width or more is undefined.
void shift(Tosa &t, BinaryFn f, bool round) {
  t.ew({t.ins[0], t.ins[1]}, [&](const Exprs &v) {
    unsigned w = v[1].get_sort().bv_size();
    t.e.ub = t.e.ub || z3::uge(v[1], t.c.bv_val(uint64_t(w), w));
    if (round) {
      // TOSA: add the last bit shifted out when the shift is positive.
      z3::expr zero = t.c.bv_val(0, w), one = t.c.bv_val(1, w);
      z3::expr bit = z3::ashr(v[0], v[1] - one) & one;
      return z3::ashr(v[0], v[1]) + z3::ite(v[1] > zero, bit, zero);
    }
    return f(v[0], v[1]);
  });
}

void arithmeticRightShift(Tosa &t, tosa::ArithmeticRightShiftOp op) {
  bool round = op->getAttrOfType<BoolAttr>("round") &&
               op->getAttrOfType<BoolAttr>("round").getValue();
  shift(t, z3::ashr, round);
}

void compare(Tosa &t, arith::CmpFPredicate pred, BinaryFn f) {
  t.bin([&](auto &a, auto &b) {
    if (t.fl)
      return t.e.boolToBv(t.e.fcmp(pred, a, b));
    return t.e.boolToBv(f(a, b));
  });
}

void abs(Tosa &t) {
  if (t.fl)
    return t.un([&](auto &a) { return t.e.fabs(a); });
  t.ewRequire({t.ins[0]}, [&](const Exprs &v) {
    // apply_sub_s(0, x): the minimum's negation overflows.
    z3::expr zero = t.c.bv_val(0, v[0].get_sort().bv_size());
    return Elem{z3::ite(v[0] < zero, -v[0], v[0]), t.isMin(v[0])};
  });
}

void negate(Tosa &t) {
  if (!t.fl && (!t.isZeroConst(t.ins[1]) || !t.isZeroConst(t.ins[2])))
    unsupported("tosa.negate with zero points");
  if (t.fl)
    return t.un([&](auto &a) { return t.e.fneg(a); });
  t.ewRequire({t.ins[0]}, [&](const Exprs &v) {
    const z3::expr &a = v[0];
    // i8 and i16 negate in the i32 accumulator and clip: the minimum
    // saturates to the maximum (negate(negate(x)) is not x there). In
    // i32, the accumulator itself overflows there.
    unsigned w = a.get_sort().bv_size();
    if (w >= 32)
      return Elem{-a, t.isMin(a)};
    int64_t min = -(int64_t(1) << (w - 1));
    return Elem{z3::ite(a == t.c.bv_val(min, w), t.c.bv_val(-(min + 1), w), -a),
                t.c.bool_val(false)};
  });
}

// The same function as math's op of that name (EncodeMath.cpp) on the
// first `arity` operands.
void mathFunction(Tosa &t, const std::string &name, size_t arity) {
  t.ew(std::vector<SVal>(t.ins.begin(), t.ins.begin() + long(arity)),
       [&](const Exprs &v) { return t.e.mathFn(name, v); });
}

void reciprocal(Tosa &t) {
  if (!t.fl)
    return mathFunction(t, t.n, 1);
  t.un([&](auto &a) {
    return t.e.fdiv(t.e.elemConst(FloatAttr::get(t.inElt, 1.0), t.inElt), a);
  });
}

// TOSA defines sigmoid as 1 / (1 + exp(-x)) (and tosa-to-linalg emits
// exactly that): with exp uninterpreted, both meet.
void sigmoid(Tosa &t) {
  if (!t.fl)
    unsupportedOp(t.op);
  Encoder &e = t.e;
  t.un([&](auto &a) {
    z3::expr one = e.elemConst(FloatAttr::get(t.inElt, 1.0), t.inElt);
    return e.fdiv(one, e.fadd(e.mathFn("exp", {e.fneg(a)}), one));
  });
}

void clamp(Tosa &t) {
  Encoder &e = t.e;
  Attribute lo = t.op->getAttr("min_val"), hi = t.op->getAttr("max_val");
  z3::expr l = e.elemConst(lo, t.inElt), h = e.elemConst(hi, t.inElt);
  bool prop = propagatesNaN(t.op);
  t.un([&](auto &a) {
    // As tosa-to-linalg writes it (so that abstract floats meet):
    // maximum(minimum(x, hi), lo), and IGNORE maps NaN to lo.
    if (t.fl) {
      z3::expr m = e.fmaxmin(e.fmaxmin(a, h, false, true), l, true, true);
      return prop ? m : z3::ite(e.fcmp(arith::CmpFPredicate::UNO, a, a), l, m);
    }
    // As tosa-to-linalg writes it: minsi(hi, maxsi(lo, x)).
    return imaxmin(h, imaxmin(l, a, true, true), false, true);
  });
}

void select(Tosa &t) {
  t.set(t.e.elementwise(
      {t.ins[0], t.ins[1], t.ins[2]}, [&](const Exprs &v, const Exprs &p) {
        z3::expr cnd = t.e.bvTrue(v[0]);
        return Elem{z3::ite(cnd, v[1], v[2]), p[0] || z3::ite(cnd, p[1], p[2])};
      }));
}

// Float to integer: round to nearest even, saturate; NaN is undefined.
z3::expr saturatingToInt(Tosa &t, const z3::expr &a, unsigned w) {
  Encoder &e = t.e;
  z3::context &c = t.c;
  if (w == 1)
    unsupported("tosa.cast float to i1");
  z3::expr bad = c.bool_val(false);
  z3::expr r = e.floatToInt(a, w, true, true, bad);
  if (e.mode == FMode::Abstract)
    return r;
  z3::expr big = z3::expr(c, Z3_mk_fpa_is_positive(c, a));
  e.ub = e.ub || e.isNaN(a);
  z3::expr mx = c.bv_val((uint64_t(1) << (w - 1)) - 1, w),
           mn = c.bv_val(uint64_t(1) << (w - 1), w);
  return z3::ite(bad, z3::ite(big, mx, mn), r);
}

void cast(Tosa &t) {
  Encoder &e = t.e;
  Type elt = t.elt;
  bool toF = Encoder::isFloat(elt);
  t.un([&](auto &a) -> z3::expr {
    if (t.fl && toF)
      return e.fcast(a, elt);
    if (!t.fl && toF)
      return e.intToFloat(a, elt, t.inElt.getIntOrFloatBitWidth() != 1);
    unsigned w = elt.getIntOrFloatBitWidth();
    if (t.fl)
      return saturatingToInt(t, a, w);
    unsigned from = a.get_sort().bv_size();
    if (w == 1)
      return e.boolToBv(a != t.c.bv_val(0, from));
    if (w <= from)
      return a.extract(w - 1, 0);
    return from == 1 ? z3::zext(a, w - from) : z3::sext(a, w - from);
  });
}

} // namespace

} // namespace tosaops

void Encoder::encodeTosa(Operation *op) {
  using namespace tosaops;
  Tosa t(*this, op);
  using P = arith::CmpFPredicate;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](tosa::ConstOp cst) { t.set(constant(cst.getValues(), t.rt)); })
      .Case([&](tosa::ConstShapeOp cst) { constShape(t, cst); })
      .Case([&](tosa::AddOp) { addSub(t, true); })
      .Case([&](tosa::SubOp) { addSub(t, false); })
      .Case([&](tosa::MulOp) { mul(t); })
      .Case([&](tosa::MaximumOp) { maxMin(t, true); })
      .Case([&](tosa::MinimumOp) { maxMin(t, false); })
      .Case([&](tosa::IntDivOp) { intdiv(t); })
      .Case<tosa::BitwiseAndOp, tosa::LogicalAndOp>(
          [&](Operation *) { t.bin([](auto &a, auto &b) { return a & b; }); })
      .Case<tosa::BitwiseOrOp, tosa::LogicalOrOp>(
          [&](Operation *) { t.bin([](auto &a, auto &b) { return a | b; }); })
      .Case<tosa::BitwiseXorOp, tosa::LogicalXorOp>(
          [&](Operation *) { t.bin([](auto &a, auto &b) { return a ^ b; }); })
      .Case<tosa::BitwiseNotOp, tosa::LogicalNotOp>(
          [&](Operation *) { t.un([](auto &a) { return ~a; }); })
      .Case([&](tosa::LogicalLeftShiftOp) { shift(t, z3::shl, false); })
      .Case([&](tosa::LogicalRightShiftOp) { shift(t, z3::lshr, false); })
      .Case([&](tosa::ArithmeticRightShiftOp s) { arithmeticRightShift(t, s); })
      .Case([&](tosa::EqualOp) {
        compare(t, P::OEQ, [](auto &a, auto &b) { return a == b; });
      })
      .Case([&](tosa::GreaterOp) {
        compare(t, P::OGT, [](auto &a, auto &b) { return a > b; });
      })
      .Case([&](tosa::GreaterEqualOp) {
        compare(t, P::OGE, [](auto &a, auto &b) { return a >= b; });
      })
      .Case([&](tosa::AbsOp) { abs(t); })
      .Case([&](tosa::NegateOp) { negate(t); })
      .Case([&](tosa::IdentityOp) { t.set(t.ins[0]); })
      .Case([&](tosa::ReciprocalOp) { reciprocal(t); })
      .Case([&](tosa::SigmoidOp) { sigmoid(t); })
      .Case<tosa::ExpOp, tosa::LogOp, tosa::TanhOp, tosa::ErfOp, tosa::SinOp,
            tosa::CosOp, tosa::CeilOp, tosa::FloorOp, tosa::RsqrtOp>(
          [&](Operation *) { mathFunction(t, t.n, 1); })
      .Case([&](tosa::PowOp) { mathFunction(t, "powf", 2); })
      .Case([&](tosa::ClampOp) { clamp(t); })
      .Case([&](tosa::SelectOp) { select(t); })
      .Case([&](tosa::CastOp) { cast(t); })
      .Case([&](tosa::ReshapeOp) { reshape(t); })
      .Case([&](tosa::TransposeOp) { transpose(t); })
      .Case([&](tosa::SliceOp) { slice(t); })
      .Case([&](tosa::PadOp) { pad(t); })
      .Case([&](tosa::ReverseOp) { reverse(t); })
      .Case([&](tosa::TileOp) { tile(t); })
      .Case(
          [&](tosa::ConcatOp) { t.set(concatenate(t.ins, t.intAttr("axis"))); })
      .Case([&](tosa::ReduceSumOp) { reduce(t, Fold::Sum); })
      .Case([&](tosa::ReduceProductOp) { reduce(t, Fold::Product); })
      .Case([&](tosa::ReduceMaxOp) { reduce(t, Fold::Max); })
      .Case([&](tosa::ReduceMinOp) { reduce(t, Fold::Min); })
      .Case([&](tosa::ReduceAnyOp) { reduce(t, Fold::Any); })
      .Case([&](tosa::ReduceAllOp) { reduce(t, Fold::All); })
      .Default([&](Operation *) { encodeTosaKernel(op, t.ins); });
  encodeFreedoms(t);
}

} // namespace cc::smt::detail