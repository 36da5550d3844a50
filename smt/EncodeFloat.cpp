// Float operations on abstract floats (uninterpreted functions of an
// uninterpreted sort) or on Z3's IEEE theory, and float sums.
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>
#include <cmath>

namespace cc::smt::detail {

using namespace mlir;

z3::expr Encoder::fadd(const z3::expr &a, const z3::expr &b) {
  if (mode == FMode::Abstract && (sumLeaves(a) || sumLeaves(b)))
    return fsum({a, b});
  ++floatOps;
  if (mode == FMode::Abstract)
    return ufComm("fadd", a, b, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_add(c, rne(), a, b));
}

z3::expr Encoder::fmul(const z3::expr &a, const z3::expr &b) {
  ++floatOps;
  if (mode == FMode::Abstract)
    return ufComm("fmul", a, b, a.get_sort());
  return z3::expr(c, Z3_mk_fpa_mul(c, rne(), a, b));
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
z3::expr Encoder::fmaxmin(const z3::expr &a, const z3::expr &b, bool isMax,
                          bool propagateNaN) {
  ++floatOps;
  if (mode == FMode::Abstract)
    return ufComm(std::string(isMax ? "fmax" : "fmin") +
                      (propagateNaN ? "" : "num"),
                  a, b, a.get_sort());
  z3::expr gt = z3::expr(c, Z3_mk_fpa_gt(c, a, b));
  z3::expr lt = z3::expr(c, Z3_mk_fpa_lt(c, a, b));
  z3::expr aNeg = z3::expr(c, Z3_mk_fpa_is_negative(c, a));
  z3::expr pick = isMax ? z3::ite(gt, a, z3::ite(lt, b, z3::ite(aNeg, b, a)))
                        : z3::ite(lt, a, z3::ite(gt, b, z3::ite(aNeg, a, b)));
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
  usedUf = true;
  return uf("math_" + name, args, args[0].get_sort());
}

z3::expr Encoder::fcast(const z3::expr &a, Type to) {
  z3::sort s = sortOf(to);
  if (z3::eq(a.get_sort(), s))
    return a;
  if (mode == FMode::Abstract)
    return uf("fcast", {a}, s);
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
  double lo = isSigned ? -std::ldexp(1.0, int(w) - 1) : 0.0;
  double hi = isSigned ? std::ldexp(1.0, int(w) - 1) : std::ldexp(1.0, int(w));
  z3::expr rd =
      z3::expr(c, Z3_mk_fpa_to_fp_float(c, rne(), r, c.fpa_sort(11, 53)));
  z3::expr lod = fpConst(lo, c.fpa_sort(11, 53)),
           hid = fpConst(hi, c.fpa_sort(11, 53));
  outOfRange = isNaN(a) || z3::expr(c, Z3_mk_fpa_lt(c, rd, lod)) ||
               z3::expr(c, Z3_mk_fpa_geq(c, rd, hid));
  return isSigned ? z3::expr(c, Z3_mk_fpa_to_sbv(c, rm, a, w))
                  : z3::expr(c, Z3_mk_fpa_to_ubv(c, rm, a, w));
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
    sumTerms.insert_or_assign(acc.id(), std::pair{acc, std::move(terms)});
  return acc;
}

const std::vector<z3::expr> *Encoder::sumLeaves(const z3::expr &t) const {
  auto it = sumTerms.find(t.id());
  return it != sumTerms.end() && z3::eq(it->second.first, t)
             ? &it->second.second
             : nullptr;
}

} // namespace cc::smt::detail
