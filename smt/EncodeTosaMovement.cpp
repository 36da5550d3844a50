// The Z3 encoding of TOSA 1.0's data-movement ops and reductions.
#include "smt/EncodeTosa.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace cc::smt::detail::tosaops {

using namespace mlir;

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

} // namespace cc::smt::detail::tosaops
