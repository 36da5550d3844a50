// Values and shapes: reading operands, fresh arguments, elements at
// symbolic indices, broadcasting, and the evaluation of region bodies.
#include "smt/Encoder.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

namespace cc::smt::detail {

using namespace mlir;

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

int64_t flatten(const std::vector<int64_t> &idx,
                const std::vector<int64_t> &s) {
  int64_t i = 0;
  for (size_t k = 0; k < s.size(); ++k)
    i = i * s[k] + idx[k];
  return i;
}

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

SVal &Encoder::get(Value v) {
  auto it = env.find(v);
  if (it == env.end())
    unsupported("value defined outside the encoded region");
  return it->second;
}

z3::expr Encoder::pinned(const z3::expr &e) {
  return (pinVars.empty() ? e : z3::expr(e).substitute(pinVars, pinVals))
      .simplify();
}

int64_t Encoder::concreteIndex(const z3::expr &e) {
  z3::expr s = pinned(e);
  uint64_t u;
  if (!s.is_numeral_u64(u))
    unsupported("a symbolic size or index");
  return int64_t(u);
}

int64_t Encoder::concreteIndex(Value v) {
  SVal &s = get(v);
  if (!z3::expr(s.p[0]).simplify().is_false())
    unsupported("a possibly poison index");
  return concreteIndex(s.v[0]);
}

std::vector<int64_t> Encoder::argShape(Type t) {
  std::vector<int64_t> s;
  auto mt = dyn_cast<MemRefType>(t);
  if (mt && !mt.getLayout().isIdentity())
    unsupported("argument type " + str(t) + " (not the identity layout)");
  auto vt = dyn_cast<VectorType>(t);
  if (vt && vt.isScalable())
    unsupported("argument type " + str(t) + " (scalable)");
  auto rt = mt   ? cast<ShapedType>(mt)
            : vt ? cast<ShapedType>(vt)
                 : dyn_cast<RankedTensorType>(t);
  if (rt) {
    for (int64_t k = 0; k < rt.getRank(); ++k) {
      int64_t d = rt.getDimSize(k);
      if (ShapedType::isDynamic(d)) {
        usedDynamic = true;
        d = opts.argDimSizes.empty()
                ? opts.dynamicSizes[k % opts.dynamicSizes.size()]
                : opts.argDimSizes[dynamicDimsMet++ % opts.argDimSizes.size()];
      }
      s.push_back(d);
    }
  } else if (isa<ShapedType>(t)) {
    unsupported("argument type " + str(t));
  }
  return s;
}

std::vector<int64_t> Encoder::resultShape(Type t, ValueRange dynSizes) {
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

SVal Encoder::fresh(const std::string &prefix, Type t) {
  SVal r;
  r.shape = argShape(t);
  int64_t n = product(r.shape);
  if (n > kMaxElements)
    unsupported("argument too large");
  z3::sort s = sortOf(t);
  if (isa<MemRefType>(t))
    r.array = c.constant(prefix.c_str(), c.array_sort(c.bv_sort(64), s));
  for (int64_t i = 0; i < n; ++i) {
    r.v.push_back(
        r.array ? z3::select(*r.array, c.bv_val(uint64_t(i), 64))
                : c.constant((prefix + "_" + std::to_string(i)).c_str(), s));
    r.p.push_back(c.bool_val(false));
  }
  return r;
}

SVal Encoder::undef(std::vector<int64_t> shape, Type elt) {
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

Elem Encoder::atOr(const SVal &t, const std::vector<z3::expr> &idx,
                   const Elem &outside) {
  std::vector<int64_t> ci;
  for (const z3::expr &x : idx) {
    uint64_t u;
    if (!x.simplify().is_numeral_u64(u))
      break;
    ci.push_back(int64_t(u));
  }
  if (ci.size() == idx.size()) {
    for (size_t k = 0; k < ci.size(); ++k)
      if (ci[k] < 0 || ci[k] >= t.shape[k])
        return outside;
    int64_t i = flatten(ci, t.shape);
    return {t.v[size_t(i)], t.p[size_t(i)]};
  }
  z3::expr v = outside.first, p = outside.second;
  for (int64_t i = 0; i < t.size(); ++i) {
    z3::expr hit = c.bool_val(true);
    for (auto [k, d] : llvm::enumerate(unflatten(i, t.shape)))
      hit = hit && idx[k] == c.bv_val(uint64_t(d), 64);
    v = z3::ite(hit, t.v[size_t(i)], v);
    p = z3::ite(hit, t.p[size_t(i)], p);
  }
  return {v, p};
}

Elem Encoder::at(const SVal &t, const std::vector<z3::expr> &idx) {
  z3::expr inBounds = c.bool_val(true);
  for (size_t k = 0; k < idx.size(); ++k)
    inBounds = inBounds && z3::ult(idx[k], c.bv_val(uint64_t(t.shape[k]), 64));
  ub = ub || !inBounds;
  return atOr(t, idx,
              {t.v.empty() ? c.bv_val(0, 1) : t.v[0], c.bool_val(true)});
}

SVal Encoder::scalar(z3::expr v, z3::expr p) {
  SVal r;
  r.v.push_back(v);
  r.p.push_back(p);
  return r;
}

std::vector<z3::expr> Encoder::scalarValues(ValueRange vs, z3::expr &poison) {
  std::vector<z3::expr> out;
  for (Value v : vs) {
    const SVal &s = get(v);
    out.push_back(s.v[0]);
    poison = poison || s.p[0];
  }
  return out;
}

SVal Encoder::indexVal(int64_t i) {
  return scalar(c.bv_val(uint64_t(i), 64), c.bool_val(false));
}

// A body inside a body (a pad in a linalg body) restores the outer point.
std::vector<Elem> Encoder::evalBody(Block &body, const std::vector<SVal> &args,
                                    const std::vector<int64_t> &point) {
  for (auto [arg, val] : llvm::zip(body.getArguments(), args))
    env[arg] = val;
  const std::vector<int64_t> *outer = curPoint;
  curPoint = &point;
  for (Operation &op : body.without_terminator())
    encodeOp(&op);
  std::vector<Elem> out;
  for (Value y : body.getTerminator()->getOperands()) {
    SVal &s = get(y);
    out.push_back({s.v[0], s.p[0]});
  }
  curPoint = outer;
  return out;
}

SVal Encoder::broadcastTo(const SVal &a, const std::vector<int64_t> &shape) {
  if (a.shape == shape)
    return a;
  SVal r;
  r.shape = shape;
  int64_t n = product(shape);
  if (n == 0)
    return r;
  if (a.v.empty())
    unsupported("a broadcast of an empty tensor");
  if (a.shape.size() > shape.size()) {
    ub = c.bool_val(true); // not broadcastable: no defined element
    r.v.assign(size_t(n), a.v[0]);
    r.p.assign(size_t(n), c.bool_val(true));
    return r;
  }
  size_t off = shape.size() - a.shape.size();
  // A dimension that is neither 1 nor the result's (dynamic sizes
  // instantiated apart) is undefined behaviour; its index wraps so that
  // the element read stays inside `a`.
  for (size_t k = 0; k < a.shape.size(); ++k)
    if (a.shape[k] != 1 && a.shape[k] != shape[k + off])
      ub = c.bool_val(true);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> idx = unflatten(i, shape), src(a.shape.size());
    for (size_t k = 0; k < a.shape.size(); ++k)
      src[k] = a.shape[k] == 1 ? 0 : idx[k + off] % a.shape[k];
    int64_t j = flatten(src, a.shape);
    r.v.push_back(a.v[j]);
    r.p.push_back(a.p[j]);
  }
  return r;
}

std::vector<int64_t> Encoder::broadcastShape(const std::vector<SVal> &xs) {
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

SVal Encoder::elementwise(const std::vector<SVal> &ins, const ElemFn &fn) {
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

std::vector<SVal> Encoder::operandsOf(Operation *op) {
  std::vector<SVal> r;
  for (Value v : op->getOperands())
    r.push_back(isa<MemRefType>(v.getType()) ? SVal{} : get(v));
  return r;
}

void Encoder::bind(Value v, SVal s) { env[v] = std::move(s); }

} // namespace cc::smt::detail
