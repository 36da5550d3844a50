// The Z3 encoding of TOSA 1.0's elementwise, data-movement and reduction
// ops: one entry per op in encodeTosa's table; the compute kernels are in
// EncodeTosaKernels.cpp.
#include "smt/Encoder.h"

#include "core/OpTable.h"

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

namespace {

using Exprs = std::vector<z3::expr>;
using BinaryFn = z3::expr (*)(const z3::expr &, const z3::expr &);

// A TOSA op being encoded: its operands, its element types and the helpers
// the semantics of its ops share.
struct Tosa {
  Tosa(Encoder &e, Operation *op);

  Encoder &e;
  z3::context &c;
  Operation *op;
  std::string n; // the op's name without "tosa."
  Type rt, elt;  // the result type and its element type
  Type inElt;    // the element type of the first operand
  bool fl;       // float operands
  std::vector<SVal> ins;

  void set(SVal r) { e.env[op->getResult(0)] = std::move(r); }
  z3::expr anyP(const Exprs &p);
  // An elementwise op whose result is poison where an operand is.
  void ew(std::vector<SVal> xs, std::function<z3::expr(const Exprs &)> f);
  void bin(std::function<z3::expr(const z3::expr &, const z3::expr &)> f);
  void un(std::function<z3::expr(const z3::expr &)> f);
  // Integer add, sub, abs and negate are TOSA's apply_add_s / apply_sub_s:
  // a result outside the type's range fails a REQUIRE, which (as for
  // apply_scale) makes the element poison; the reference refuses it too.
  void ewRequire(std::vector<SVal> xs, std::function<Elem(const Exprs &)> f);
  bool isZeroConst(const SVal &s);
  z3::expr isMin(const z3::expr &a);
  int64_t intAttr(const char *name);
  std::vector<int64_t> shapeOperand(unsigned i);
  // The result of `shape` whose element at idx is the first operand's at
  // src(idx); outside the operand is undefined.
  void gather(std::vector<int64_t> shape,
              std::function<std::vector<int64_t>(std::vector<int64_t>)> src);
};

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

// ---- data movement ----------------------------------------------------------

void reshape(Tosa &t) {
  const SVal &x = t.ins[0];
  SVal r = x;
  r.shape = t.shapeOperand(1);
  int64_t inferred = -1, known = 1;
  for (size_t k = 0; k < r.shape.size(); ++k)
    r.shape[k] == -1 ? inferred = int64_t(k) : known *= r.shape[k];
  if (inferred >= 0)
    r.shape[inferred] = known ? x.size() / known : 0;
  if (product(r.shape) != x.size())
    t.e.ub = t.c.bool_val(true);
  t.set(r);
}

void transpose(Tosa &t) {
  const SVal &x = t.ins[0];
  auto perms = t.op->getAttrOfType<DenseI32ArrayAttr>("perms");
  if (!perms)
    unsupported("tosa.transpose without perms");
  SVal r;
  for (int32_t k : perms.asArrayRef())
    r.shape.push_back(x.shape[k]);
  for (int64_t i = 0; i < product(r.shape); ++i) {
    auto idx = unflatten(i, r.shape);
    std::vector<int64_t> src(idx.size());
    for (size_t k = 0; k < idx.size(); ++k)
      src[perms[k]] = idx[k];
    int64_t j = flatten(src, x.shape);
    r.v.push_back(x.v[j]);
    r.p.push_back(x.p[j]);
  }
  t.set(r);
}

void slice(Tosa &t) {
  auto start = t.shapeOperand(1), size = t.shapeOperand(2);
  t.gather(size, [&](std::vector<int64_t> idx) {
    for (size_t k = 0; k < idx.size(); ++k)
      idx[k] += start[k];
    return idx;
  });
}

void pad(Tosa &t) {
  const SVal &x = t.ins[0], &value = t.ins[2];
  auto padding = t.shapeOperand(1);
  std::vector<int64_t> shape = x.shape;
  for (size_t k = 0; k < shape.size(); ++k)
    shape[k] += padding[2 * k] + padding[2 * k + 1];
  SVal r;
  r.shape = shape;
  for (int64_t i = 0; i < product(shape); ++i) {
    auto idx = unflatten(i, shape);
    bool inside = true;
    for (size_t k = 0; k < idx.size(); ++k) {
      idx[k] -= padding[2 * k];
      inside = inside && idx[k] >= 0 && idx[k] < x.shape[k];
    }
    int64_t j = inside ? flatten(idx, x.shape) : 0;
    r.v.push_back(inside ? x.v[j] : value.v[0]);
    r.p.push_back(inside ? x.p[j] : value.p[0]);
  }
  t.set(r);
}

void reverse(Tosa &t) {
  const SVal &x = t.ins[0];
  int64_t ax = t.intAttr("axis");
  t.gather(x.shape, [&](std::vector<int64_t> idx) {
    idx[ax] = x.shape[ax] - 1 - idx[ax];
    return idx;
  });
}

void tile(Tosa &t) {
  const SVal &x = t.ins[0];
  auto mult = t.shapeOperand(1);
  std::vector<int64_t> s = x.shape;
  for (size_t k = 0; k < s.size(); ++k)
    s[k] *= mult[k];
  t.gather(s, [&](std::vector<int64_t> idx) {
    for (size_t k = 0; k < idx.size(); ++k)
      idx[k] %= x.shape[k];
    return idx;
  });
}

// ---- reductions -------------------------------------------------------------

// How a reduction folds two elements.
enum class Fold { Sum, Product, Max, Min, Any, All };

z3::expr fold(Tosa &t, Fold f, const z3::expr &acc, const z3::expr &b,
              bool prop) {
  switch (f) {
  case Fold::Sum:
    return acc + b;
  case Fold::Product:
    return t.fl ? t.e.fmul(acc, b) : acc * b;
  case Fold::Max:
    return t.fl ? t.e.fmaxmin(acc, b, true, prop) : imaxmin(acc, b, true, true);
  case Fold::Min:
    return t.fl ? t.e.fmaxmin(acc, b, false, prop)
                : imaxmin(acc, b, false, true);
  case Fold::Any:
    return acc | b;
  case Fold::All:
    return acc & b;
  }
  unsupportedOp(t.op);
}

void reduce(Tosa &t, Fold f) {
  const SVal &x = t.ins[0];
  int64_t ax = t.intAttr("axis");
  SVal r;
  r.shape = x.shape;
  r.shape[ax] = 1;
  bool prop = propagatesNaN(t.op);
  for (int64_t i = 0; i < product(r.shape); ++i) {
    auto idx = unflatten(i, r.shape);
    std::vector<z3::expr> vs;
    z3::expr p = t.c.bool_val(false);
    for (int64_t k = 0; k < x.shape[ax]; ++k) {
      idx[ax] = k;
      int64_t j = flatten(idx, x.shape);
      vs.push_back(x.v[j]);
      p = p || x.p[j];
    }
    z3::expr acc = vs[0];
    if (f == Fold::Sum && t.fl) {
      vs.insert(vs.begin(), t.e.floatBits(0, cast<FloatType>(t.inElt)));
      acc = t.e.fsum(vs);
    } else if (f == Fold::Product && t.fl) {
      // The spec's order: acc = 1.0, then acc * value along the axis. A
      // lowering that multiplies in another order is not to be confirmed
      // against it bit for bit, so the order is marked as this encoding's
      // choice.
      acc = t.e.floatBits(
          APFloat::getOne(cast<FloatType>(t.inElt).getFloatSemantics())
              .bitcastToAPInt()
              .getZExtValue(),
          cast<FloatType>(t.inElt));
      for (const z3::expr &v : vs)
        acc = t.e.fmul(acc, v);
      if (vs.size() > 1)
        t.e.orderedTerms.set(acc, vs);
    } else {
      for (size_t k = 1; k < vs.size(); ++k)
        acc = fold(t, f, acc, vs[k], prop);
    }
    r.v.push_back(acc);
    r.p.push_back(p);
  }
  t.set(r);
}

// ---- what TOSA leaves open (OpDef::freedoms) --------------------------------

// Classes of float values, each with sample values: Freedoms::undefinedAt,
// a predicate on doubles, is lifted to terms class by class.
const std::vector<std::vector<double>> kFloatClasses = {
    {NAN},                                   // NaN
    {-INFINITY},                             // -Inf
    {-1e30, -3, -2.5, -2, -1, -0.5, -1e-30}, // negative finite
    {-0.0},                                  // -0
    {0.0},                                   // +0
    {1e-30, 0.5, 1, 2, 2.5, 3, 1e30},        // positive finite
    {INFINITY}};                             // +Inf

// Whether `x` is in class `k` of kFloatClasses.
z3::expr inFloatClass(Encoder &e, const z3::expr &x, size_t k) {
  z3::context &c = e.c;
  z3::expr nan = e.isNaN(x), inf(c, Z3_mk_fpa_is_infinite(c, x));
  z3::expr zero(c, Z3_mk_fpa_is_zero(c, x));
  z3::expr neg(c, Z3_mk_fpa_is_negative(c, x));
  z3::expr finite = !nan && !inf && !zero;
  const z3::expr kinds[] = {nan,         inf && neg,   finite && neg,
                            zero && neg, zero && !neg, finite && !neg,
                            inf && !neg};
  return kinds[k];
}

// Whether undefinedAt holds for some samples of the classes in `cell`.
bool undefinedInCell(const OpDef &def, const std::vector<size_t> &cell) {
  std::vector<double> x(cell.size());
  std::function<bool(size_t)> some = [&](size_t k) {
    if (k == cell.size())
      return def.freedoms.undefinedAt(x.data());
    for (double d : kFloatClasses[cell[k]]) {
      x[k] = d;
      if (some(k + 1))
        return true;
    }
    return false;
  };
  return some(0);
}

// Where the op is undefined, over operand terms `xs`: the classes of
// operand values (one per operand, fixed so far in `cell`) where it is for
// some samples. Exact for a predicate of the classes alone (pow's);
// otherwise undefined more often than TOSA says, never less: a target is
// never called wrong for what TOSA leaves undefined.
z3::expr undefinedWhere(Encoder &e, const OpDef &def, const Exprs &xs,
                        std::vector<size_t> &cell) {
  if (cell.size() == xs.size())
    return e.c.bool_val(undefinedInCell(def, cell));
  z3::expr_vector any(e.c);
  for (size_t k = 0; k < kFloatClasses.size(); ++k) {
    z3::expr in = inFloatClass(e, xs[cell.size()], k);
    cell.push_back(k);
    z3::expr rest = undefinedWhere(e, def, xs, cell);
    cell.pop_back();
    if (!rest.is_false())
      any.push_back(rest.is_true() ? in : in && rest);
  }
  return z3::mk_or(any).simplify();
}

// Elements that TOSA leaves undefined (any value) are poison, as the
// reference's dependence tracking treats them (Latitude): the target may
// compute anything there and in what depends on them. Abstract floats have
// no classes: there an uninterpreted predicate stands for the condition.
void markUndefined(Tosa &t, const OpDef &def) {
  Encoder &e = t.e;
  SVal &r = e.env[t.op->getResult(0)];
  std::vector<SVal> xs;
  for (const SVal &x : t.ins)
    xs.push_back(e.broadcastTo(x, r.shape));
  // The condition once, over placeholders, then per element substituted.
  z3::expr_vector from(t.c);
  Exprs placeholders;
  for (size_t k = 0; k < xs.size(); ++k) {
    from.push_back(t.c.constant(("operand_" + std::to_string(k)).c_str(),
                                xs[k].v[0].get_sort()));
    placeholders.push_back(from.back());
  }
  std::vector<size_t> cell;
  z3::expr where =
      e.mode == FMode::Abstract
          ? e.uf("undefined_" + def.name, placeholders, t.c.bool_sort())
          : undefinedWhere(e, def, placeholders, cell);
  for (int64_t i = 0; i < r.size(); ++i) {
    z3::expr_vector to(t.c);
    for (const SVal &x : xs)
      to.push_back(x.v[size_t(i)]);
    z3::expr w = where;
    r.p[size_t(i)] = r.p[size_t(i)] || w.substitute(from, to);
  }
}

// A zero result of the source whose sign TOSA leaves open takes the sign a
// fresh choice picks (Encoder::choices); only IEEE floats have signs.
void openZeroSigns(Tosa &t) {
  Encoder &e = t.e;
  for (Value res : t.op->getResults()) {
    if (!Encoder::isFloat(res.getType()))
      continue;
    for (z3::expr &v : e.env[res].v) {
      z3::expr flip = t.c.bool_const(
          ("zero_sign_" + std::to_string(e.choices.size())).c_str());
      e.choices.push_back(flip);
      v = z3::ite(flip && z3::expr(t.c, Z3_mk_fpa_is_zero(t.c, v)), e.fneg(v),
                  v);
    }
  }
}

// The op table's entry of a TOSA op: the table names ops as TOSA does (its
// emission writes "tosa." and the name).
const OpDef *tableEntry(Operation *op) {
  return findOp(op->getName().stripDialect().str());
}

// What the op table says TOSA leaves open about the op's results
// (OpDef::freedoms), applied to its encoded results.
void encodeFreedoms(Tosa &t) {
  const OpDef *def = tableEntry(t.op);
  if (!def || !t.rt || !t.e.env.count(t.op->getResult(0)) ||
      !t.e.env[t.op->getResult(0)].size())
    return;
  if (def->freedoms.undefinedAt && t.fl && Encoder::isFloat(t.rt))
    markUndefined(t, *def);
  if (def->freedoms.zeroSign && t.e.openChoices && t.e.mode == FMode::Ieee)
    openZeroSigns(t);
}

} // namespace

bool tosaElementwise(Operation *op) {
  if (op->getName().getDialectNamespace() != "tosa")
    return false;
  const OpDef *def = tableEntry(op);
  return def && def->elementwise;
}

void Encoder::encodeTosa(Operation *op) {
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
