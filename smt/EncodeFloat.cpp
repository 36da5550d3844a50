// Float operations on abstract floats (uninterpreted functions of an
// uninterpreted sort) or on Z3's IEEE theory, and float sums.
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace cc::smt::detail {

using namespace mlir;

// IEEE addition, multiplication, maximum and minimum are commutative: their
// operands are put in one order (by term id), so that the same operation
// written either way is one term, shared by source and target.
z3::expr Encoder::fadd(const z3::expr &a, const z3::expr &b) {
  if (mode == FMode::Abstract && (sumLeaves(a) || sumLeaves(b)))
    return fsum({a, b});
  // A term added after a sum's cast to a narrower float (a depthwise
  // convolution's bias) joins the sum before it (as conv2d's lowering
  // adds it): TOSA bounds a dot product's error with its bias, not the
  // order or precision the bias joins it in.
  const z3::expr *wideA =
      mode == FMode::Abstract ? narrowedSums.find(a) : nullptr;
  const z3::expr *wide =
      wideA || mode != FMode::Abstract ? wideA : narrowedSums.find(b);
  if (wide) {
    z3::expr sum =
        fsum({*wide, uf("fcast", {wideA ? b : a}, wide->get_sort())});
    return narrowed(sum, a.get_sort());
  }
  ++floatOps;
  if (mode == FMode::Abstract)
    return ufComm("fadd", a, b, a.get_sort());
  bool swap = a.id() > b.id();
  return z3::expr(c, Z3_mk_fpa_add(c, rne(), swap ? b : a, swap ? a : b));
}

z3::expr Encoder::fmul(const z3::expr &a, const z3::expr &b) {
  if (mode == FMode::Abstract && (ones.find(a) || ones.find(b)))
    return ones.find(a) ? b : a;
  ++floatOps;
  if (mode == FMode::Abstract)
    return ufComm("fmul", a, b, a.get_sort());
  bool swap = a.id() > b.id();
  return z3::expr(c, Z3_mk_fpa_mul(c, rne(), swap ? b : a, swap ? a : b));
}

z3::expr Encoder::fsub(const z3::expr &a, const z3::expr &b) {
  ++floatOps;
  if (mode == FMode::Abstract)
    return uf("fsub", {a, b}, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_sub(c, rne(), a, b));
}

z3::expr Encoder::fdiv(const z3::expr &a, const z3::expr &b) {
  ++floatOps;
  if (mode == FMode::Abstract)
    return uf("fdiv", {a, b}, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_div(c, rne(), a, b));
}

z3::expr Encoder::fneg(const z3::expr &a) {
  if (mode == FMode::Abstract)
    return uf("fneg", {a}, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_neg(c, a));
}

z3::expr Encoder::fabs(const z3::expr &a) {
  if (mode == FMode::Abstract)
    return uf("fabs", {a}, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_abs(c, a));
}

// IEEE maximum/minimum: NaN propagates, -0 < +0. With propagateNaN false
// (maxnum, TOSA nan_mode IGNORE) a NaN operand yields the other one.
z3::expr Encoder::fmaxmin(const z3::expr &x, const z3::expr &y, bool isMax,
                          bool propagateNaN, bool openTie) {
  ++floatOps;
  const z3::expr &a = x.id() < y.id() ? x : y, &b = x.id() < y.id() ? y : x;
  if (mode == FMode::Abstract)
    return ufComm(std::string(isMax ? "fmax" : "fmin") +
                      (propagateNaN ? "" : "num"),
                  a, b, a.get_sort());
  z3::expr gt = z3::expr(c, Z3_mk_fpa_gt(c, a, b));
  z3::expr lt = z3::expr(c, Z3_mk_fpa_lt(c, a, b));
  z3::expr aNeg = z3::expr(c, Z3_mk_fpa_is_negative(c, a));
  z3::expr pick = isMax ? z3::ite(gt, a, z3::ite(lt, b, z3::ite(aNeg, b, a)))
                        : z3::ite(lt, a, z3::ite(gt, b, z3::ite(aNeg, a, b)));
  if (openTie && canChoose()) {
    z3::expr zeros = z3::expr(c, Z3_mk_fpa_is_zero(c, a)) &&
                     z3::expr(c, Z3_mk_fpa_is_zero(c, b));
    z3::expr other = isMax ? z3::ite(aNeg, a, b) : z3::ite(aNeg, b, a);
    pick = z3::ite(zeros && choose("the zero sign maxnumf and minnumf leave "
                                   "open"),
                   other, pick);
  }
  if (propagateNaN)
    return z3::ite(isNaN(a) || isNaN(b), fpNaN(a.get_sort()), pick);
  return z3::ite(isNaN(a), b, z3::ite(isNaN(b), a, pick));
}

z3::expr Encoder::fcmp(arith::CmpFPredicate pred, const z3::expr &a,
                       const z3::expr &b) {
  using P = arith::CmpFPredicate;
  if (pred == P::AlwaysTrue)
    return c.bool_val(true);
  if (pred == P::AlwaysFalse)
    return c.bool_val(false);
  if (mode == FMode::Abstract) {
    std::string name = "fcmp_" + arith::stringifyCmpFPredicate(pred).str();
    bool comm = pred == P::OEQ || pred == P::UEQ || pred == P::ONE ||
                pred == P::UNE || pred == P::ORD || pred == P::UNO;
    return comm ? ufComm(name, a, b, c.bool_sort())
                : uf(name, {a, b}, c.bool_sort());
  }
  z3::expr uno = isNaN(a) || isNaN(b);
  z3::expr eq = z3::expr(c, Z3_mk_fpa_eq(c, a, b));
  z3::expr lt = z3::expr(c, Z3_mk_fpa_lt(c, a, b));
  z3::expr le = z3::expr(c, Z3_mk_fpa_leq(c, a, b));
  z3::expr gt = z3::expr(c, Z3_mk_fpa_gt(c, a, b));
  z3::expr ge = z3::expr(c, Z3_mk_fpa_geq(c, a, b));
  switch (pred) {
  case P::OEQ:
    return eq;
  case P::OGT:
    return gt;
  case P::OGE:
    return ge;
  case P::OLT:
    return lt;
  case P::OLE:
    return le;
  case P::ONE:
    return !uno && !eq;
  case P::ORD:
    return !uno;
  case P::UEQ:
    return uno || eq;
  case P::UGT:
    return uno || gt;
  case P::UGE:
    return uno || ge;
  case P::ULT:
    return uno || lt;
  case P::ULE:
    return uno || le;
  case P::UNE:
    return uno || !eq;
  case P::UNO:
    return uno;
  default:
    return c.bool_val(false);
  }
}

// IEEE roundToIntegral. Z3 (4.8.12) fails on formats whose significand
// is not at least two bits longer than the exponent (bf16: "invalid
// zero_extend application"): those round in the format with two more
// significand bits, which holds every value exactly, and convert back,
// exactly too (an integral value of a format is representable in it).
z3::expr Encoder::roundToIntegral(const z3::expr &rm, const z3::expr &a) {
  z3::sort s = a.get_sort();
  unsigned eb = s.fpa_ebits(), sb = s.fpa_sbits();
  if (sb >= eb + 2)
    return z3::expr(c, Z3_mk_fpa_round_to_integral(c, rm, a));
  z3::sort wide = c.fpa_sort(eb, eb + 2);
  z3::expr w(c, Z3_mk_fpa_to_fp_float(c, rm, a, wide));
  z3::expr r(c, Z3_mk_fpa_round_to_integral(c, rm, w));
  return z3::expr(c, Z3_mk_fpa_to_fp_float(c, rm, r, s));
}

// A named math function: uninterpreted in both modes (exact where IEEE
// defines it: sqrt).
z3::expr Encoder::mathFn(const std::string &name,
                         const std::vector<z3::expr> &args) {
  ++floatOps;
  if (mode == FMode::Ieee && name == "sqrt")
    return z3::expr(c, Z3_mk_fpa_sqrt(c, rne(), args[0]));
  // Rounding to an integral value is exact in IEEE.
  static const std::map<std::string, Z3_ast (*)(Z3_context)> kRound = {
      {"roundeven", Z3_mk_fpa_rne},
      {"round", Z3_mk_fpa_rna},
      {"floor", Z3_mk_fpa_rtn},
      {"ceil", Z3_mk_fpa_rtp},
      {"trunc", Z3_mk_fpa_rtz}};
  if (auto it = kRound.find(name); mode == FMode::Ieee && it != kRound.end())
    return roundToIntegral(z3::expr(c, it->second(c)), args[0]);
  if (mode == FMode::Ieee && name == "fma")
    return z3::expr(c, Z3_mk_fpa_fma(c, rne(), args[0], args[1], args[2]));
  if (mode == FMode::Ieee && name == "copysign") {
    // The sign bit of the second operand's bits (a NaN's is that of the
    // NaN pattern bitcasts read).
    z3::sort so = args[1].get_sort();
    z3::expr bits = floatToBits(args[1], so.fpa_ebits(), so.fpa_sbits());
    unsigned top = bits.get_sort().bv_size() - 1;
    z3::expr neg = bits.extract(top, top) == c.bv_val(1, 1);
    return z3::ite(neg, fneg(fabs(args[0])), fabs(args[0]));
  }
  usedUf = true;
  mathFns.insert(name);
  z3::expr rest = uf("math_" + name, args, args[0].get_sort());
  return mode == FMode::Ieee ? transcendental(name, args, rest) : rest;
}

namespace {
// Exact cases, first match wins, else `rest`.
z3::expr cases(const std::vector<std::pair<z3::expr, z3::expr>> &cs,
               z3::expr rest) {
  for (auto it = cs.rbegin(); it != cs.rend(); ++it)
    rest = z3::ite(it->first, it->second, rest);
  return rest;
}
} // namespace

// C99 Annex F (which LLVM's intrinsics and libm, the math dialect's
// lowerings, follow): NaN gives NaN; f(±0) = ±0 for the odd functions
// (tanh, erf, sin, ...), cos(±0) = cosh(±0) = erfc(±0) = 1; tanh(±inf) =
// erf(±inf) = ±1, erfc(-inf) = 2, erfc(+inf) = +0, sin, cos and tan of
// ±inf NaN, cosh(±inf) = +inf; exp(±0) = 1, exp(-inf) = +0, exp(+inf) = +inf;
// log(±0) = -inf, log(x < 0) = NaN, log(1) = +0, log(+inf) = +inf;
// pow(x, ±0) = 1 and pow(1, y) = 1 even for NaN, pow(x < 0, y) = NaN for
// finite non-integral y and ±pow(-x, y) for integral y, and the zeros and
// infinities of F.10.4.4. NaN in, NaN out otherwise. Elsewhere tanh, erf,
// sin and cos lie in [-1, 1], cosh in [1, inf], erfc in [0, 2], exp in
// [0, inf].
z3::expr Encoder::transcendental(const std::string &name,
                                 const std::vector<z3::expr> &args,
                                 const z3::expr &rest) {
  const z3::expr &x = args[0];
  z3::sort s = x.get_sort();
  auto k = [&](double d) { return fpConst(d, s); };
  auto is = [&](Z3_ast (*pred)(Z3_context, Z3_ast), const z3::expr &a) {
    return z3::expr(c, pred(c, a));
  };
  auto eq = [&](const z3::expr &a, double d) {
    return z3::expr(c, Z3_mk_fpa_eq(c, a, k(d)));
  };
  z3::expr nan = fpNaN(s);
  // Elsewhere a function stays in its range (any implementation's: libm,
  // a polynomial approximation): the uninterpreted value, if within it.
  auto within = [&](double lo, double hi) {
    z3::expr in = z3::expr(c, Z3_mk_fpa_leq(c, k(lo), rest)) &&
                  z3::expr(c, Z3_mk_fpa_leq(c, rest, k(hi)));
    return z3::ite(in, rest, k(lo));
  };
  z3::expr xNaN = isNaN(x), xZero = is(Z3_mk_fpa_is_zero, x);
  z3::expr xInf = is(Z3_mk_fpa_is_infinite, x);
  z3::expr xNeg = is(Z3_mk_fpa_is_negative, x);
  // Odd functions keep a zero's sign; every one gives NaN for NaN.
  static const std::set<std::string> kOdd = {"tanh",  "erf",   "sin",   "tan",
                                             "atan",  "asin",  "sinh",  "asinh",
                                             "atanh", "log1p", "expm1", "cbrt"};
  static const std::set<std::string> kEven = {"cos", "cosh"};
  if (kOdd.count(name) || kEven.count(name) || name == "erfc") {
    std::vector<std::pair<z3::expr, z3::expr>> cs{{xNaN, nan}};
    if (kOdd.count(name))
      cs.push_back({xZero, x});
    if (kEven.count(name) || name == "erfc")
      cs.push_back({xZero, k(1)});
    if (name == "tanh" || name == "erf")
      cs.push_back({xInf, z3::ite(xNeg, k(-1), k(1))});
    if (name == "erfc")
      cs.push_back({xInf, z3::ite(xNeg, k(2), k(0))});
    if (name == "sin" || name == "cos" || name == "tan")
      cs.push_back({xInf, nan});
    if (name == "cosh")
      cs.push_back({xInf, k(INFINITY)});
    bool unit =
        name == "tanh" || name == "erf" || name == "sin" || name == "cos";
    return cases(cs, unit             ? within(-1, 1)
                     : name == "cosh" ? within(1, INFINITY)
                     : name == "erfc" ? within(0, 2)
                                      : rest);
  }
  if (name == "exp" || name == "exp2")
    return cases(
        {{xNaN, nan}, {xZero, k(1)}, {xInf, z3::ite(xNeg, k(0), k(INFINITY))}},
        within(0, INFINITY));
  if (name == "log" || name == "log2" || name == "log10")
    return cases({{xNaN, nan},
                  {xZero, k(-INFINITY)},
                  {xNeg, nan},
                  {eq(x, 1), k(0)},
                  {xInf, k(INFINITY)}},
                 rest);
  if (name != "powf")
    return rest;
  const z3::expr &y = args[1];
  z3::expr yNaN = isNaN(y), yInf = is(Z3_mk_fpa_is_infinite, y);
  z3::expr yNeg = is(Z3_mk_fpa_is_negative, y);
  auto integral = [&](const z3::expr &a) {
    return !isNaN(a) && !is(Z3_mk_fpa_is_infinite, a) &&
           z3::expr(c, Z3_mk_fpa_eq(c, roundToIntegral(rne(), a), a));
  };
  z3::expr yOdd = integral(y) && !integral(fmul(y, k(0.5)));
  z3::expr absX = fabs(x);
  z3::expr big = z3::expr(c, Z3_mk_fpa_gt(c, absX, k(1)));
  z3::expr powAbs = uf("math_powf", {absX, y}, s);
  z3::expr signed0 = z3::ite(yOdd, x, k(0)); // ±0 keeps x's sign if y odd
  z3::expr signedInf = z3::ite(yOdd && xNeg, k(-INFINITY), k(INFINITY));
  return cases(
      {{is(Z3_mk_fpa_is_zero, y), k(1)},
       {eq(x, 1), k(1)},
       {xNaN || yNaN, nan},
       {eq(x, -1) && yInf, k(1)},
       {yInf, z3::ite(big != yNeg, k(INFINITY), k(0))},
       {xZero, z3::ite(yNeg, signedInf, signed0)},
       {xInf, z3::ite(yNeg, z3::ite(yOdd && xNeg, k(-0.0), k(0)), signedInf)},
       {xNeg && !integral(y), nan},
       {xNeg, z3::ite(yOdd, fneg(powAbs), powAbs)}},
      rest);
}

z3::expr Encoder::bitsToFloat(const z3::expr &bits, Type to) {
  z3::sort s = sortOf(to);
  z3::expr f = mode == FMode::Abstract
                   ? uf("bitcast_to_float", {bits}, s)
                   : z3::expr(c, Z3_mk_fpa_to_fp_bv(c, bits, s));
  floatFromBits.set(f, bits);
  return f;
}

z3::expr Encoder::floatToBits(const z3::expr &a, unsigned ebits,
                              unsigned sbits) {
  if (const z3::expr *bits = floatFromBits.find(a))
    return *bits;
  unsigned w = ebits + sbits;
  if (mode == FMode::Abstract)
    return uf("bitcast_to_int", {a}, c.bv_sort(w));
  // Some NaN pattern: all-ones exponent, a non-zero mantissa.
  usedNaNBits = true;
  unsigned mant = sbits - 1;
  z3::expr any =
      c.constant(("nan_bits_" + std::to_string(w)).c_str(), c.bv_sort(w));
  z3::expr expOnes = c.bv_val(((uint64_t(1) << (w - 1 - mant)) - 1) << mant, w);
  z3::expr isNanPattern = ((any & expOnes) == expOnes) &&
                          any.extract(mant - 1, 0) != c.bv_val(0, mant);
  z3::expr nanBits = z3::ite(isNanPattern, any, expOnes | c.bv_val(1, w));
  return z3::ite(isNaN(a), nanBits, z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, a)));
}

z3::expr Encoder::fcast(const z3::expr &a, Type to) {
  z3::sort s = sortOf(to);
  if (z3::eq(a.get_sort(), s))
    return a;
  if (mode == FMode::Abstract)
    return sumLeaves(a) ? narrowed(a, s) : uf("fcast", {a}, s);
  return z3::expr(c, Z3_mk_fpa_to_fp_float(c, rne(), a, s));
}

z3::expr Encoder::intToFloat(const z3::expr &a, Type to, bool isSigned) {
  z3::sort s = sortOf(to);
  // A known integer converts to a known float (rounded to nearest even):
  // computed counts (avg_pool's divisor) meet their constant form.
  uint64_t u;
  unsigned w = a.get_sort().bv_size();
  if (w <= 64 && a.simplify().is_numeral_u64(u)) {
    APInt i(w, u);
    APFloat f(cast<FloatType>(to).getFloatSemantics());
    (void)f.convertFromAPInt(i, isSigned, APFloat::rmNearestTiesToEven);
    return floatBits(f.bitcastToAPInt().getZExtValue(), cast<FloatType>(to));
  }
  if (mode == FMode::Abstract)
    return uf(isSigned ? "sitofp" : "uitofp", {a}, s);
  return isSigned ? z3::expr(c, Z3_mk_fpa_to_fp_signed(c, rne(), a, s))
                  : z3::expr(c, Z3_mk_fpa_to_fp_unsigned(c, rne(), a, s));
}

// Float to integer, rounding toward zero (arith) or to nearest even
// (TOSA); `outOfRange` receives the condition of a NaN/Inf/overflow.
z3::expr Encoder::floatToInt(const z3::expr &a, unsigned w, bool isSigned,
                             bool nearest, z3::expr &outOfRange) {
  if (mode == FMode::Abstract) {
    outOfRange = uf(std::string(isSigned ? "fptosi_bad" : "fptoui_bad") +
                        std::to_string(w) + (nearest ? "_rne" : ""),
                    {a}, c.bool_sort());
    return uf(std::string(isSigned ? "fptosi" : "fptoui") +
                  (nearest ? "_rne" : ""),
              {a}, c.bv_sort(w));
  }
  z3::expr rm = nearest ? rne() : rtz();
  z3::expr r = roundToIntegral(rm, a);
  // The bounds are 0 or powers of two: exact in the float's own sort where
  // its exponent reaches them (compared there, as a lowering compares),
  // else beyond every finite value of it (only an infinity is out).
  z3::sort s = a.get_sort();
  int maxExp = (1 << (s.fpa_ebits() - 1)) - 1;
  auto beyond = [&](int k, bool negative) {
    z3::expr inf = fpConst(negative ? -INFINITY : INFINITY, s);
    if (k > maxExp)
      return z3::expr(c, Z3_mk_fpa_eq(c, r, inf));
    z3::expr bound = fpConst(std::ldexp(negative ? -1.0 : 1.0, k), s);
    return negative ? z3::expr(c, Z3_mk_fpa_lt(c, r, bound))
                    : z3::expr(c, Z3_mk_fpa_geq(c, r, bound));
  };
  z3::expr below = isSigned ? beyond(int(w) - 1, true)
                            : z3::expr(c, Z3_mk_fpa_lt(c, r, fpConst(0, s)));
  outOfRange =
      isNaN(a) || below || beyond(isSigned ? int(w) - 1 : int(w), false);
  // Rounded to nearest: the integral value converted, as a lowering does
  // (roundeven, then fptosi), so that both sides share the rounding.
  z3::expr from = nearest ? r : a;
  return isSigned ? z3::expr(c, Z3_mk_fpa_to_sbv(c, rtz(), from, w))
                  : z3::expr(c, Z3_mk_fpa_to_ubv(c, rtz(), from, w));
}

// A float sum of terms. Abstract: a multiset (canonical order), so any
// association and order of the same terms is the same sum; a sum added
// to another term (a bias after a dot product) is one sum with it; +0.0
// terms are dropped (a lowering sums padding and a zero-filled
// accumulator), so sums are equal up to reassociation and the sign of an
// exact-zero result, as TOSA's accuracy rules for dot products allow.
z3::expr Encoder::fsum(const std::vector<z3::expr> &in) {
  // Even in IEEE mode the order is this encoding's choice, not TOSA's.
  usedReassoc |= in.size() > 1;
  if (mode != FMode::Abstract) {
    z3::expr acc = in[0];
    for (size_t i = 1; i < in.size(); ++i)
      acc = fadd(acc, in[i]);
    if (in.size() > 2)
      orderedTerms.set(acc, in);
    return acc;
  }
  std::vector<z3::expr> terms;
  for (const z3::expr &t : in) {
    const std::vector<z3::expr> *leaves = sumLeaves(t);
    if (!leaves) {
      terms.push_back(t);
      continue;
    }
    terms.insert(terms.end(), leaves->begin(), leaves->end());
    usedReassoc = true;
  }
  std::string zeroName =
      "fconst_" + std::string(Z3_sort_to_string(c, in[0].get_sort())) + "_0";
  auto isZero = [&](const z3::expr &t) {
    return t.is_const() && t.decl().name().str() == zeroName;
  };
  if (!llvm::all_of(terms, isZero))
    llvm::erase_if(terms, isZero);
  else
    terms.erase(terms.begin() + 1, terms.end());
  if (terms.size() > 2)
    usedReassoc = true;
  std::sort(
      terms.begin(), terms.end(),
      [](const z3::expr &a, const z3::expr &b) { return a.id() < b.id(); });
  z3::expr acc = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) {
    ++floatOps;
    acc = ufComm("fadd", acc, terms[i], acc.get_sort());
  }
  if (terms.size() > 1)
    sumTerms.set(acc, std::move(terms));
  return acc;
}

namespace {
// The bits of an abstract float sort (named F<exponent>_<significand>).
unsigned abstractBits(const z3::sort &s) {
  unsigned e = 0, m = 0;
  return std::sscanf(s.name().str().c_str(), "F%u_%u", &e, &m) == 2 ? e + m : 0;
}
} // namespace

// An abstract sum cast to sort `s`; where `s` is narrower, a term added
// to the cast joins the sum (fadd).
z3::expr Encoder::narrowed(const z3::expr &sum, const z3::sort &s) {
  z3::expr r = uf("fcast", {sum}, s);
  if (abstractBits(s) < abstractBits(sum.get_sort()))
    narrowedSums.set(r, sum);
  return r;
}

const std::vector<z3::expr> *Encoder::sumLeaves(const z3::expr &t) const {
  return sumTerms.find(t);
}

} // namespace cc::smt::detail
