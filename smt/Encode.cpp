// The Z3 encoding of MLIR functions and the refinement check. The only
// translation unit of cc_smt that includes Z3 (and one of three with MLIR).
//
// Values are tensors of per-element terms (scalars are 0-d): static shapes,
// dynamic dimensions instantiated with small sizes. Integers are bit-vectors
// with exact semantics; every element carries a poison bit and the function
// an undefined-behaviour bit. Floats are first abstract (an uninterpreted
// sort; commutative operations take their operands in a canonical order and
// float sums of reductions are multisets, so reassociation is modelled), then
// Z3's IEEE theory when the abstract check finds a counterexample.
#include "smt/Internal.h"

#include "backends/mlir/MlirBackend.h"
#include "core/DType.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <z3++.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

namespace cc::smt {

using namespace mlir;

namespace {

// Thrown inside this file only, caught by checkFunctionPair: an op or type
// the encoding does not cover becomes `unknown` with this reason.
struct EncodeFailure {
  std::string reason;
};
[[noreturn]] void unsupported(const std::string &reason) {
  throw EncodeFailure{reason};
}
std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

enum class FMode { Abstract, Ieee };

// A value: row-major elements with their poison bits; rank 0 for scalars.
struct SVal {
  std::vector<int64_t> shape;
  std::vector<z3::expr> v, p;
  int64_t size() const { return int64_t(v.size()); }
};

int64_t product(const std::vector<int64_t> &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}
std::vector<int64_t> unflatten(int64_t i, const std::vector<int64_t> &s) {
  std::vector<int64_t> idx(s.size());
  for (int64_t k = int64_t(s.size()) - 1; k >= 0; --k) {
    idx[k] = s[k] ? i % s[k] : 0;
    i = s[k] ? i / s[k] : 0;
  }
  return idx;
}
int64_t flatten(const std::vector<int64_t> &idx, const std::vector<int64_t> &s) {
  int64_t i = 0;
  for (size_t k = 0; k < s.size(); ++k)
    i = i * s[k] + idx[k];
  return i;
}

constexpr int64_t kMaxElements = 1 << 14;

// tensor.concat and tosa.concat: the inputs one after another along `dim`.
SVal concatenate(const std::vector<SVal> &ins, int64_t dim) {
  SVal r;
  r.shape = ins[0].shape;
  r.shape[dim] = 0;
  for (const SVal &x : ins)
    r.shape[dim] += x.shape[dim];
  for (int64_t i = 0; i < product(r.shape); ++i) {
    auto idx = unflatten(i, r.shape);
    for (const SVal &x : ins) {
      if (idx[dim] < x.shape[dim]) {
        int64_t j = flatten(idx, x.shape);
        r.v.push_back(x.v[j]);
        r.p.push_back(x.p[j]);
        break;
      }
      idx[dim] -= x.shape[dim];
    }
  }
  return r;
}

class Encoder {
public:
  Encoder(z3::context &c, FMode mode, const TvOptions &opts)
      : c(c), mode(mode), opts(opts), ub(c.bool_val(false)) {}

  z3::context &c;
  FMode mode;
  const TvOptions &opts;
  z3::expr ub;
  unsigned floatOps = 0;
  bool usedReassoc = false, usedUf = false, usedDynamic = false;
  llvm::DenseMap<Value, SVal> env;

  // ---- sorts and element helpers ------------------------------------------
  static bool isFloat(Type t) { return isa<FloatType>(getElementTypeOrSelf(t)); }

  std::pair<unsigned, unsigned> fpBits(FloatType ft) {
    if (ft.isF16())
      return {5, 11};
    if (ft.isBF16())
      return {8, 8};
    if (ft.isF32())
      return {8, 24};
    if (ft.isF64())
      return {11, 53};
    unsupported("float type " + str(ft));
  }

  z3::sort sortOf(Type t) {
    t = getElementTypeOrSelf(t);
    if (auto it = dyn_cast<IntegerType>(t))
      return c.bv_sort(it.getWidth());
    if (isa<IndexType>(t))
      return c.bv_sort(64);
    if (auto ft = dyn_cast<FloatType>(t)) {
      auto [e, s] = fpBits(ft);
      if (mode == FMode::Abstract)
        return c.uninterpreted_sort(("F" + std::to_string(e) + "_" +
                                     std::to_string(s)).c_str());
      return c.fpa_sort(e, s);
    }
    unsupported("element type " + str(t));
  }

  z3::expr fpConst(double d, const z3::sort &s) {
    return z3::expr(c, Z3_mk_fpa_numeral_double(c, d, s));
  }
  z3::expr fpNaN(const z3::sort &s) { return z3::expr(c, Z3_mk_fpa_nan(c, s)); }
  z3::expr rne() { return z3::expr(c, Z3_mk_fpa_rne(c)); }
  z3::expr rtz() { return z3::expr(c, Z3_mk_fpa_rtz(c)); }
  z3::expr isNaN(const z3::expr &a) {
    return z3::expr(c, Z3_mk_fpa_is_nan(c, a));
  }

  // An abstract float constant: named by its bits, no facts about it.
  z3::expr floatBits(uint64_t bits, FloatType ft) {
    z3::sort s = sortOf(ft);
    if (mode == FMode::Abstract) {
      std::string name = "fconst_" + std::string(Z3_sort_to_string(c, s)) +
                         "_" + std::to_string(bits);
      return c.constant(name.c_str(), s);
    }
    unsigned w = ft.getWidth();
    return z3::expr(c, Z3_mk_fpa_to_fp_bv(c, c.bv_val(bits, w), s));
  }

  z3::expr elemConst(Attribute a, Type elt) {
    if (auto ia = dyn_cast<IntegerAttr>(a)) {
      APInt v = ia.getValue();
      unsigned w = isa<IndexType>(elt) ? 64 : v.getBitWidth();
      if (w > 64)
        unsupported("integer constant wider than 64 bits");
      return c.bv_val(uint64_t(v.sextOrTrunc(w).getZExtValue()), w);
    }
    if (auto fa = dyn_cast<FloatAttr>(a))
      return floatBits(fa.getValue().bitcastToAPInt().getZExtValue(),
                       cast<FloatType>(elt));
    if (auto ba = dyn_cast<BoolAttr>(a))
      return c.bv_val(ba.getValue() ? 1 : 0, 1);
    unsupported("constant attribute");
  }

  SVal constant(Attribute a, Type ty) {
    SVal r;
    Type elt = getElementTypeOrSelf(ty);
    if (auto st = dyn_cast<ShapedType>(ty)) {
      if (!st.hasStaticShape())
        unsupported("dynamic constant");
      r.shape.assign(st.getShape().begin(), st.getShape().end());
      auto dense = dyn_cast<DenseElementsAttr>(a);
      if (!dense)
        unsupported("non-dense tensor constant");
      int64_t n = product(r.shape);
      if (n > kMaxElements)
        unsupported("tensor constant too large");
      if (dense.isSplat()) {
        z3::expr e = elemConst(dense.getSplatValue<Attribute>(), elt);
        r.v.assign(n, e);
      } else {
        for (Attribute x : dense.getValues<Attribute>())
          r.v.push_back(elemConst(x, elt));
      }
    } else {
      r.v.push_back(elemConst(a, elt));
    }
    r.p.assign(r.v.size(), c.bool_val(false));
    return r;
  }

  z3::expr zeroOf(const z3::sort &s) {
    if (s.is_bv())
      return c.bv_val(0, s.bv_size());
    if (s.is_fpa())
      return fpConst(0.0, s);
    return c.constant("undef_value", s);
  }

  // ---- uninterpreted functions ---------------------------------------------
  z3::expr uf(const std::string &name, const std::vector<z3::expr> &args,
              const z3::sort &range) {
    z3::sort_vector dom(c);
    std::string full = name;
    for (const z3::expr &a : args) {
      dom.push_back(a.get_sort());
      full += "_" + std::string(Z3_sort_to_string(c, a.get_sort()));
    }
    z3::func_decl f = c.function(full.c_str(), dom, range);
    z3::expr_vector ev(c);
    for (const z3::expr &a : args)
      ev.push_back(a);
    return f(ev);
  }
  // Commutative abstract operations see their operands in a canonical order.
  z3::expr ufComm(const std::string &name, z3::expr a, z3::expr b,
                  const z3::sort &range) {
    if (a.id() > b.id())
      std::swap(a, b);
    return uf(name, {a, b}, range);
  }

  z3::expr boolToBv(const z3::expr &b) {
    return z3::ite(b, c.bv_val(1, 1), c.bv_val(0, 1));
  }
  z3::expr bvTrue(const z3::expr &bv1) { return bv1 == c.bv_val(1, 1); }

  // ---- float operations ------------------------------------------------------
  z3::expr fadd(const z3::expr &a, const z3::expr &b) {
    ++floatOps;
    if (mode == FMode::Abstract)
      return ufComm("fadd", a, b, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_add(c, rne(), a, b));
  }
  z3::expr fmul(const z3::expr &a, const z3::expr &b) {
    ++floatOps;
    if (mode == FMode::Abstract)
      return ufComm("fmul", a, b, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_mul(c, rne(), a, b));
  }
  z3::expr fsub(const z3::expr &a, const z3::expr &b) {
    ++floatOps;
    if (mode == FMode::Abstract)
      return uf("fsub", {a, b}, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_sub(c, rne(), a, b));
  }
  z3::expr fdiv(const z3::expr &a, const z3::expr &b) {
    ++floatOps;
    if (mode == FMode::Abstract)
      return uf("fdiv", {a, b}, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_div(c, rne(), a, b));
  }
  z3::expr fneg(const z3::expr &a) {
    if (mode == FMode::Abstract)
      return uf("fneg", {a}, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_neg(c, a));
  }
  z3::expr fabs(const z3::expr &a) {
    if (mode == FMode::Abstract)
      return uf("fabs", {a}, a.get_sort());
    return z3::expr(c, Z3_mk_fpa_abs(c, a));
  }
  // IEEE maximum/minimum: NaN propagates, -0 < +0. With propagateNaN false
  // (maxnum, TOSA nan_mode IGNORE) a NaN operand yields the other one.
  z3::expr fmaxmin(const z3::expr &a, const z3::expr &b, bool isMax,
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
  z3::expr fcmp(arith::CmpFPredicate pred, const z3::expr &a,
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
    case P::OEQ: return eq;
    case P::OGT: return gt;
    case P::OGE: return ge;
    case P::OLT: return lt;
    case P::OLE: return le;
    case P::ONE: return !uno && !eq;
    case P::ORD: return !uno;
    case P::UEQ: return uno || eq;
    case P::UGT: return uno || gt;
    case P::UGE: return uno || ge;
    case P::ULT: return uno || lt;
    case P::ULE: return uno || le;
    case P::UNE: return uno || !eq;
    case P::UNO: return uno;
    default: return c.bool_val(false);
    }
  }
  // A named math function: uninterpreted in both modes (exact where IEEE
  // defines it: sqrt).
  z3::expr mathFn(const std::string &name, const std::vector<z3::expr> &args) {
    ++floatOps;
    if (mode == FMode::Ieee && name == "sqrt")
      return z3::expr(c, Z3_mk_fpa_sqrt(c, rne(), args[0]));
    // Rounding to an integral value is exact in IEEE.
    static const std::map<std::string, Z3_ast (*)(Z3_context)> kRound = {
        {"roundeven", Z3_mk_fpa_rne}, {"round", Z3_mk_fpa_rna},
        {"floor", Z3_mk_fpa_rtn},     {"ceil", Z3_mk_fpa_rtp},
        {"trunc", Z3_mk_fpa_rtz}};
    if (auto it = kRound.find(name); mode == FMode::Ieee && it != kRound.end())
      return z3::expr(c, Z3_mk_fpa_round_to_integral(c, it->second(c), args[0]));
    if (mode == FMode::Ieee && name == "fma")
      return z3::expr(c, Z3_mk_fpa_fma(c, rne(), args[0], args[1], args[2]));
    usedUf = true;
    return uf("math_" + name, args, args[0].get_sort());
  }
  z3::expr fcast(const z3::expr &a, Type to) {
    z3::sort s = sortOf(to);
    if (z3::eq(a.get_sort(), s))
      return a;
    if (mode == FMode::Abstract)
      return uf("fcast", {a}, s);
    return z3::expr(c, Z3_mk_fpa_to_fp_float(c, rne(), a, s));
  }
  z3::expr intToFloat(const z3::expr &a, Type to, bool isSigned) {
    z3::sort s = sortOf(to);
    if (mode == FMode::Abstract)
      return uf(isSigned ? "sitofp" : "uitofp", {a}, s);
    return isSigned ? z3::expr(c, Z3_mk_fpa_to_fp_signed(c, rne(), a, s))
                    : z3::expr(c, Z3_mk_fpa_to_fp_unsigned(c, rne(), a, s));
  }
  // Float to integer, rounding toward zero (arith) or to nearest even
  // (TOSA); `outOfRange` receives the condition of a NaN/Inf/overflow.
  z3::expr floatToInt(const z3::expr &a, unsigned w, bool isSigned,
                      bool nearest, z3::expr &outOfRange) {
    if (mode == FMode::Abstract) {
      outOfRange = uf(isSigned ? "fptosi_bad" : "fptoui_bad", {a},
                      c.bool_sort());
      return uf(std::string(isSigned ? "fptosi" : "fptoui") +
                    (nearest ? "_rne" : ""),
                {a}, c.bv_sort(w));
    }
    z3::expr rm = nearest ? rne() : rtz();
    z3::expr r = z3::expr(c, z3::expr(c, Z3_mk_fpa_round_to_integral(c, rm, a)));
    double lo = isSigned ? -std::ldexp(1.0, int(w) - 1) : 0.0;
    double hi = isSigned ? std::ldexp(1.0, int(w) - 1) : std::ldexp(1.0, int(w));
    z3::expr rd = z3::expr(c, Z3_mk_fpa_to_fp_float(c, rne(), r, c.fpa_sort(11, 53)));
    z3::expr lod = fpConst(lo, c.fpa_sort(11, 53)),
             hid = fpConst(hi, c.fpa_sort(11, 53));
    outOfRange = isNaN(a) || z3::expr(c, Z3_mk_fpa_lt(c, rd, lod)) ||
                 z3::expr(c, Z3_mk_fpa_geq(c, rd, hid));
    return isSigned ? z3::expr(c, Z3_mk_fpa_to_sbv(c, rm, a, w))
                    : z3::expr(c, Z3_mk_fpa_to_ubv(c, rm, a, w));
  }

  // A float sum of terms. Abstract: a multiset (canonical order), so any
  // association and order of the same terms is the same sum.
  z3::expr fsum(std::vector<z3::expr> terms) {
    if (mode == FMode::Abstract && terms.size() > 2) {
      usedReassoc = true;
      std::sort(terms.begin(), terms.end(),
                [](const z3::expr &a, const z3::expr &b) { return a.id() < b.id(); });
    }
    z3::expr acc = terms[0];
    for (size_t i = 1; i < terms.size(); ++i)
      acc = fadd(acc, terms[i]);
    return acc;
  }

  // ---- scalar semantics of arith and math ops ------------------------------
  // Returns the result element of `op` applied to one element per operand.
  std::pair<z3::expr, z3::expr> scalarOp(Operation *op,
                                         const std::vector<z3::expr> &a,
                                         const std::vector<z3::expr> &pa) {
    std::string n = op->getName().getStringRef().str();
    Type rt = getElementTypeOrSelf(op->getResult(0).getType());
    z3::expr p = c.bool_val(false);
    for (const z3::expr &x : pa)
      p = p || x;
    auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op);
    bool nsw = flags && flags.hasNoSignedWrap();
    bool nuw = flags && flags.hasNoUnsignedWrap();
    auto intDivUb = [&](bool isSigned) {
      unsigned w = a[1].get_sort().bv_size();
      z3::expr bad = a[1] == c.bv_val(0, w);
      if (isSigned)
        bad = bad || (a[0] == c.bv_val(uint64_t(1) << (w - 1), w) &&
                      a[1] == c.bv_val(~uint64_t(0), w));
      ub = ub || (!p && bad);
    };
    auto shiftPoison = [&] {
      unsigned w = a[1].get_sort().bv_size();
      p = p || z3::uge(a[1], c.bv_val(uint64_t(w), w));
    };
    if (n == "arith.addi") {
      if (nsw)
        p = p || !z3::bvadd_no_overflow(a[0], a[1], true) ||
            !z3::bvadd_no_underflow(a[0], a[1]);
      if (nuw)
        p = p || !z3::bvadd_no_overflow(a[0], a[1], false);
      return {a[0] + a[1], p};
    }
    if (n == "arith.subi") {
      if (nsw)
        p = p || !z3::bvsub_no_overflow(a[0], a[1]) ||
            !z3::bvsub_no_underflow(a[0], a[1], true);
      if (nuw)
        p = p || !z3::bvsub_no_underflow(a[0], a[1], false);
      return {a[0] - a[1], p};
    }
    if (n == "arith.muli") {
      if (nsw)
        p = p || !z3::bvmul_no_overflow(a[0], a[1], true) ||
            !z3::bvmul_no_underflow(a[0], a[1]);
      if (nuw)
        p = p || !z3::bvmul_no_overflow(a[0], a[1], false);
      return {a[0] * a[1], p};
    }
    if (n == "arith.divsi")
      return intDivUb(true), std::pair{a[0] / a[1], p};
    if (n == "arith.divui")
      return intDivUb(false), std::pair{z3::udiv(a[0], a[1]), p};
    if (n == "arith.remsi")
      return intDivUb(true), std::pair{z3::srem(a[0], a[1]), p};
    if (n == "arith.remui")
      return intDivUb(false), std::pair{z3::urem(a[0], a[1]), p};
    if (n == "arith.andi")
      return {a[0] & a[1], p};
    if (n == "arith.ori")
      return {a[0] | a[1], p};
    if (n == "arith.xori")
      return {a[0] ^ a[1], p};
    if (n == "arith.shli")
      return shiftPoison(), std::pair{z3::shl(a[0], a[1]), p};
    if (n == "arith.shrsi")
      return shiftPoison(), std::pair{z3::ashr(a[0], a[1]), p};
    if (n == "arith.shrui")
      return shiftPoison(), std::pair{z3::lshr(a[0], a[1]), p};
    if (n == "arith.maxsi")
      return {z3::ite(a[0] > a[1], a[0], a[1]), p};
    if (n == "arith.minsi")
      return {z3::ite(a[0] < a[1], a[0], a[1]), p};
    if (n == "arith.maxui")
      return {z3::ite(z3::ugt(a[0], a[1]), a[0], a[1]), p};
    if (n == "arith.minui")
      return {z3::ite(z3::ult(a[0], a[1]), a[0], a[1]), p};
    if (n == "arith.cmpi") {
      using P = arith::CmpIPredicate;
      auto pred = cast<arith::CmpIOp>(op).getPredicate();
      z3::expr x = a[0], y = a[1];
      z3::expr r = pred == P::eq    ? x == y
                   : pred == P::ne  ? x != y
                   : pred == P::slt ? x < y
                   : pred == P::sle ? x <= y
                   : pred == P::sgt ? x > y
                   : pred == P::sge ? x >= y
                   : pred == P::ult ? z3::ult(x, y)
                   : pred == P::ule ? z3::ule(x, y)
                   : pred == P::ugt ? z3::ugt(x, y)
                                    : z3::uge(x, y);
      return {boolToBv(r), p};
    }
    if (n == "arith.select") {
      z3::expr cond = bvTrue(a[0]);
      return {z3::ite(cond, a[1], a[2]), pa[0] || z3::ite(cond, pa[1], pa[2])};
    }
    auto widthOf = [&](Type t) {
      return isa<IndexType>(t) ? 64u : t.getIntOrFloatBitWidth();
    };
    if (n == "arith.extsi" || n == "arith.extui" || n == "arith.trunci" ||
        n == "arith.index_cast" || n == "arith.index_castui") {
      unsigned from = a[0].get_sort().bv_size(), to = widthOf(rt);
      bool sgn = n == "arith.extsi" || n == "arith.index_cast";
      if (to < from)
        return {a[0].extract(to - 1, 0), p};
      if (to == from)
        return {a[0], p};
      return {sgn ? z3::sext(a[0], to - from) : z3::zext(a[0], to - from), p};
    }
    if (n == "arith.addf")
      return {fadd(a[0], a[1]), p};
    if (n == "arith.subf")
      return {fsub(a[0], a[1]), p};
    if (n == "arith.mulf")
      return {fmul(a[0], a[1]), p};
    if (n == "arith.divf")
      return {fdiv(a[0], a[1]), p};
    if (n == "arith.negf")
      return {fneg(a[0]), p};
    if (n == "arith.maximumf" || n == "arith.minimumf")
      return {fmaxmin(a[0], a[1], n == "arith.maximumf", true), p};
    if (n == "arith.maxnumf" || n == "arith.minnumf")
      return {fmaxmin(a[0], a[1], n == "arith.maxnumf", false), p};
    if (n == "arith.cmpf")
      return {boolToBv(fcmp(cast<arith::CmpFOp>(op).getPredicate(), a[0], a[1])),
              p};
    if (n == "arith.sitofp" || n == "arith.uitofp")
      return {intToFloat(a[0], rt, n == "arith.sitofp"), p};
    if (n == "arith.fptosi" || n == "arith.fptoui") {
      z3::expr bad = c.bool_val(false);
      z3::expr r = floatToInt(a[0], widthOf(rt), n == "arith.fptosi", false, bad);
      return {r, p || bad};
    }
    if (n == "arith.extf" || n == "arith.truncf")
      return {fcast(a[0], rt), p};
    if (n == "math.absf")
      return {fabs(a[0]), p};
    if (n == "math.absi")
      return {z3::ite(a[0] < c.bv_val(0, a[0].get_sort().bv_size()), -a[0], a[0]),
              p};
    if (n == "math.ctlz" || n == "math.cttz" || n == "math.ctpop") {
      // Exact: the highest (lowest) set bit, or the bits set, of the
      // bit-vector; ctlz and cttz of zero are the width.
      unsigned w = a[0].get_sort().bv_size();
      z3::expr r = c.bv_val(n == "math.ctpop" ? 0 : w, w);
      for (unsigned i = 0; i < w; ++i) {
        unsigned bit = n == "math.cttz" ? w - 1 - i : i;
        z3::expr set = a[0].extract(bit, bit) == c.bv_val(1, 1);
        r = n == "math.ctpop"
                ? r + z3::ite(set, c.bv_val(1, w), c.bv_val(0, w))
                : z3::ite(set,
                          c.bv_val(n == "math.ctlz" ? w - 1 - bit : bit, w), r);
      }
      return {r, p};
    }
    if (n.rfind("math.", 0) == 0 && isFloat(rt))
      return {mathFn(n.substr(5), a), p};
    unsupported("op '" + n + "'");
  }

  // ---- values ----------------------------------------------------------------
  SVal &get(Value v) {
    auto it = env.find(v);
    if (it == env.end())
      unsupported("value defined outside the encoded region");
    return it->second;
  }
  int64_t concreteIndex(const z3::expr &e) {
    z3::expr s = e.simplify();
    uint64_t u;
    if (!s.is_numeral_u64(u))
      unsupported("a symbolic size or index");
    return int64_t(u);
  }
  int64_t concreteIndex(Value v) {
    SVal &s = get(v);
    if (!z3::expr(s.p[0]).simplify().is_false())
      unsupported("a possibly poison index");
    return concreteIndex(s.v[0]);
  }

  // Shape of a value of type `t`: dynamic dims take the instantiated sizes.
  std::vector<int64_t> argShape(Type t) {
    std::vector<int64_t> s;
    if (auto rt = dyn_cast<RankedTensorType>(t)) {
      for (int64_t k = 0; k < rt.getRank(); ++k) {
        int64_t d = rt.getDimSize(k);
        if (ShapedType::isDynamic(d)) {
          usedDynamic = true;
          d = opts.dynamicSizes[k % opts.dynamicSizes.size()];
        }
        s.push_back(d);
      }
    } else if (isa<ShapedType>(t)) {
      unsupported("argument type " + str(t));
    }
    return s;
  }
  // Result shape: static dims of the type; dynamic ones from `dynSizes`.
  std::vector<int64_t> resultShape(Type t, ValueRange dynSizes) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      unsupported("result type " + str(t));
    std::vector<int64_t> s;
    size_t k = 0;
    for (int64_t d : rt.getShape()) {
      if (ShapedType::isDynamic(d)) {
        if (k >= dynSizes.size())
          unsupported("dynamic result shape");
        d = concreteIndex(dynSizes[k++]);
      }
      s.push_back(d);
    }
    return s;
  }

  SVal fresh(const std::string &prefix, Type t) {
    SVal r;
    r.shape = argShape(t);
    int64_t n = product(r.shape);
    if (n > kMaxElements)
      unsupported("argument too large");
    z3::sort s = sortOf(t);
    for (int64_t i = 0; i < n; ++i) {
      r.v.push_back(c.constant((prefix + "_" + std::to_string(i)).c_str(), s));
      r.p.push_back(c.bool_val(false));
    }
    return r;
  }

  SVal undef(std::vector<int64_t> shape, Type elt) {
    SVal r;
    r.shape = std::move(shape);
    int64_t n = product(r.shape);
    if (n > kMaxElements)
      unsupported("tensor too large");
    z3::expr z = zeroOf(sortOf(elt));
    r.v.assign(n, z);
    r.p.assign(n, c.bool_val(true));
    return r;
  }

  // Element at possibly symbolic indices; out of bounds is UB.
  std::pair<z3::expr, z3::expr> at(const SVal &t,
                                   const std::vector<z3::expr> &idx) {
    std::vector<int64_t> ci;
    bool concrete = true;
    for (const z3::expr &e : idx) {
      uint64_t u;
      z3::expr s = e.simplify();
      if (!s.is_numeral_u64(u)) {
        concrete = false;
        break;
      }
      ci.push_back(int64_t(u));
    }
    if (concrete) {
      for (size_t k = 0; k < ci.size(); ++k)
        if (ci[k] < 0 || ci[k] >= t.shape[k]) {
          ub = c.bool_val(true);
          return {t.v.empty() ? c.bv_val(0, 1) : t.v[0], c.bool_val(true)};
        }
      int64_t i = flatten(ci, t.shape);
      return {t.v[i], t.p[i]};
    }
    z3::expr inBounds = c.bool_val(true);
    for (size_t k = 0; k < idx.size(); ++k)
      inBounds = inBounds && z3::ult(idx[k], c.bv_val(uint64_t(t.shape[k]), 64));
    ub = ub || !inBounds;
    z3::expr v = t.v[0], p = t.p[0];
    for (int64_t i = 1; i < t.size(); ++i) {
      std::vector<int64_t> ii = unflatten(i, t.shape);
      z3::expr hit = c.bool_val(true);
      for (size_t k = 0; k < ii.size(); ++k)
        hit = hit && idx[k] == c.bv_val(uint64_t(ii[k]), 64);
      v = z3::ite(hit, t.v[i], v);
      p = z3::ite(hit, t.p[i], p);
    }
    return {v, p};
  }

  SVal scalar(z3::expr v, z3::expr p) {
    SVal r;
    r.v.push_back(v);
    r.p.push_back(p);
    return r;
  }
  SVal indexVal(int64_t i) {
    return scalar(c.bv_val(uint64_t(i), 64), c.bool_val(false));
  }

  // ---- regions -------------------------------------------------------------
  // Runs a single-block body with scalar block arguments and returns the
  // yielded elements.
  std::vector<std::pair<z3::expr, z3::expr>>
  evalBody(Block &body, const std::vector<SVal> &args,
           const std::vector<int64_t> &point) {
    for (auto [arg, val] : llvm::zip(body.getArguments(), args))
      env[arg] = val;
    curPoint = &point;
    for (Operation &op : body.without_terminator())
      encodeOp(&op);
    std::vector<std::pair<z3::expr, z3::expr>> out;
    for (Value y : body.getTerminator()->getOperands()) {
      SVal &s = get(y);
      out.push_back({s.v[0], s.p[0]});
    }
    return out;
  }
  const std::vector<int64_t> *curPoint = nullptr;

  // ---- elementwise with broadcasting (arith on tensors, TOSA) --------------
  SVal broadcastTo(const SVal &a, const std::vector<int64_t> &shape) {
    if (a.shape == shape)
      return a;
    SVal r;
    r.shape = shape;
    int64_t n = product(shape);
    size_t off = shape.size() - a.shape.size();
    for (int64_t i = 0; i < n; ++i) {
      std::vector<int64_t> idx = unflatten(i, shape), src(a.shape.size());
      for (size_t k = 0; k < a.shape.size(); ++k)
        src[k] = a.shape[k] == 1 ? 0 : idx[k + off];
      int64_t j = flatten(src, a.shape);
      r.v.push_back(a.v[j]);
      r.p.push_back(a.p[j]);
    }
    return r;
  }
  std::vector<int64_t> broadcastShape(const std::vector<SVal> &xs) {
    std::vector<int64_t> s;
    for (const SVal &x : xs) {
      if (x.shape.size() > s.size())
        s.insert(s.begin(), x.shape.size() - s.size(), 1);
      size_t off = s.size() - x.shape.size();
      for (size_t k = 0; k < x.shape.size(); ++k) {
        int64_t d = x.shape[k];
        if (s[k + off] == 1)
          s[k + off] = d;
        else if (d != 1 && d != s[k + off])
          ub = c.bool_val(true); // incompatible (dynamic) shapes
      }
    }
    return s;
  }
  using ElemFn = std::function<std::pair<z3::expr, z3::expr>(
      const std::vector<z3::expr> &, const std::vector<z3::expr> &)>;
  SVal elementwise(const std::vector<SVal> &ins, const ElemFn &fn) {
    std::vector<int64_t> shape = broadcastShape(ins);
    std::vector<SVal> bs;
    for (const SVal &x : ins)
      bs.push_back(broadcastTo(x, shape));
    SVal r;
    r.shape = shape;
    for (int64_t i = 0; i < product(shape); ++i) {
      std::vector<z3::expr> v, p;
      for (const SVal &x : bs) {
        v.push_back(x.v[i]);
        p.push_back(x.p[i]);
      }
      auto [rv, rp] = fn(v, p);
      r.v.push_back(rv);
      r.p.push_back(rp);
    }
    return r;
  }

  std::vector<SVal> operandsOf(Operation *op) {
    std::vector<SVal> r;
    for (Value v : op->getOperands())
      r.push_back(get(v));
    return r;
  }

  // ---- the per-op table ----------------------------------------------------
  void encodeOp(Operation *op);
  void encodeLinalg(linalg::LinalgOp op);
  void encodeTosa(Operation *op);
  void applyScale(tosa::ApplyScaleOp op, const std::vector<SVal> &ins);
  void convolution(Operation *op, const std::vector<SVal> &ins, bool depthwise);
  void encodeTensor(Operation *op);
  std::vector<SVal> encodeCall(func::FuncOp f, const std::vector<SVal> &args,
                               int depth);
  int callDepth = 0;
};

int64_t evalAffine(AffineExpr e, const std::vector<int64_t> &dims) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto k = dyn_cast<AffineConstantExpr>(e))
    return k.getValue();
  auto b = dyn_cast<AffineBinaryOpExpr>(e);
  if (!b)
    unsupported("affine symbols in an indexing map");
  int64_t l = evalAffine(b.getLHS(), dims), r = evalAffine(b.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add: return l + r;
  case AffineExprKind::Mul: return l * r;
  case AffineExprKind::Mod: return r ? ((l % r) + r) % r : 0;
  case AffineExprKind::FloorDiv:
    return r ? (l / r - ((l % r != 0) && ((l < 0) != (r < 0)))) : 0;
  case AffineExprKind::CeilDiv:
    return r ? (l / r + ((l % r != 0) && ((l < 0) == (r < 0)))) : 0;
  default: unsupported("affine expression");
  }
}

void Encoder::encodeLinalg(linalg::LinalgOp lop) {
  auto gen = dyn_cast<linalg::GenericOp>(lop.getOperation());
  if (!gen)
    unsupported("linalg op '" + lop->getName().getStringRef().str() +
                "' (not generalizable)");
  if (!gen.hasPureTensorSemantics())
    unsupported("linalg on buffers");
  auto maps = gen.getIndexingMapsArray();
  auto iters = gen.getIteratorTypesArray();
  unsigned nIn = gen.getNumDpsInputs(), nOut = gen.getNumDpsInits();
  std::vector<SVal> ops;
  for (Value v : gen->getOperands())
    ops.push_back(get(v));
  // Loop ranges from the operand shapes.
  std::vector<int64_t> range(iters.size(), -1);
  for (size_t o = 0; o < ops.size(); ++o)
    for (unsigned r = 0; r < maps[o].getNumResults(); ++r)
      if (auto d = dyn_cast<AffineDimExpr>(maps[o].getResult(r))) {
        if (range[d.getPosition()] < 0)
          range[d.getPosition()] = ops[o].shape[r];
        else if (range[d.getPosition()] != ops[o].shape[r])
          ub = c.bool_val(true);
      }
  for (int64_t r : range)
    if (r < 0)
      unsupported("linalg.generic loop range not given by a shape");
  int64_t points = product(range);
  if (points > kMaxElements)
    unsupported("linalg.generic iteration space too large");
  std::vector<SVal> outs(ops.begin() + nIn, ops.end());
  Block &body = gen.getRegion().front();
  // Float sums over reductions: out = addf(term, out) with the term free of
  // out. Abstract mode collects the terms as a multiset.
  bool hasReduction = llvm::any_of(iters, [](utils::IteratorType t) {
    return t == utils::IteratorType::reduction;
  });
  std::vector<Value> termOf(nOut);
  if (mode == FMode::Abstract && hasReduction) {
    auto yield = body.getTerminator();
    for (unsigned k = 0; k < nOut; ++k) {
      auto add = yield->getOperand(k).getDefiningOp<arith::AddFOp>();
      BlockArgument acc = body.getArgument(nIn + k);
      if (!add)
        continue;
      Value other = add.getLhs() == acc   ? add.getRhs()
                    : add.getRhs() == acc ? add.getLhs()
                                          : Value();
      if (!other || other == acc)
        continue;
      // The term must not read the accumulator.
      bool readsAcc = false;
      std::function<void(Value)> visit = [&](Value v) {
        if (v == acc)
          readsAcc = true;
        if (Operation *d = v.getDefiningOp())
          if (d->getBlock() == &body)
            for (Value x : d->getOperands())
              visit(x);
      };
      visit(other);
      if (!readsAcc && llvm::count(acc.getUsers(), add.getOperation()) &&
          std::distance(acc.getUsers().begin(), acc.getUsers().end()) == 1)
        termOf[k] = other;
    }
  }
  std::vector<std::vector<std::vector<z3::expr>>> terms(nOut);
  for (unsigned k = 0; k < nOut; ++k)
    terms[k].resize(outs[k].size());
  for (int64_t i = 0; i < points; ++i) {
    std::vector<int64_t> pt = unflatten(i, range);
    std::vector<SVal> args;
    std::vector<int64_t> outPos(nOut);
    for (size_t o = 0; o < ops.size(); ++o) {
      const SVal &src = o < nIn ? ops[o] : outs[o - nIn];
      if (!isa<ShapedType>(gen->getOperand(o).getType())) {
        args.push_back(src);
        continue;
      }
      std::vector<int64_t> idx;
      for (AffineExpr e : maps[o].getResults())
        idx.push_back(evalAffine(e, pt));
      // Operand shapes that disagree with the loop ranges: undefined.
      for (size_t k = 0; k < idx.size(); ++k)
        if (idx[k] < 0 || idx[k] >= src.shape[k]) {
          ub = c.bool_val(true);
          idx[k] = 0;
        }
      if (src.v.empty()) {
        args.push_back(scalar(zeroOf(sortOf(gen->getOperand(o).getType())),
                              c.bool_val(true)));
        continue;
      }
      int64_t j = flatten(idx, src.shape);
      if (o >= nIn)
        outPos[o - nIn] = j;
      args.push_back(scalar(src.v[j], src.p[j]));
    }
    auto ys = evalBody(body, args, pt);
    for (unsigned k = 0; k < nOut; ++k) {
      if (termOf[k]) {
        SVal &t = get(termOf[k]);
        terms[k][outPos[k]].push_back(t.v[0]);
        outs[k].p[outPos[k]] = outs[k].p[outPos[k]] || t.p[0];
      } else {
        outs[k].v[outPos[k]] = ys[k].first;
        outs[k].p[outPos[k]] = ys[k].second;
      }
    }
  }
  for (unsigned k = 0; k < nOut; ++k) {
    if (termOf[k])
      for (int64_t j = 0; j < outs[k].size(); ++j) {
        std::vector<z3::expr> all{ops[nIn + k].v[j]};
        all.insert(all.end(), terms[k][j].begin(), terms[k][j].end());
        outs[k].v[j] = fsum(all);
      }
    env[gen->getResult(k)] = outs[k];
  }
}

void Encoder::encodeTensor(Operation *op) {
  std::string n = op->getName().getStringRef().str();
  Type rt = op->getNumResults() ? op->getResult(0).getType() : Type();
  if (auto e = dyn_cast<tensor::EmptyOp>(op)) {
    env[e] = undef(resultShape(rt, e.getDynamicSizes()), getElementTypeOrSelf(rt));
    return;
  }
  if (auto d = dyn_cast<tensor::DimOp>(op)) {
    SVal &s = get(d.getSource());
    int64_t k = concreteIndex(d.getIndex());
    if (k < 0 || k >= int64_t(s.shape.size()))
      unsupported("tensor.dim out of range");
    env[d] = indexVal(s.shape[k]);
    return;
  }
  if (auto x = dyn_cast<tensor::ExtractOp>(op)) {
    std::vector<z3::expr> idx;
    z3::expr p = c.bool_val(false);
    for (Value i : x.getIndices()) {
      idx.push_back(get(i).v[0]);
      p = p || get(i).p[0];
    }
    auto [v, vp] = at(get(x.getTensor()), idx);
    env[x] = scalar(v, vp || p);
    return;
  }
  if (auto ins = dyn_cast<tensor::InsertOp>(op)) {
    SVal r = get(ins.getDest());
    SVal s = get(ins.getScalar());
    std::vector<int64_t> idx;
    for (Value i : ins.getIndices())
      idx.push_back(concreteIndex(i));
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= r.shape[k])
        ub = c.bool_val(true);
    if (!ub.simplify().is_true()) {
      int64_t j = flatten(idx, r.shape);
      r.v[j] = s.v[0];
      r.p[j] = s.p[0];
    }
    env[ins] = r;
    return;
  }
  if (auto fe = dyn_cast<tensor::FromElementsOp>(op)) {
    SVal r;
    r.shape = resultShape(rt, {});
    for (Value v : fe.getElements()) {
      r.v.push_back(get(v).v[0]);
      r.p.push_back(get(v).p[0]);
    }
    env[fe] = r;
    return;
  }
  if (auto sp = dyn_cast<tensor::SplatOp>(op)) {
    SVal s = get(sp.getInput());
    SVal r;
    r.shape = resultShape(rt, sp.getDynamicSizes());
    r.v.assign(product(r.shape), s.v[0]);
    r.p.assign(product(r.shape), s.p[0]);
    env[sp] = r;
    return;
  }
  if (auto g = dyn_cast<tensor::GenerateOp>(op)) {
    SVal r;
    r.shape = resultShape(rt, g.getDynamicExtents());
    Block &body = g.getBody().front();
    for (int64_t i = 0; i < product(r.shape); ++i) {
      std::vector<int64_t> pt = unflatten(i, r.shape);
      std::vector<SVal> args;
      for (int64_t k : pt)
        args.push_back(indexVal(k));
      auto ys = evalBody(body, args, pt);
      r.v.push_back(ys[0].first);
      r.p.push_back(ys[0].second);
    }
    env[g] = r;
    return;
  }
  if (auto cst = dyn_cast<tensor::CastOp>(op)) {
    SVal r = get(cst.getSource());
    auto to = cast<RankedTensorType>(rt);
    for (int64_t k = 0; k < to.getRank(); ++k)
      if (!to.isDynamicDim(k) && to.getDimSize(k) != r.shape[k])
        ub = c.bool_val(true);
    env[cst] = r;
    return;
  }
  if (auto col = dyn_cast<tensor::CollapseShapeOp>(op)) {
    SVal r = get(col.getSrc());
    std::vector<int64_t> s;
    for (auto &grp : col.getReassociationIndices()) {
      int64_t d = 1;
      for (int64_t k : grp)
        d *= r.shape[k];
      s.push_back(d);
    }
    r.shape = s;
    env[col] = r;
    return;
  }
  if (auto ex = dyn_cast<tensor::ExpandShapeOp>(op)) {
    SVal r = get(ex.getSrc());
    std::vector<int64_t> s;
    size_t dyn = 0;
    for (int64_t d : ex.getStaticOutputShape())
      s.push_back(ShapedType::isDynamic(d)
                      ? concreteIndex(ex.getOutputShape()[dyn++])
                      : d);
    if (product(s) != r.size())
      ub = c.bool_val(true);
    r.shape = s;
    env[ex] = r;
    return;
  }
  auto staticOr = [&](ArrayRef<int64_t> st, const char *what) {
    for (int64_t d : st)
      if (ShapedType::isDynamic(d))
        unsupported(std::string("dynamic ") + what + " of " + n);
    return std::vector<int64_t>(st.begin(), st.end());
  };
  if (auto es = dyn_cast<tensor::ExtractSliceOp>(op)) {
    SVal s = get(es.getSource());
    auto off = staticOr(es.getStaticOffsets(), "offsets");
    auto sz = staticOr(es.getStaticSizes(), "sizes");
    auto st = staticOr(es.getStaticStrides(), "strides");
    SVal r;
    r.shape = sz;
    for (int64_t i = 0; i < product(sz); ++i) {
      auto idx = unflatten(i, sz);
      for (size_t k = 0; k < idx.size(); ++k) {
        idx[k] = off[k] + idx[k] * st[k];
        if (idx[k] >= s.shape[k])
          unsupported("extract_slice out of bounds");
      }
      int64_t j = flatten(idx, s.shape);
      r.v.push_back(s.v[j]);
      r.p.push_back(s.p[j]);
    }
    std::vector<int64_t> kept;
    auto dropped = es.getDroppedDims();
    for (size_t k = 0; k < sz.size(); ++k)
      if (!dropped.test(k))
        kept.push_back(sz[k]);
    r.shape = kept;
    env[es] = r;
    return;
  }
  if (auto is = dyn_cast<tensor::InsertSliceOp>(op)) {
    SVal s = get(is.getSource());
    SVal r = get(is.getDest());
    auto off = staticOr(is.getStaticOffsets(), "offsets");
    auto sz = staticOr(is.getStaticSizes(), "sizes");
    auto st = staticOr(is.getStaticStrides(), "strides");
    for (int64_t i = 0; i < product(sz); ++i) {
      auto idx = unflatten(i, sz);
      for (size_t k = 0; k < idx.size(); ++k) {
        idx[k] = off[k] + idx[k] * st[k];
        if (idx[k] >= r.shape[k])
          unsupported("insert_slice out of bounds");
      }
      int64_t j = flatten(idx, r.shape);
      r.v[j] = s.v[i];
      r.p[j] = s.p[i];
    }
    env[is] = r;
    return;
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    SVal s = get(pad.getSource());
    auto mixed = [&](SmallVector<OpFoldResult> v) {
      std::vector<int64_t> r;
      for (OpFoldResult f : v)
        r.push_back(isa<Attribute>(f)
                        ? cast<IntegerAttr>(cast<Attribute>(f)).getInt()
                        : concreteIndex(cast<Value>(f)));
      return r;
    };
    auto lo = mixed(pad.getMixedLowPad()), hi = mixed(pad.getMixedHighPad());
    SVal r;
    for (size_t k = 0; k < s.shape.size(); ++k)
      r.shape.push_back(lo[k] + s.shape[k] + hi[k]);
    Block &body = pad.getRegion().front();
    for (int64_t i = 0; i < product(r.shape); ++i) {
      auto idx = unflatten(i, r.shape);
      bool inside = true;
      std::vector<int64_t> sidx(idx.size());
      for (size_t k = 0; k < idx.size(); ++k) {
        sidx[k] = idx[k] - lo[k];
        inside = inside && sidx[k] >= 0 && sidx[k] < s.shape[k];
      }
      if (inside) {
        int64_t j = flatten(sidx, s.shape);
        r.v.push_back(s.v[j]);
        r.p.push_back(s.p[j]);
        continue;
      }
      std::vector<SVal> args;
      for (int64_t k : idx)
        args.push_back(indexVal(k));
      auto ys = evalBody(body, args, idx);
      r.v.push_back(ys[0].first);
      r.p.push_back(ys[0].second);
    }
    env[pad] = r;
    return;
  }
  if (auto cc = dyn_cast<tensor::ConcatOp>(op)) {
    env[cc] = concatenate(operandsOf(op), cc.getDim());
    return;
  }
  unsupported("op '" + n + "'");
}

// TOSA 1.0 semantics of the elementwise and data-movement ops.
void Encoder::encodeTosa(Operation *op) {
  std::string n = op->getName().getStringRef().str().substr(5);
  Type rt = op->getResult(0).getType();
  Type elt = getElementTypeOrSelf(rt);
  Type inElt = op->getNumOperands() ? getElementTypeOrSelf(op->getOperand(0).getType())
                                    : elt;
  bool fl = isFloat(inElt);
  std::vector<SVal> ins = operandsOf(op);
  auto anyP = [&](const std::vector<z3::expr> &p) {
    z3::expr r = c.bool_val(false);
    for (const z3::expr &x : p)
      r = r || x;
    return r;
  };
  auto ew = [&](std::vector<SVal> xs,
                std::function<z3::expr(const std::vector<z3::expr> &)> f) {
    env[op->getResult(0)] = elementwise(
        xs, [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          return std::pair{f(v), anyP(p)};
        });
  };
  auto bin = [&](std::function<z3::expr(const z3::expr &, const z3::expr &)> f) {
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) { return f(v[0], v[1]); });
  };
  auto un = [&](std::function<z3::expr(const z3::expr &)> f) {
    ew({ins[0]}, [&](const std::vector<z3::expr> &v) { return f(v[0]); });
  };
  auto isZeroConst = [&](const SVal &s) {
    for (const z3::expr &e : s.v) {
      z3::expr x = e.simplify();
      uint64_t u;
      if (!(x.is_numeral_u64(u) && u == 0))
        return false;
    }
    return true;
  };
  auto nanMode = [&] { // true: PROPAGATE (the default)
    Attribute a = op->getAttr("nan_mode");
    std::string t;
    llvm::raw_string_ostream os(t);
    if (a)
      os << a;
    return t.find("IGNORE") == std::string::npos;
  };
  auto intAttr = [&](const char *name) {
    auto a = op->getAttrOfType<IntegerAttr>(name);
    if (!a)
      unsupported("tosa." + n + " without " + name);
    return a.getInt();
  };
  auto shapeOperand = [&](unsigned i) {
    std::vector<int64_t> s;
    for (const z3::expr &e : ins[i].v)
      s.push_back(concreteIndex(e));
    return s;
  };
  if (n == "const" || n == "const_shape") {
    Attribute a = op->getAttr("values");
    if (n == "const_shape") {
      auto d = cast<DenseElementsAttr>(a);
      SVal r;
      for (APInt v : d.getValues<APInt>()) {
        r.v.push_back(c.bv_val(uint64_t(v.getSExtValue()), 64));
        r.p.push_back(c.bool_val(false));
      }
      r.shape = {int64_t(r.v.size())};
      env[op->getResult(0)] = r;
      return;
    }
    env[op->getResult(0)] = constant(a, rt);
    return;
  }
  if (n == "add")
    return bin([&](auto &a, auto &b) { return fl ? fadd(a, b) : a + b; });
  if (n == "sub")
    return bin([&](auto &a, auto &b) { return fl ? fsub(a, b) : a - b; });
  if (n == "mul") {
    if (fl || isZeroConst(ins[2]))
      return bin([&](auto &a, auto &b) { return fl ? fmul(a, b) : a * b; });
    // i32 with a shift: the 64-bit product, rounded and shifted, must fit.
    int64_t shift = concreteIndex(z3::sext(ins[2].v[0], 56));
    return bin([&](auto &a, auto &b) {
      unsigned w = a.get_sort().bv_size();
      z3::expr prod = z3::sext(a, 64 - w) * z3::sext(b, 64 - w);
      if (shift > 0)
        prod = z3::ashr(prod + c.bv_val(uint64_t(1) << (shift - 1), 64),
                        c.bv_val(uint64_t(shift), 64));
      z3::expr r = prod.extract(w - 1, 0);
      ub = ub || z3::sext(r, 64 - w) != prod;
      return r;
    });
  }
  if (n == "maximum" || n == "minimum") {
    bool mx = n == "maximum";
    bool prop = nanMode();
    return bin([&](auto &a, auto &b) {
      return fl ? fmaxmin(a, b, mx, prop)
                : (mx ? z3::ite(a > b, a, b) : z3::ite(a < b, a, b));
    });
  }
  if (n == "intdiv") {
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) {
      unsigned w = v[1].get_sort().bv_size();
      ub = ub || v[1] == c.bv_val(0, w);
      return v[0] / v[1];
    });
    return;
  }
  if (n == "bitwise_and" || n == "logical_and")
    return bin([](auto &a, auto &b) { return a & b; });
  if (n == "bitwise_or" || n == "logical_or")
    return bin([](auto &a, auto &b) { return a | b; });
  if (n == "bitwise_xor" || n == "logical_xor")
    return bin([](auto &a, auto &b) { return a ^ b; });
  if (n == "bitwise_not" || n == "logical_not")
    return un([](auto &a) { return ~a; });
  if (n == "logical_left_shift" || n == "logical_right_shift" ||
      n == "arithmetic_right_shift") {
    bool round = n == "arithmetic_right_shift" &&
                 op->getAttrOfType<BoolAttr>("round") &&
                 op->getAttrOfType<BoolAttr>("round").getValue();
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) {
      unsigned w = v[1].get_sort().bv_size();
      ub = ub || z3::uge(v[1], c.bv_val(uint64_t(w), w));
      if (round) {
        // TOSA: add the last bit shifted out when the shift is positive.
        z3::expr zero = c.bv_val(0, w), one = c.bv_val(1, w);
        z3::expr bit = z3::ashr(v[0], v[1] - one) & one;
        return z3::ashr(v[0], v[1]) + z3::ite(v[1] > zero, bit, zero);
      }
      return n == "logical_left_shift"    ? z3::shl(v[0], v[1])
             : n == "logical_right_shift" ? z3::lshr(v[0], v[1])
                                          : z3::ashr(v[0], v[1]);
    });
    return;
  }
  if (n == "equal" || n == "greater" || n == "greater_equal") {
    using P = arith::CmpFPredicate;
    return bin([&](auto &a, auto &b) {
      if (fl)
        return boolToBv(fcmp(n == "equal" ? P::OEQ : n == "greater" ? P::OGT : P::OGE,
                             a, b));
      return boolToBv(n == "equal" ? a == b : n == "greater" ? a > b : a >= b);
    });
  }
  if (n == "abs")
    return un([&](auto &a) {
      return fl ? fabs(a)
                : z3::ite(a < c.bv_val(0, a.get_sort().bv_size()), -a, a);
    });
  if (n == "negate") {
    if (!fl && (!isZeroConst(ins[1]) || !isZeroConst(ins[2])))
      unsupported("tosa.negate with zero points");
    return un([&](auto &a) {
      if (fl)
        return fneg(a);
      // i8 and i16 negate in the i32 accumulator and clip: the minimum
      // saturates to the maximum (negate(negate(x)) is not x there).
      unsigned w = a.get_sort().bv_size();
      if (w >= 32)
        return -a;
      int64_t min = -(int64_t(1) << (w - 1));
      return z3::ite(a == c.bv_val(min, w), c.bv_val(-(min + 1), w), -a);
    });
  }
  if (n == "apply_scale")
    return applyScale(cast<tosa::ApplyScaleOp>(op), ins);
  if (n == "identity")
    return void(env[op->getResult(0)] = ins[0]);
  if (n == "reciprocal" && fl)
    return un([&](auto &a) {
      return fdiv(elemConst(FloatAttr::get(inElt, 1.0), inElt), a);
    });
  if (n == "exp" || n == "log" || n == "tanh" || n == "sigmoid" || n == "erf" ||
      n == "sin" || n == "cos" || n == "ceil" || n == "floor" ||
      n == "reciprocal" || n == "rsqrt" || n == "pow")
    return ew(std::vector<SVal>(ins.begin(), ins.begin() + (n == "pow" ? 2 : 1)),
              [&](const std::vector<z3::expr> &v) { return mathFn(n, v); });
  if (n == "clamp") {
    Attribute lo = op->getAttr("min_val"), hi = op->getAttr("max_val");
    z3::expr l = elemConst(lo, inElt), h = elemConst(hi, inElt);
    bool prop = nanMode();
    return un([&](auto &a) {
      if (fl)
        return fmaxmin(fmaxmin(a, l, true, prop), h, false, prop);
      return z3::ite(a < l, l, z3::ite(a > h, h, a));
    });
  }
  if (n == "select") {
    env[op->getResult(0)] = elementwise(
        {ins[0], ins[1], ins[2]},
        [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          z3::expr cnd = bvTrue(v[0]);
          return std::pair{z3::ite(cnd, v[1], v[2]),
                           p[0] || z3::ite(cnd, p[1], p[2])};
        });
    return;
  }
  if (n == "cast") {
    bool toF = isFloat(elt);
    return un([&](auto &a) -> z3::expr {
      if (fl && toF)
        return fcast(a, elt);
      if (!fl && toF)
        return intToFloat(a, elt, inElt.getIntOrFloatBitWidth() != 1);
      unsigned w = elt.getIntOrFloatBitWidth();
      if (fl) {
        if (w == 1)
          unsupported("tosa.cast float to i1");
        // Round to nearest even, saturate; NaN is undefined.
        z3::expr bad = c.bool_val(false);
        z3::expr r = floatToInt(a, w, true, true, bad);
        if (mode == FMode::Abstract)
          return r;
        z3::expr big = z3::expr(c, Z3_mk_fpa_is_positive(c, a));
        ub = ub || isNaN(a);
        z3::expr mx = c.bv_val((uint64_t(1) << (w - 1)) - 1, w),
                 mn = c.bv_val(uint64_t(1) << (w - 1), w);
        return z3::ite(bad, z3::ite(big, mx, mn), r);
      }
      unsigned from = a.get_sort().bv_size();
      if (w == 1)
        return boolToBv(a != c.bv_val(0, from));
      if (w <= from)
        return a.extract(w - 1, 0);
      return from == 1 ? z3::zext(a, w - from) : z3::sext(a, w - from);
    });
  }
  SVal &x = ins[0];
  if (n == "reshape") {
    SVal r = x;
    r.shape = shapeOperand(1);
    int64_t inferred = -1, known = 1;
    for (size_t k = 0; k < r.shape.size(); ++k)
      r.shape[k] == -1 ? inferred = int64_t(k) : known *= r.shape[k];
    if (inferred >= 0)
      r.shape[inferred] = known ? x.size() / known : 0;
    if (product(r.shape) != x.size())
      ub = c.bool_val(true);
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "transpose") {
    auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
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
    env[op->getResult(0)] = r;
    return;
  }
  auto gather = [&](std::vector<int64_t> shape,
                    std::function<std::vector<int64_t>(std::vector<int64_t>)> src) {
    SVal r;
    r.shape = shape;
    for (int64_t i = 0; i < product(shape); ++i) {
      auto s = src(unflatten(i, shape));
      for (size_t k = 0; k < s.size(); ++k)
        if (s[k] < 0 || s[k] >= x.shape[k]) {
          ub = c.bool_val(true);
          s[k] = 0;
        }
      int64_t j = flatten(s, x.shape);
      r.v.push_back(x.v[j]);
      r.p.push_back(x.p[j]);
    }
    env[op->getResult(0)] = r;
  };
  if (n == "slice") {
    auto start = shapeOperand(1), size = shapeOperand(2);
    return gather(size, [&](std::vector<int64_t> idx) {
      for (size_t k = 0; k < idx.size(); ++k)
        idx[k] += start[k];
      return idx;
    });
  }
  if (n == "pad") {
    auto padding = shapeOperand(1);
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
      r.v.push_back(inside ? x.v[j] : ins[2].v[0]);
      r.p.push_back(inside ? x.p[j] : ins[2].p[0]);
    }
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "reverse") {
    int64_t ax = intAttr("axis");
    return gather(x.shape, [&](std::vector<int64_t> idx) {
      idx[ax] = x.shape[ax] - 1 - idx[ax];
      return idx;
    });
  }
  if (n == "tile") {
    auto mult = shapeOperand(1);
    std::vector<int64_t> s = x.shape;
    for (size_t k = 0; k < s.size(); ++k)
      s[k] *= mult[k];
    return gather(s, [&](std::vector<int64_t> idx) {
      for (size_t k = 0; k < idx.size(); ++k)
        idx[k] %= x.shape[k];
      return idx;
    });
  }
  if (n == "concat") {
    env[op->getResult(0)] = concatenate(ins, intAttr("axis"));
    return;
  }
  if (n.rfind("reduce_", 0) == 0) {
    int64_t ax = intAttr("axis");
    std::string kind = n.substr(7);
    SVal r;
    r.shape = x.shape;
    r.shape[ax] = 1;
    bool prop = nanMode();
    for (int64_t i = 0; i < product(r.shape); ++i) {
      auto idx = unflatten(i, r.shape);
      std::vector<z3::expr> vs;
      z3::expr p = c.bool_val(false);
      for (int64_t k = 0; k < x.shape[ax]; ++k) {
        idx[ax] = k;
        int64_t j = flatten(idx, x.shape);
        vs.push_back(x.v[j]);
        p = p || x.p[j];
      }
      z3::expr acc = vs[0];
      if (kind == "sum" && fl) {
        vs.insert(vs.begin(), floatBits(0, cast<FloatType>(inElt)));
        acc = fsum(vs);
      } else {
        for (size_t k = 1; k < vs.size(); ++k) {
          const z3::expr &b = vs[k];
          if (kind == "sum")
            acc = acc + b;
          else if (kind == "prod")
            acc = fl ? fmul(acc, b) : acc * b;
          else if (kind == "max")
            acc = fl ? fmaxmin(acc, b, true, prop) : z3::ite(acc > b, acc, b);
          else if (kind == "min")
            acc = fl ? fmaxmin(acc, b, false, prop) : z3::ite(acc < b, acc, b);
          else if (kind == "any")
            acc = acc | b;
          else if (kind == "all")
            acc = acc & b;
          else
            unsupported("op 'tosa." + n + "'");
        }
      }
      r.v.push_back(acc);
      r.p.push_back(p);
    }
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "conv2d" || n == "depthwise_conv2d") {
    convolution(op, ins, n == "depthwise_conv2d");
    return;
  }
  if (n == "gather") {
    // values [N,K,C], indices [N,W]: out[n,w,c] = values[n, idx[n,w], c];
    // an index outside [0, K) is undefined behaviour (a TOSA REQUIRE), a
    // poison index poisons the row.
    const SVal &idx = ins[1];
    int64_t N = x.shape[0], K = x.shape[1], C = x.shape[2], W = idx.shape[1];
    unsigned iw = idx.v[0].get_sort().bv_size();
    SVal r;
    r.shape = {N, W, C};
    for (int64_t nn = 0; nn < N; ++nn)
      for (int64_t w = 0; w < W; ++w) {
        const z3::expr &i = idx.v[size_t(nn * W + w)];
        const z3::expr &bad = idx.p[size_t(nn * W + w)];
        ub = ub ||
             (!bad && (i < c.bv_val(0, iw) || i >= c.bv_val(uint64_t(K), iw)));
        for (int64_t ch = 0; ch < C; ++ch) {
          z3::expr v = x.v[size_t((nn * K + K - 1) * C + ch)];
          z3::expr p = x.p[size_t((nn * K + K - 1) * C + ch)];
          for (int64_t k = K - 2; k >= 0; --k) {
            size_t j = size_t((nn * K + k) * C + ch);
            z3::expr hit = i == c.bv_val(uint64_t(k), iw);
            v = z3::ite(hit, x.v[j], v);
            p = z3::ite(hit, x.p[j], p);
          }
          r.v.push_back(v);
          r.p.push_back(bad || p);
        }
      }
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "matmul") {
    if (!fl)
      unsupported("integer tosa.matmul");
    SVal &b = ins[1];
    int64_t N = x.shape[0], H = x.shape[1], C = x.shape[2], W = b.shape[2];
    SVal r;
    r.shape = {N, H, W};
    for (int64_t nn = 0; nn < N; ++nn)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          std::vector<z3::expr> ts{floatBits(0, cast<FloatType>(inElt))};
          z3::expr p = c.bool_val(false);
          for (int64_t k = 0; k < C; ++k) {
            int64_t ia = (nn * H + h) * C + k, ib = (nn * C + k) * W + w;
            ts.push_back(fmul(x.v[ia], b.v[ib]));
            p = p || x.p[ia] || b.p[ib];
          }
          z3::expr acc = fsum(ts);
          if (!z3::eq(acc.get_sort(), sortOf(elt)))
            acc = fcast(acc, elt);
          r.v.push_back(acc);
          r.p.push_back(p);
        }
    env[op->getResult(0)] = r;
    return;
  }
  unsupported("op 'tosa." + n + "'");
}

std::vector<SVal> Encoder::encodeCall(func::FuncOp f,
                                      const std::vector<SVal> &args, int depth) {
  if (depth > 8)
    unsupported("call depth above 8");
  if (f.isExternal())
    unsupported("call of external function @" + f.getSymName().str());
  Block &body = f.getBody().front();
  if (!llvm::hasSingleElement(f.getBody()))
    unsupported("function with several blocks");
  for (auto [a, v] : llvm::zip(body.getArguments(), args))
    env[a] = v;
  ++callDepth;
  for (Operation &op : body.without_terminator())
    encodeOp(&op);
  --callDepth;
  std::vector<SVal> outs;
  for (Value v : body.getTerminator()->getOperands())
    outs.push_back(get(v));
  return outs;
}

void Encoder::encodeOp(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  std::string n = op->getName().getStringRef().str();
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    env[cst] = constant(cst.getValue(), cst.getType());
    return;
  }
  if (dialect == "arith" || dialect == "math") {
    std::vector<SVal> ins = operandsOf(op);
    if (op->getNumResults() != 1)
      unsupported("op '" + n + "'");
    env[op->getResult(0)] = elementwise(
        ins, [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          return scalarOp(op, v, p);
        });
    return;
  }
  if (auto idx = dyn_cast<linalg::IndexOp>(op)) {
    if (!curPoint || idx.getDim() >= curPoint->size())
      unsupported("linalg.index outside a body");
    env[idx] = indexVal((*curPoint)[idx.getDim()]);
    return;
  }
  if (auto lop = dyn_cast<linalg::LinalgOp>(op))
    return encodeLinalg(lop);
  if (dialect == "tensor")
    return encodeTensor(op);
  if (dialect == "tosa")
    return encodeTosa(op);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto f = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    if (!f)
      unsupported("call of unknown function");
    auto outs = encodeCall(f, operandsOf(op), callDepth + 1);
    for (auto [r, v] : llvm::zip(call.getResults(), outs))
      env[r] = v;
    return;
  }
  unsupported("op '" + n + "'");
}

// TOSA's apply_scale_32 (an i32 value) or apply_scale_16 (i48), as the
// reference computes it (core/ops/Indexing.h): a failed REQUIRE (negative
// multiplier, shift outside [2, 62], an i32 value outside the range the
// shift allows, a result outside i32) is poison. In 96 bits, where the
// product of an i48 value and an i32 multiplier fits.
// Float tosa.conv2d (weights [O,KH,KW,C]) and tosa.depthwise_conv2d
// (weights [KH,KW,C,M], output channel c*M+m): in acc_type, the bias plus
// every tap's product as one reassociable sum, cast to the result type.
// Padding taps multiply a zero input (TOSA allows these extra multiplies;
// tosa-to-linalg pads the input with its zero point), so that a non-finite
// weight there gives NaN as in the lowering.
void Encoder::convolution(Operation *op, const std::vector<SVal> &ins,
                          bool depthwise) {
  std::string n = op->getName().getStringRef().str();
  Type inElt = getElementTypeOrSelf(op->getOperand(0).getType());
  Type elt = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isFloat(inElt))
    unsupported("integer " + n);
  for (unsigned zp : {3u, 4u}) {
    auto zt =
        cast<FloatType>(getElementTypeOrSelf(op->getOperand(zp).getType()));
    z3::expr zero = floatBits(0, zt).simplify();
    for (const z3::expr &e : ins.at(zp).v)
      if (!z3::eq(e.simplify(), zero))
        unsupported(n + " with a non-zero or unknown zero point");
  }
  Type acc = inElt;
  if (auto a = op->getAttrOfType<TypeAttr>("acc_type"))
    acc = a.getValue();
  auto ints = [&](const char *name) {
    auto a = op->getAttrOfType<DenseI64ArrayAttr>(name);
    if (!a)
      unsupported(n + " without " + name);
    return std::vector<int64_t>(a.asArrayRef().begin(), a.asArrayRef().end());
  };
  std::vector<int64_t> pad = ints("pad"), stride = ints("stride"),
                       dil = ints("dilation");
  const SVal &x = ins[0], &w = ins[1], &bias = ins[2];
  const std::vector<int64_t> &xs = x.shape, &ws = w.shape;
  int64_t KH = depthwise ? ws[0] : ws[1], KW = depthwise ? ws[1] : ws[2];
  int64_t M = depthwise ? ws[3] : 1;
  auto rt = cast<ShapedType>(op->getResult(0).getType());
  std::vector<int64_t> os(rt.getShape().begin(), rt.getShape().end());
  z3::expr zero = floatBits(0, cast<FloatType>(inElt));
  SVal r;
  r.shape = os;
  for (int64_t i = 0; i < product(os); ++i) {
    std::vector<int64_t> o = unflatten(i, os);
    int64_t oc = o[3];
    size_t b = size_t(bias.size() == 1 ? 0 : oc);
    std::vector<z3::expr> terms{fcast(bias.v[b], acc)};
    z3::expr p = bias.p[b];
    for (int64_t ky = 0; ky < KH; ++ky)
      for (int64_t kx = 0; kx < KW; ++kx) {
        int64_t iy = o[1] * stride[0] + ky * dil[0] - pad[0];
        int64_t ix = o[2] * stride[1] + kx * dil[1] - pad[2];
        bool inside = iy >= 0 && iy < xs[1] && ix >= 0 && ix < xs[2];
        int64_t channels = depthwise ? 1 : xs[3];
        for (int64_t ch = 0; ch < channels; ++ch) {
          int64_t ic = depthwise ? oc / M : ch;
          size_t wj =
              size_t(depthwise ? ((ky * KW + kx) * xs[3] + ic) * M + oc % M
                               : ((oc * KH + ky) * KW + kx) * xs[3] + ch);
          z3::expr xv = zero;
          if (inside) {
            size_t xj = size_t(((o[0] * xs[1] + iy) * xs[2] + ix) * xs[3] + ic);
            xv = x.v[xj];
            p = p || x.p[xj];
          }
          p = p || w.p[wj];
          terms.push_back(fmul(fcast(xv, acc), fcast(w.v[wj], acc)));
        }
      }
    r.v.push_back(fcast(fsum(terms), elt));
    r.p.push_back(p);
  }
  env[op->getResult(0)] = r;
}

void Encoder::applyScale(tosa::ApplyScaleOp op, const std::vector<SVal> &ins) {
  if (op.getRoundingMode() == tosa::RoundingMode::INEXACT_ROUND)
    unsupported("tosa.apply_scale with INEXACT_ROUND (not one value)");
  const bool doubleRound =
      op.getRoundingMode() == tosa::RoundingMode::DOUBLE_ROUND;
  const unsigned w = 96;
  auto k = [&](int64_t v) { return c.bv_val(v, w); };
  env[op.getResult()] = elementwise(ins, [&](const std::vector<z3::expr> &a,
                                             const std::vector<z3::expr> &pa) {
    auto wide = [&](const z3::expr &x) {
      return z3::sext(x, w - x.get_sort().bv_size());
    };
    z3::expr value = wide(a[0]), mult = wide(a[1]), shift = wide(a[2]);
    z3::expr half = z3::shl(k(1), shift - k(1));
    z3::expr bad = mult < k(0) || shift < k(2) || shift > k(62);
    if (a[0].get_sort().bv_size() == 32)
      bad = bad || value < -half || value >= half;
    z3::expr round = half;
    if (doubleRound)
      round = z3::ite(shift > k(31),
                      z3::ite(value >= k(0), half + k(int64_t(1) << 30),
                              half - k(int64_t(1) << 30)),
                      half);
    z3::expr r = z3::ashr(value * mult + round, shift);
    bad = bad || r < k(INT32_MIN) || r > k(INT32_MAX);
    z3::expr p = bad;
    for (const z3::expr &x : pa)
      p = p || x;
    return std::pair{r.extract(31, 0), p};
  });
}

// ---- counterexamples ------------------------------------------------------
std::optional<DType> dtypeOf(Type t) {
  t = getElementTypeOrSelf(t);
  if (t.isF32())
    return DType::f32;
  if (t.isF16())
    return DType::f16;
  if (t.isBF16())
    return DType::bf16;
  if (t.isF64())
    return DType::f64;
  if (auto it = dyn_cast<IntegerType>(t))
    return parseDType("i" + std::to_string(it.getWidth()));
  return std::nullopt;
}

// The concrete value of a model term, as a double (floats) or integer.
using Eval = std::function<z3::expr(const z3::expr &)>;
double modelValue(const Eval &eval, const z3::expr &e, Type elt, z3::context &c) {
  if (e.get_sort().is_fpa()) {
    z3::expr bits = eval(z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, e)));
    z3::expr nan = eval(z3::expr(c, Z3_mk_fpa_is_nan(c, e)));
    if (nan.is_true())
      return std::nan("");
    uint64_t b = bits.get_numeral_uint64();
    if (elt.isF16())
      return f16BitsToF64(uint16_t(b));
    if (elt.isBF16())
      return bf16BitsToF64(uint16_t(b));
    if (elt.isF32()) {
      uint32_t u = uint32_t(b);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  }
  z3::expr v = eval(e);
  uint64_t u = 0;
  if (!v.is_numeral_u64(u))
    return std::nan("");
  unsigned w = e.get_sort().bv_size();
  if (w == 1)
    return double(u);
  int64_t s = w == 64 ? int64_t(u) : int64_t(u << (64 - w)) >> (64 - w);
  return double(s);
}

std::string fmtValue(double d) {
  std::ostringstream os;
  os.precision(d == std::floor(d) && std::abs(d) < 1e19 ? 20 : 9);
  os << d;
  return os.str();
}

// ---- disk cache ----------------------------------------------------------------
std::string cachePath(const TvOptions &o, const std::string &query) {
  if (o.cacheDir.empty())
    return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zx", std::hash<std::string>{}(query));
  return o.cacheDir + "/" + buf + ".unsat";
}

struct Attempt {
  Attempt(TvVerdict v, std::string r, std::string cex = "")
      : verdict(v), reason(std::move(r)), counterexample(std::move(cex)) {}
  TvVerdict verdict;
  std::string reason, counterexample;
  bool needsRefinement = false;
  bool vacuous = false; // the source is always undefined
};

// Tries a few simple concrete inputs (small integers, ±0, ±1, Inf, NaN
// mixed over the elements): a concrete formula is solved by propagation, so
// an obvious counterexample costs milliseconds instead of a search. Leaves
// the solver holding the satisfying assignment, if any.
bool probe(z3::context &c, const std::vector<SVal> &args, const z3::expr &bad,
           z3::expr_vector &vars, z3::expr_vector &vals) {
  // The first tries use one small value everywhere (shift amounts and
  // divisors stay defined), later ones mix edge values.
  static const int64_t kInts[] = {1, 2, 3, 0, -1, 7, -3, 100};
  static const double kFloats[] = {1.5, 2.5, -2.0, 0.0, -0.0, 0.5,
                                   INFINITY, -1.0, NAN, 1e30};
  for (int t = 0; t < 8; ++t) {
    z3::expr_vector xs(c), ys(c);
    int64_t i = 0;
    for (const SVal &a : args)
      for (const z3::expr &v : a.v) {
        ++i;
        z3::sort so = v.get_sort();
        xs.push_back(v);
        if (so.is_bv())
          ys.push_back(c.bv_val(uint64_t(kInts[t < 3 ? t : (i * 3 + t) % 8]), so.bv_size()));
        else if (so.is_fpa())
          ys.push_back(z3::expr(
              c, Z3_mk_fpa_numeral_double(c, kFloats[t < 3 ? t : (i * 3 + t) % 10], so)));
        else
          return false;
      }
    z3::expr e = bad;
    if (e.substitute(xs, ys).simplify().is_true()) {
      vars = xs;
      vals = ys;
      return true;
    }
  }
  return false;
}

// Checks `pre && d` for each disjunct d within `totalMs`; leaves the solver
// holding the satisfiable one (for its model).
z3::check_result decompose(z3::solver &s, const z3::expr &pre,
                           const std::vector<z3::expr> &disj, unsigned totalMs,
                           std::string &unknownWhy) {
  auto t0 = std::chrono::steady_clock::now();
  z3::check_result res = z3::unsat;
  for (const z3::expr &d : disj) {
    if (d.simplify().is_false())
      continue;
    double used = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    if (used >= totalMs) {
      unknownWhy = "timeout";
      return z3::unknown;
    }
    z3::params prm(s.ctx());
    prm.set("timeout", unsigned(totalMs - used));
    s.set(prm);
    s.push();
    s.add(pre && d);
    z3::check_result r = s.check();
    if (r == z3::sat)
      return r;
    if (r == z3::unknown) {
      res = z3::unknown;
      unknownWhy = s.reason_unknown();
    }
    s.pop();
  }
  return res;
}

// Gives a function with dynamic tensor arguments and results the static
// shapes of a counterexample (tensor.cast at the boundary), so the JIT can
// run it.
void specialize(func::FuncOp f, const std::vector<std::vector<int64_t>> &args,
                const std::vector<std::vector<int64_t>> &results) {
  Block &entry = f.getBody().front();
  OpBuilder b(f.getContext());
  b.setInsertionPointToStart(&entry);
  std::vector<Type> ins, outs;
  for (auto [arg, shape] : llvm::zip(entry.getArguments(), args)) {
    auto rt = dyn_cast<RankedTensorType>(arg.getType());
    if (!rt || rt.hasStaticShape()) {
      ins.push_back(arg.getType());
      continue;
    }
    auto st = RankedTensorType::get(shape, rt.getElementType());
    auto cst = tensor::CastOp::create(b, f.getLoc(), rt, arg);
    arg.replaceAllUsesExcept(cst, cst);
    arg.setType(st);
    ins.push_back(st);
  }
  Operation *ret = entry.getTerminator();
  b.setInsertionPoint(ret);
  for (auto [i, shape] : llvm::enumerate(results)) {
    Value v = ret->getOperand(i);
    auto rt = dyn_cast<RankedTensorType>(v.getType());
    if (rt && !rt.hasStaticShape()) {
      auto st = RankedTensorType::get(shape, rt.getElementType());
      ret->setOperand(i, tensor::CastOp::create(b, f.getLoc(), st, v));
    }
    outs.push_back(ret->getOperand(i).getType());
  }
  f.setType(FunctionType::get(f.getContext(), ins, outs));
}

// Turns the float tensor constants that feed only elementwise ops into
// arguments (their values appended to `extra`): the lowering pipeline that
// replays a counterexample must not fold them (its folders may be the bug).
void liftConstants(func::FuncOp f, Inputs &extra) {
  static const llvm::StringSet<> kElementwise = {
      "tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum", "tosa.minimum",
      "tosa.pow", "tosa.equal", "tosa.greater", "tosa.greater_equal",
      "tosa.select", "arith.addf", "arith.subf", "arith.mulf", "arith.divf"};
  std::vector<Operation *> consts;
  f.walk([&](Operation *op) {
    if (op->getParentOp() != f.getOperation() || op->getNumResults() != 1)
      return;
    StringRef n = op->getName().getStringRef();
    if (n != "tosa.const" && n != "arith.constant")
      return;
    auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!rt || !rt.hasStaticShape() || !isa<FloatType>(rt.getElementType()) ||
        !dtypeOf(rt))
      return;
    for (OpOperand &use : op->getResult(0).getUses()) {
      StringRef u = use.getOwner()->getName().getStringRef();
      if (!kElementwise.contains(u) || (u == "tosa.mul" && use.getOperandNumber() > 1))
        return;
    }
    consts.push_back(op);
  });
  for (Operation *op : consts) {
    auto rt = cast<RankedTensorType>(op->getResult(0).getType());
    auto dense = dyn_cast_or_null<DenseElementsAttr>(
        op->getAttr(op->getName().getStringRef() == "tosa.const" ? "values" : "value"));
    if (!dense)
      continue;
    Tensor t(*dtypeOf(rt), Shape(rt.getShape().begin(), rt.getShape().end()));
    int64_t k = 0;
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      t.setF(k++, v.convertToDouble());
    }
    unsigned idx = f.getNumArguments();
    if (failed(f.insertArgument(idx, rt, DictionaryAttr(), op->getLoc())))
      continue;
    op->getResult(0).replaceAllUsesWith(f.getArgument(idx));
    op->erase();
    extra.push_back(std::move(t));
  }
}

// Replays the counterexample `inputs` through the JIT: true/false when both
// functions ran (whether they differ at `mask`), nullopt with `why` if not.
std::optional<bool> replay(func::FuncOp src, func::FuncOp tgt,
                           const Inputs &inputs,
                           const std::vector<std::vector<int64_t>> &resShapes,
                           const std::vector<std::vector<bool>> &mask,
                           std::string &why) {
  std::vector<TensorType> resTypes;
  for (auto [t, shape] : llvm::zip(src.getFunctionType().getResults(), resShapes)) {
    auto dt = dtypeOf(t);
    if (!isa<RankedTensorType>(t) || !dt) {
      why = "results are not tensors";
      return std::nullopt;
    }
    resTypes.push_back(TensorType{*dt, Shape(shape)});
  }
  std::vector<std::vector<int64_t>> argShapes;
  for (const Tensor &t : inputs)
    argShapes.push_back(t.shape());
  auto printModule = [&](func::FuncOp f, Inputs &ins) {
    OwningOpRef<ModuleOp> m(
        cast<ModuleOp>(f->getParentOfType<ModuleOp>()->clone()));
    auto g = m->lookupSymbol<func::FuncOp>(f.getSymName());
    specialize(g, argShapes, resShapes);
    liftConstants(g, ins);
    std::string s;
    llvm::raw_string_ostream os(s);
    m->print(os);
    return s;
  };
  Inputs srcIns = inputs, tgtIns = inputs;
  std::string srcText = printModule(src, srcIns),
              tgtText = printModule(tgt, tgtIns);
  Expected<NamedPipeline> pl = replayPipeline();
  if (!pl) {
    why = pl.error().message();
    return std::nullopt;
  }
  RunOptions ro;
  ro.timeoutSeconds = 20;
  auto a = runMlirModule(srcText, src.getSymName().str(), resTypes, srcIns,
                         pl->pipeline, pl->llvmOptLevel, ro);
  if (!a) {
    why = "source did not run: " + a.error().message().substr(0, 300);
    return std::nullopt;
  }
  auto b = runMlirModule(tgtText, tgt.getSymName().str(), resTypes, tgtIns,
                         pl->pipeline, pl->llvmOptLevel, ro);
  if (!b) {
    why = "target did not run: " + b.error().message().substr(0, 300);
    return std::nullopt;
  }
  for (size_t r = 0; r < a->size(); ++r)
    for (int64_t i = 0; i < (*a)[r].size(); ++i) {
      if (r < mask.size() && size_t(i) < mask[r].size() && !mask[r][i])
        continue;
      double x = (*a)[r].asDouble(i), y = (*b)[r].asDouble(i);
      bool same = (std::isnan(x) && std::isnan(y)) ||
                  (x == y && std::signbit(x) == std::signbit(y));
      if (!same)
        return true;
    }
  return false;
}

Attempt attempt(func::FuncOp src, func::FuncOp tgt, FMode mode,
                const TvOptions &o) {
  z3::context c;
  Encoder es(c, mode, o), et(c, mode, o);
  std::vector<SVal> args;
  auto argTypes = src.getFunctionType().getInputs();
  for (size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(es.fresh("arg" + std::to_string(i), argTypes[i]));
  std::vector<SVal> os, ot;
  try {
    os = es.encodeCall(src, args, 0);
  } catch (const EncodeFailure &f) {
    return {TvVerdict::Unknown, "unsupported in source: " + f.reason};
  }
  try {
    ot = et.encodeCall(tgt, args, 0);
  } catch (const EncodeFailure &f) {
    return {TvVerdict::Unknown, "unsupported in target: " + f.reason};
  }
  // A counterexample: the source is defined, and the target is undefined or
  // differs at an element where the source is not poison.
  std::vector<z3::expr> disj{et.ub};
  std::string shapeNote;
  for (size_t r = 0; r < os.size(); ++r) {
    if (os[r].shape != ot[r].shape) {
      disj.push_back(c.bool_val(true));
      shapeNote = "result " + std::to_string(r) + " has a different shape";
      continue;
    }
    for (int64_t i = 0; i < os[r].size(); ++i)
      disj.push_back(!os[r].p[i] && (ot[r].p[i] || os[r].v[i] != ot[r].v[i]));
  }
  z3::expr bad = c.bool_val(false);
  for (const z3::expr &d : disj)
    bad = bad || d;
  z3::solver s(c);
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  s.set(prm);
  s.add(!es.ub && bad);
  std::string key = cachePath(o, std::string(mode == FMode::Abstract ? "A" : "I") +
                                     s.to_smt2());
  std::vector<std::string> notes;
  if (es.usedDynamic || et.usedDynamic) {
    std::string sz;
    for (int64_t d : o.dynamicSizes)
      sz += (sz.empty() ? "" : ",") + std::to_string(d);
    notes.push_back("dynamic dimensions instantiated with sizes " + sz);
  }
  if (es.usedReassoc || et.usedReassoc)
    notes.push_back("correct up to reassociation of float sums");
  if (es.usedUf || et.usedUf)
    notes.push_back("math functions uninterpreted");
  auto joined = [&] {
    std::string r;
    for (auto &x : notes)
      r += (r.empty() ? "" : "; ") + x;
    return r;
  };
  z3::check_result res;
  std::string unknownWhy;
  z3::expr_vector probeVars(c), probeVals(c);
  bool probed = mode == FMode::Ieee &&
                probe(c, args, !es.ub && bad, probeVars, probeVals);
  if (probed) {
    res = z3::sat; // a probe input is a counterexample: no search needed
  } else if (!key.empty() && std::filesystem::exists(key)) {
    res = z3::unsat;
    notes.push_back("cached");
  } else if (mode == FMode::Ieee && disj.size() <= 1024) {
    // IEEE queries are much faster one output element at a time: the
    // disjunction is unsatisfiable iff each disjunct is.
    res = decompose(s, !es.ub, disj, o.timeoutMs, unknownWhy);
  } else {
    res = s.check();
    if (res == z3::unknown)
      unknownWhy = s.reason_unknown();
  }
  if (res == z3::unsat) {
    if (!z3::expr(es.ub).simplify().is_false()) {
      z3::solver v(c);
      v.set(prm);
      v.add(!es.ub);
      if (v.check() == z3::unsat) {
        Attempt a{TvVerdict::Unknown,
                  "vacuous: the source is undefined for every input"};
        a.vacuous = true;
        return a;
      }
    }
    if (!key.empty())
      std::ofstream(key) << "unsat\n";
    return {TvVerdict::Correct, joined()};
  }
  if (res == z3::unknown) {
    std::string why = unknownWhy;
    if (why.find("timeout") != std::string::npos ||
        why.find("canceled") != std::string::npos)
      return {TvVerdict::Timeout, "solver timeout after " +
                                      std::to_string(o.timeoutMs) + " ms"};
    return {TvVerdict::Unknown, "solver: " + why};
  }
  unsigned fops = es.floatOps + et.floatOps;
  if (mode == FMode::Abstract) {
    if (fops > 2 * o.maxFpOps)
      return {TvVerdict::Unknown,
              "abstract floats found a counterexample; too many float "
              "operations (" + std::to_string(fops) + ") to refine"};
    Attempt a{TvVerdict::Unknown, "abstract counterexample"};
    a.needsRefinement = true;
    return a;
  }
  // A concrete counterexample.
  Eval eval;
  std::optional<z3::model> model;
  if (probed) {
    eval = [&](const z3::expr &e) {
      z3::expr x = e;
      return x.substitute(probeVars, probeVals).simplify();
    };
  } else {
    model = s.get_model();
    eval = [&](const z3::expr &e) { return model->eval(e, true); };
  }
  std::ostringstream cex;
  Inputs inputs;
  bool replayable = true;
  for (size_t i = 0; i < args.size(); ++i) {
    Type t = argTypes[i];
    auto dt = dtypeOf(t);
    auto rt = dyn_cast<RankedTensorType>(t);
    cex << "  %arg" << i << " = [";
    Tensor tensor;
    bool fill = dt && rt;
    if (fill)
      tensor = Tensor(*dt, Shape(args[i].shape));
    else
      replayable = false;
    for (int64_t k = 0; k < args[i].size(); ++k) {
      double d = modelValue(eval, args[i].v[k], getElementTypeOrSelf(t), c);
      cex << (k ? ", " : "") << fmtValue(d);
      if (fill)
        isFloat(*dt) ? tensor.setF(k, d) : tensor.setI(k, int64_t(d));
    }
    cex << "]\n";
    inputs.push_back(std::move(tensor));
  }
  std::vector<std::vector<bool>> mask;
  Type anyRes = src.getFunctionType().getNumResults()
                    ? src.getFunctionType().getResult(0)
                    : Type();
  for (size_t r = 0; r < os.size(); ++r) {
    Type elt = getElementTypeOrSelf(src.getFunctionType().getResult(r));
    mask.emplace_back();
    std::string sv, tv;
    for (int64_t i = 0; i < os[r].size(); ++i) {
      bool poison = eval(os[r].p[i]).is_true();
      mask.back().push_back(!poison);
      sv += (i ? ", " : "") +
            (poison ? std::string("poison") : fmtValue(modelValue(eval, os[r].v[i], elt, c)));
    }
    for (int64_t i = 0; i < ot[r].size(); ++i) {
      bool poison = eval(ot[r].p[i]).is_true();
      tv += (i ? ", " : "") +
            (poison ? std::string("poison") : fmtValue(modelValue(eval, ot[r].v[i], elt, c)));
    }
    cex << "  source result " << r << " = [" << sv << "]\n";
    cex << "  target result " << r << " = [" << tv << "]\n";
  }
  (void)anyRes;
  if (eval(et.ub).is_true())
    cex << "  the target has undefined behaviour\n";
  if (!shapeNote.empty())
    cex << "  " << shapeNote << "\n";
  if (!o.confirm)
    return {TvVerdict::Incorrect, "counterexample not replayed (--no-confirm)",
            cex.str()};
  std::string why;
  std::optional<bool> differs;
  if (!replayable)
    why = "arguments are not tensors";
  else {
    std::vector<std::vector<int64_t>> shapes;
    for (const SVal &r : os)
      shapes.push_back(r.shape);
    differs = replay(src, tgt, inputs, shapes, mask, why);
  }
  if (differs && *differs)
    return {TvVerdict::Incorrect, "counterexample confirmed by execution",
            cex.str()};
  if (differs)
    return {TvVerdict::Unknown,
            "spurious counterexample (both sides agree when executed)",
            cex.str()};
  return {TvVerdict::Unknown, "counterexample not confirmed: " + why, cex.str()};
}

// A copy of `f` in its own module (with the functions it may call) whose
// named linalg ops are generalized: their generic form is their definition.
OwningOpRef<ModuleOp> generalizedCopy(func::FuncOp f) {
  ModuleOp parent = f->getParentOfType<ModuleOp>();
  OwningOpRef<ModuleOp> m(cast<ModuleOp>(parent->clone()));
  IRRewriter rewriter(f.getContext());
  m->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op.getOperation()))
      return;
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  });
  return m;
}

} // namespace

std::string signatureMismatch(func::FuncOp src, func::FuncOp tgt) {
  if (src.getFunctionType() == tgt.getFunctionType())
    return "";
  std::string a, b;
  llvm::raw_string_ostream as(a), bs(b);
  as << src.getFunctionType();
  bs << tgt.getFunctionType();
  return "@" + src.getSymName().str() + " has type " + a +
         " in the source but " + b + " in the target";
}

FunctionCheck checkFunctionPair(func::FuncOp src, func::FuncOp tgt,
                                const TvOptions &o) {
  auto t0 = std::chrono::steady_clock::now();
  FunctionCheck r;
  r.function = src.getSymName().str();
  auto finish = [&](Attempt a) {
    r.verdict = a.verdict;
    r.reason = a.reason;
    r.counterexample = a.counterexample;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                    .count();
    return r;
  };
  auto gs = generalizedCopy(src), gt = generalizedCopy(tgt);
  auto fs = gs->lookupSymbol<func::FuncOp>(src.getSymName());
  auto ft = gt->lookupSymbol<func::FuncOp>(tgt.getSymName());
  bool hasFloat = false;
  for (func::FuncOp f : {fs, ft})
    f.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        hasFloat |= Encoder::isFloat(t);
      for (Type t : op->getOperandTypes())
        hasFloat |= Encoder::isFloat(t);
    });
  try {
    // Dynamic sizes that make the source undefined everywhere (a dimension
    // that must be 1) are retried with unit sizes.
    TvOptions square = o, unit = o;
    square.dynamicSizes = {2};
    unit.dynamicSizes = {1};
    std::vector<const TvOptions *> tries{&o, &square, &unit};
    for (const TvOptions *opts : tries) {
      if (hasFloat) {
        Attempt a = attempt(fs, ft, FMode::Abstract, *opts);
        if (a.vacuous && opts != tries.back())
          continue;
        if (!a.needsRefinement)
          return finish(a);
      }
      // Replay runs the generalized copies: same semantics as the originals.
      Attempt a = attempt(fs, ft, FMode::Ieee, *opts);
      if (a.vacuous && opts != tries.back())
        continue;
      return finish(a);
    }
    return finish({TvVerdict::Unknown, "vacuous"});
  } catch (const EncodeFailure &f) {
    return finish({TvVerdict::Unknown, "unsupported: " + f.reason});
  } catch (const z3::exception &e) {
    return finish({TvVerdict::Unknown, std::string("z3: ") + e.msg()});
  }
}

} // namespace cc::smt
