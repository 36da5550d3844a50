// The encoder of MLIR functions into Z3 terms, shared by the translation
// units of cc_smt that include Z3: Encode.cpp (arith, math, linalg, tensor,
// tosa, func), EncodeMemref.cpp (memref, bufferization, affine) and
// Refine.cpp (the refinement query, counterexamples and their replay).
//
// Values are tensors of per-element terms (scalars are 0-d): static shapes,
// dynamic dimensions instantiated with small sizes. Integers are bit-vectors
// with exact semantics; every element carries a poison bit and the function
// an undefined-behaviour bit. Floats are first abstract (an uninterpreted
// sort; commutative operations take their operands in a canonical order and
// float sums of reductions are multisets, so reassociation is modelled), then
// Z3's IEEE theory when the abstract check finds a counterexample.
#pragma once

#include "smt/Internal.h"

#include "backends/mlir/Internal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/DenseMap.h"

#include <z3++.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace cc::smt::detail {

using namespace mlir;

// Thrown by the encoder only, caught by checkFunctionPair: an op or type
// the encoding does not cover becomes `unknown` with this reason.
struct EncodeFailure {
  std::string reason;
};
[[noreturn]] inline void unsupported(const std::string &reason) {
  throw EncodeFailure{reason};
}
using mlirbackend::str;

// TOSA's nan_mode: PROPAGATE (the default) or IGNORE.
inline bool propagatesNaN(Operation *op) {
  Attribute a = op->getAttr("nan_mode");
  std::string t;
  llvm::raw_string_ostream os(t);
  if (a)
    os << a;
  return t.find("IGNORE") == std::string::npos;
}

enum class FMode { Abstract, Ieee };

// A value: row-major elements with their poison bits; rank 0 for scalars.
struct SVal {
  std::vector<int64_t> shape;
  std::vector<z3::expr> v, p;
  // A memref argument: the array (index -> element) its elements select
  // from, so that symbolic loads stay one select.
  std::optional<z3::expr> array;
  int64_t size() const { return int64_t(v.size()); }
};

// A block of memory (an argument buffer, an allocation, a global, the
// storage of a tensor): arrays from a 64-bit element index to the element
// and to its poison bit (uninitialized memory is poison).
struct MemBlock {
  z3::expr v, p;
  int64_t size;
  bool writable;
  bool live = true;   // false after memref.dealloc
  bool owned = false; // allocated by the function (alloc/alloca): freeable
};
// A memref: a strided view into a block, in elements. Sizes may be symbolic
// (a subview of dynamic size) until an op needs to iterate over them.
struct MemRef {
  int block;
  z3::expr offset;
  std::vector<z3::expr> sizes, strides;
};

inline int64_t product(const std::vector<int64_t> &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}
inline std::vector<int64_t> unflatten(int64_t i, const std::vector<int64_t> &s) {
  std::vector<int64_t> idx(s.size());
  for (int64_t k = int64_t(s.size()) - 1; k >= 0; --k) {
    idx[k] = s[k] ? i % s[k] : 0;
    i = s[k] ? i / s[k] : 0;
  }
  return idx;
}
inline int64_t flatten(const std::vector<int64_t> &idx, const std::vector<int64_t> &s) {
  int64_t i = 0;
  for (size_t k = 0; k < s.size(); ++k)
    i = i * s[k] + idx[k];
  return i;
}

// Bounds of the per-element encoding: elements of one value, and points of
// one linalg iteration space (each point evaluates the body once).
constexpr int64_t kMaxElements = 1 << 16;
constexpr int64_t kMaxIterations = 1 << 18;

// tensor.concat and tosa.concat: the inputs one after another along `dim`.
inline SVal concatenate(const std::vector<SVal> &ins, int64_t dim) {
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
      // Dense and sparse elements alike.
      auto elems = dyn_cast<ElementsAttr>(a);
      if (!elems)
        unsupported("tensor constant " + str(ty) + " without elements");
      int64_t n = product(r.shape);
      if (n > kMaxElements)
        unsupported("tensor constant too large");
      if (elems.isSplat()) {
        z3::expr e = elemConst(elems.getSplatValue<Attribute>(), elt);
        r.v.assign(n, e);
      } else {
        auto values = elems.tryGetValues<Attribute>();
        if (!values)
          unsupported("tensor constant whose elements cannot be read");
        for (Attribute x : *values)
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
    if (mode == FMode::Abstract && (sumLeaves(a) || sumLeaves(b)))
      return fsum({a, b});
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
  // IEEE roundToIntegral. Z3 (4.8.12) fails on formats whose significand
  // is not at least two bits longer than the exponent (bf16: "invalid
  // zero_extend application"): those round in the format with two more
  // significand bits, which holds every value exactly, and convert back,
  // exactly too (an integral value of a format is representable in it).
  z3::expr roundToIntegral(const z3::expr &rm, const z3::expr &a) {
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
      return roundToIntegral(z3::expr(c, it->second(c)), args[0]);
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
  z3::expr floatToInt(const z3::expr &a, unsigned w, bool isSigned,
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
    z3::expr rd = z3::expr(c, Z3_mk_fpa_to_fp_float(c, rne(), r, c.fpa_sort(11, 53)));
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
  z3::expr fsum(const std::vector<z3::expr> &in) {
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
    std::sort(terms.begin(), terms.end(),
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
  // The abstract sums built so far and their terms, by the id of the sum
  // (the sum is kept alive so that Z3 does not give its id to another term).
  std::unordered_map<unsigned, std::pair<z3::expr, std::vector<z3::expr>>>
      sumTerms;
  const std::vector<z3::expr> *sumLeaves(const z3::expr &t) const {
    auto it = sumTerms.find(t.id());
    return it != sumTerms.end() && z3::eq(it->second.first, t)
               ? &it->second.second
               : nullptr;
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
    auto mt = dyn_cast<MemRefType>(t);
    if (mt && !mt.getLayout().isIdentity())
      unsupported("argument type " + str(t) + " (not the identity layout)");
    auto rt = mt ? cast<ShapedType>(mt) : dyn_cast<RankedTensorType>(t);
    if (rt) {
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
    if (isa<MemRefType>(t))
      r.array = c.constant(prefix.c_str(), c.array_sort(c.bv_sort(64), s));
    for (int64_t i = 0; i < n; ++i) {
      r.v.push_back(r.array ? z3::select(*r.array, c.bv_val(uint64_t(i), 64))
                            : c.constant((prefix + "_" + std::to_string(i)).c_str(), s));
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
    // A body inside a body (a pad in a linalg body) restores the outer point.
    const std::vector<int64_t> *outer = curPoint;
    curPoint = &point;
    for (Operation &op : body.without_terminator())
      encodeOp(&op);
    std::vector<std::pair<z3::expr, z3::expr>> out;
    for (Value y : body.getTerminator()->getOperands()) {
      SVal &s = get(y);
      out.push_back({s.v[0], s.p[0]});
    }
    curPoint = outer;
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

  // Memref operands give an empty value (their view is in `refs`).
  std::vector<SVal> operandsOf(Operation *op) {
    std::vector<SVal> r;
    for (Value v : op->getOperands())
      r.push_back(isa<MemRefType>(v.getType()) ? SVal{} : get(v));
    return r;
  }

  // ---- memory (EncodeMemref.cpp) ---------------------------------------------
  std::vector<MemBlock> mem;
  llvm::DenseMap<Value, MemRef> refs;
  std::map<unsigned, int> argBlocks; // memref argument -> its block
  std::map<std::string, int> globals; // memref.global -> its block
  MemRef &ref(Value v) {
    auto it = refs.find(v);
    if (it == refs.end())
      unsupported("memref defined outside the encoded region");
    return it->second;
  }
  int newBlock(z3::expr v, z3::expr p, int64_t size, bool writable,
               bool owned = false) {
    mem.push_back(MemBlock{std::move(v), std::move(p), size, writable, true, owned});
    return int(mem.size()) - 1;
  }
  // Binds by value: the argument is a copy before the map may grow (a
  // reference into the same map would dangle).
  void bindRef(Value v, MemRef m) { refs.insert_or_assign(v, std::move(m)); }
  void bind(Value v, SVal s) { env[v] = std::move(s); }
  MemRef identityView(int block, const std::vector<int64_t> &shape);
  int blockOf(const SVal &contents, Type elt, bool writable);
  void bindArgument(unsigned index, BlockArgument a, const SVal &contents);
  SVal loadView(const MemRef &m);
  void storeView(const MemRef &m, const SVal &s);
  std::pair<z3::expr, z3::expr> load(const MemRef &m,
                                     const std::vector<z3::expr> &idx);
  void store(const MemRef &m, const std::vector<z3::expr> &idx,
             const z3::expr &v, const z3::expr &p);
  z3::expr address(const MemRef &m, const std::vector<z3::expr> &idx);
  std::vector<int64_t> concreteSizes(const MemRef &m);
  z3::expr affine(AffineExpr e, const std::vector<z3::expr> &dims,
                  const std::vector<z3::expr> &syms);
  void encodeMemref(Operation *op);

  // ---- the per-op table ----------------------------------------------------
  void encodeOp(Operation *op);
  void encodeKnownOp(Operation *op);
  bool opaqueOp(Operation *op);
  std::set<std::string> opaqueOps; // ops encoded as uninterpreted functions
  void encodeLinalg(linalg::LinalgOp op);
  void encodeTosa(Operation *op);
  // TOSA's compute kernels (EncodeTosaKernels.cpp): false if `op` is not one.
  bool encodeTosaKernel(Operation *op, const std::vector<SVal> &ins);
  void convolution(Operation *op, const std::vector<SVal> &ins);
  void matmul(Operation *op, const std::vector<SVal> &ins);
  void pool(Operation *op, const std::vector<SVal> &ins);
  void argmax(Operation *op, const std::vector<SVal> &ins);
  void gather(Operation *op, const std::vector<SVal> &ins);
  void applyScale(tosa::ApplyScaleOp op, const std::vector<SVal> &ins);
  void rescale(tosa::RescaleOp op, const std::vector<SVal> &ins);
  std::pair<z3::expr, z3::expr> applyScaleTerm(const z3::expr &value,
                                               const z3::expr &mult,
                                               const z3::expr &shift,
                                               bool doubleRound, bool scale32);
  z3::expr intDot(z3::expr acc,
                  const std::vector<std::pair<z3::expr, z3::expr>> &ab,
                  int64_t za, int64_t zb);
  void encodeTensor(Operation *op);
  std::vector<SVal> encodeCall(func::FuncOp f, const std::vector<SVal> &args,
                               int depth);
  int callDepth = 0;
};

} // namespace cc::smt::detail
