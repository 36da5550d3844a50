// Sorts, constants and uninterpreted functions: the element terms the
// encodings of all dialects build on.
#include "smt/Encoder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

namespace cc::smt::detail {

using namespace mlir;

Encoder::Encoder(z3::context &c, FMode mode, const TvOptions &opts)
    : c(c), mode(mode), opts(opts), ub(c.bool_val(false)),
      pastBound(c.bool_val(false)) {}

bool Encoder::isFloat(Type t) {
  return isa<FloatType>(getElementTypeOrSelf(t));
}

std::pair<unsigned, unsigned> Encoder::fpBits(FloatType ft) {
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

z3::sort Encoder::sortOf(Type t) {
  t = getElementTypeOrSelf(t);
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (!it.getWidth())
      unsupported("the type i0");
    return c.bv_sort(it.getWidth());
  }
  if (isa<IndexType>(t))
    return c.bv_sort(64);
  if (auto ft = dyn_cast<FloatType>(t)) {
    auto [e, s] = fpBits(ft);
    if (mode == FMode::Abstract)
      return c.uninterpreted_sort(
          ("F" + std::to_string(e) + "_" + std::to_string(s)).c_str());
    return c.fpa_sort(e, s);
  }
  unsupported("element type " + str(t));
}

z3::expr Encoder::fpConst(double d, const z3::sort &s) {
  return z3::expr(c, Z3_mk_fpa_numeral_double(c, d, s));
}

z3::expr Encoder::fpNaN(const z3::sort &s) {
  return z3::expr(c, Z3_mk_fpa_nan(c, s));
}

z3::expr Encoder::rne() { return z3::expr(c, Z3_mk_fpa_rne(c)); }
z3::expr Encoder::rtz() { return z3::expr(c, Z3_mk_fpa_rtz(c)); }
z3::expr Encoder::choose(const std::string &freedom) {
  z3::expr x =
      c.bool_const(("choice_" + std::to_string(choices.size())).c_str());
  choices.push_back(x);
  freedoms.insert(freedom);
  return x;
}

std::string Encoder::freedomsText() const { return llvm::join(freedoms, ", "); }

z3::expr Encoder::isNaN(const z3::expr &a) {
  return z3::expr(c, Z3_mk_fpa_is_nan(c, a));
}

z3::expr Encoder::floatBits(uint64_t bits, FloatType ft) {
  z3::sort s = sortOf(ft);
  if (mode == FMode::Abstract) {
    std::string name = "fconst_" + std::string(Z3_sort_to_string(c, s)) + "_" +
                       std::to_string(bits);
    z3::expr k = c.constant(name.c_str(), s);
    if (APFloat(ft.getFloatSemantics(), APInt(ft.getWidth(), bits))
            .isExactlyValue(1.0))
      ones.set(k, true);
    return k;
  }
  // Simplified to Z3's literal, which is what Z3 makes of a simplified
  // constant: the same value as one term, else an add of it is bit-blasted
  // twice and the solver must prove the two adders equal.
  unsigned w = ft.getWidth();
  return z3::expr(c, Z3_mk_fpa_to_fp_bv(c, c.bv_val(bits, w), s)).simplify();
}

z3::expr Encoder::elemConst(Attribute a, Type elt) {
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

SVal Encoder::constant(Attribute a, Type ty) {
  (void)sortOf(ty); // refuses element types the encoding has no sort for
  SVal r;
  Type elt = getElementTypeOrSelf(ty);
  if (auto st = dyn_cast<ShapedType>(ty)) {
    if (!st.hasStaticShape())
      unsupported("dynamic constant");
    r.shape.assign(st.getShape().begin(), st.getShape().end());
    // Dense and sparse elements alike; a dense_resource blob is read as
    // the dense elements it holds.
    if (auto res = dyn_cast<DenseResourceElementsAttr>(a)) {
      bool splat = false;
      if (!res.getRawHandle().getBlob())
        unsupported("dense_resource constant without its data");
      if (!DenseElementsAttr::isValidRawBuffer(st, res.getData(), splat))
        unsupported("dense_resource constant whose data does not fit " +
                    str(ty));
      a = DenseElementsAttr::getFromRawBuffer(st, res.getData());
    }
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

z3::expr Encoder::zeroOf(const z3::sort &s) {
  if (s.is_bv())
    return c.bv_val(0, s.bv_size());
  if (s.is_fpa())
    return fpConst(0.0, s);
  return c.constant("undef_value", s);
}

z3::expr Encoder::uf(const std::string &name, const std::vector<z3::expr> &args,
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

z3::expr Encoder::ufComm(const std::string &name, z3::expr a, z3::expr b,
                         const z3::sort &range) {
  if (a.id() > b.id())
    std::swap(a, b);
  return uf(name, {a, b}, range);
}

bool Encoder::exactAt(const z3::expr &e, const z3::expr_vector &vars,
                      const z3::expr_vector &vals) const {
  auto at = [&](const z3::expr &x) {
    z3::expr y = x;
    return y.substitute(vars, vals).simplify();
  };
  bool exact = true;
  forEachNode(e, [&](const z3::expr &x) {
    const std::vector<z3::expr> *operands = orderedTerms.find(x);
    if (!exact || !operands)
      return exact;
    // A NaN operand makes the result NaN in every order.
    exact = llvm::any_of(*operands, [&](const z3::expr &t) {
      return z3::expr(x.ctx(), Z3_mk_fpa_is_nan(x.ctx(), at(t)))
          .simplify()
          .is_true();
    });
    return false;
  });
  // No uninterpreted function application or NaN bits left at the point.
  forEachNode(at(e), [&](const z3::expr &x) {
    exact = exact && !(x.decl().decl_kind() == Z3_OP_UNINTERPRETED &&
                       (x.num_args() > 0 ||
                        x.decl().name().str().rfind("nan_bits_", 0) == 0));
    return exact;
  });
  return exact;
}

z3::expr Encoder::boolToBv(const z3::expr &b) {
  return z3::ite(b, c.bv_val(1, 1), c.bv_val(0, 1));
}

z3::expr Encoder::bvTrue(const z3::expr &bv1) { return bv1 == c.bv_val(1, 1); }

} // namespace cc::smt::detail
