// Symbolic sizes (RefineSymbolic.cpp): the sizes of results that broadcast,
// slice, insert, collapse or expand their operands, and TOSA's data
// movement, at a symbolic point.
#include "smt/RefineSymbolic.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

// The result's sizes: arith's operands have one shape, TOSA's broadcast an
// axis of size 1; other sizes, and a result size the type contradicts,
// are undefined.
Exprs Points::broadcastDims(Operation *op, const std::vector<Value> &ins) {
  bool broadcasts = tosaElementwise(op);
  z3::expr zero = c.bv_val(0, 64), one = c.bv_val(1, 64);
  // TOSA: "Each dimension of a tensor must have size >= 1" (the dialect's
  // verifier of static shapes); a dynamic size of 0 is undefined.
  if (broadcasts)
    for (Value v : ins)
      for (const z3::expr &d : tensor(v).dims)
        e.ub = e.ub || d == zero;
  Exprs dims = tensor(ins[0]).dims;
  for (size_t j = 1; j < ins.size(); ++j)
    for (size_t k = 0; k < dims.size(); ++k) {
      z3::expr d = tensor(ins[j]).dims[k];
      if (!broadcasts) {
        e.ub = e.ub || dims[k] != d;
        continue;
      }
      e.ub = e.ub || !(dims[k] == d || dims[k] == one || d == one);
      dims[k] = z3::ite(dims[k] == one, d, dims[k]).simplify();
    }
  typeSays(op->getResult(0), dims);
  return dims;
}

// Sizes the type of `v` fixes: others are undefined.
void Points::typeSays(Value v, const Exprs &dims) {
  auto rt = cast<RankedTensorType>(v.getType());
  for (auto [k, d] : llvm::enumerate(rt.getShape()))
    if (!ShapedType::isDynamic(d) && k < dims.size())
      e.ub = e.ub || dims[k] != c.bv_val(uint64_t(d), 64);
}

// The op encoded on its operands' elements at idx, bound as scalars in
// the encoder's environment for the while.
Elem Points::elementwiseAt(Operation *op, const std::vector<Value> &ins,
                           const Exprs &idx) {
  bool broadcasts = tosaElementwise(op);
  // Every operand's element first: reading one may evaluate ops that must
  // not see another operand bound to a scalar.
  std::vector<Elem> xs;
  for (Value v : ins) {
    Exprs at = idx;
    if (broadcasts)
      for (size_t k = 0; k < at.size(); ++k)
        at[k] = z3::ite(tensor(v).dims[k] == c.bv_val(1, 64), c.bv_val(0, 64),
                        idx[k])
                    .simplify();
    xs.push_back(elemAt(v, at));
  }
  std::vector<std::pair<Value, std::optional<SVal>>> saved;
  for (auto [v, x] : llvm::zip(ins, xs)) {
    auto it = e.env.find(v);
    saved.push_back(
        {v, it == e.env.end() ? std::nullopt : std::optional(it->second)});
    e.env[v] = e.scalar(x.first, x.second);
  }
  e.encodeOp(op);
  Value result = op->getResult(0);
  SVal r = e.get(result);
  e.env.erase(result);
  for (auto &[v, old] : llvm::reverse(saved)) {
    if (old)
      e.env[v] = *old;
    else
      e.env.erase(v);
  }
  return Elem{r.v[0], r.p[0]};
}

// `result` of sizes `dims` whose element at idx is `src`'s at from(idx).
void Points::gather(Value result, Value src, Exprs dims,
                    std::function<Exprs(const Exprs &)> from) {
  bind(result, Lazy{std::move(dims), [this, src, from](const Exprs &idx) {
                      return elemAt(src, from(idx));
                    }});
}

z3::expr Points::mixed(OpFoldResult f) {
  if (auto a = dyn_cast<Attribute>(f))
    return c.bv_val(uint64_t(cast<IntegerAttr>(a).getInt()), 64);
  return index(cast<Value>(f));
}

// A slice of `dims` at the op's offsets, sizes and static strides:
// negative offsets and sizes and a last element past a size are undefined
// (in 128 bits: no wrap).
void Points::sliceBounds(OffsetSizeAndStrideOpInterface op, const Exprs &dims) {
  if (llvm::any_of(op.getStaticStrides(), ShapedType::isDynamic))
    unsupported("a slice with dynamic strides");
  z3::expr zero = c.bv_val(0, 64);
  for (size_t k = 0; k < dims.size(); ++k) {
    z3::expr off = mixed(op.getMixedOffsets()[k]),
             size = mixed(op.getMixedSizes()[k]);
    z3::expr last = z3::zext(off, 64) +
                    (z3::zext(size, 64) - 1) *
                        c.bv_val(uint64_t(op.getStaticStrides()[k]), 128);
    // "Offsets must be non-negative and within the bounds of the source
    // tensor" (tensor.extract_slice): at most the size for an empty slice.
    e.ub = e.ub || off < zero || size < zero || z3::ugt(off, dims[k]) ||
           (size != zero && z3::uge(last, z3::zext(dims[k], 64)));
  }
}

// Rank-reduced slices read their dropped dimensions at 0.
void Points::extractSlice(tensor::ExtractSliceOp op) {
  const Exprs &src = tensor(op.getSource()).dims;
  sliceBounds(op, src);
  Exprs dims, offs, strides;
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (size_t k = 0; k < src.size(); ++k) {
    offs.push_back(mixed(op.getMixedOffsets()[k]));
    strides.push_back(c.bv_val(uint64_t(op.getStaticStrides()[k]), 64));
    if (!dropped.test(k))
      dims.push_back(mixed(op.getMixedSizes()[k]));
  }
  gather(op, op.getSource(), dims, [=, this](const Exprs &idx) {
    Exprs at;
    size_t j = 0;
    for (size_t k = 0; k < offs.size(); ++k)
      at.push_back((offs[k] +
                    (dropped.test(k) ? c.bv_val(0, 64) : idx[j++]) * strides[k])
                       .simplify());
    return at;
  });
}

// The destination with the source's elements at the slice's points.
void Points::insertSlice(tensor::InsertSliceOp op) {
  const Exprs &dest = tensor(op.getDest()).dims;
  const Exprs &src = tensor(op.getSource()).dims;
  if (src.size() != dest.size())
    unsupported("a rank-reducing tensor.insert_slice");
  sliceBounds(op, dest);
  Exprs offs, sizes;
  std::vector<int64_t> strides(op.getStaticStrides());
  for (size_t k = 0; k < dest.size(); ++k) {
    offs.push_back(mixed(op.getMixedOffsets()[k]));
    sizes.push_back(mixed(op.getMixedSizes()[k]));
    e.ub = e.ub || sizes[k] != src[k];
  }
  Value from = op.getSource(), into = op.getDest();
  bind(op, Lazy{dest, [=, this](const Exprs &idx) {
                  z3::expr in = c.bool_val(true);
                  Exprs at;
                  for (size_t k = 0; k < idx.size(); ++k) {
                    z3::expr d = idx[k] - offs[k];
                    z3::expr st = c.bv_val(uint64_t(strides[k]), 64);
                    in = in && z3::uge(idx[k], offs[k]) &&
                         z3::ult(d, sizes[k] * st);
                    if (strides[k] != 1)
                      in = in && z3::urem(d, st) == 0;
                    at.push_back(strides[k] == 1 ? d : z3::udiv(d, st));
                  }
                  Elem a = elemAt(from, at), b = elemAt(into, idx);
                  return Elem{z3::ite(in, a.first, b.first),
                              z3::ite(in, a.second, b.second)};
                }});
}

// tosa.reverse and tosa.transpose: an index map.
void Points::tosaMovement(Operation *op) {
  Value x = op->getOperand(0);
  Exprs src = tensor(x).dims;
  for (const z3::expr &d : src)
    e.ub = e.ub || d == c.bv_val(0, 64); // TOSA: sizes >= 1
  if (auto rev = dyn_cast<tosa::ReverseOp>(op)) {
    size_t ax = rev.getAxis();
    if (ax >= src.size())
      unsupportedOp(op);
    typeSays(op->getResult(0), src);
    return gather(op->getResult(0), x, src, [=](const Exprs &idx) {
      Exprs at = idx;
      at[ax] = (src[ax] - 1 - idx[ax]).simplify();
      return at;
    });
  }
  ArrayRef<int32_t> perms = cast<tosa::TransposeOp>(op).getPerms();
  std::vector<size_t> p(perms.begin(), perms.end());
  Exprs dims;
  for (size_t k : p) {
    if (k >= src.size())
      unsupportedOp(op);
    dims.push_back(src[k]);
  }
  typeSays(op->getResult(0), dims);
  gather(op->getResult(0), x, dims, [=](const Exprs &idx) {
    Exprs at = idx;
    for (size_t k = 0; k < p.size(); ++k)
      at[p[k]] = idx[k];
    return at;
  });
}

void Points::collapse(tensor::CollapseShapeOp op) {
  Exprs src = tensor(op.getSrc()).dims, dims;
  auto groups = op.getReassociationIndices();
  for (const ReassociationIndices &g : groups) {
    z3::expr n = c.bv_val(1, 128);
    for (int64_t k : g) {
      n = n * z3::zext(src[k], 64);
      e.ub = e.ub || z3::uge(n, c.bv_val(uint64_t(1) << 63, 128));
    }
    dims.push_back(n.extract(63, 0).simplify());
  }
  gather(op, op.getSrc(), dims, [=, this](const Exprs &idx) {
    Exprs at(src.size(), c.bv_val(0, 64));
    for (auto [gi, g] : llvm::enumerate(groups)) {
      z3::expr r = idx[gi];
      for (size_t j = g.size(); j-- > 1;) {
        auto [q, m] = split(r, src[g[j]]);
        at[g[j]] = m;
        r = q;
      }
      at[g[0]] = r;
    }
    return at;
  });
}

// r / d and r % d. An index an expand built from a point, q * d + m,
// splits back into q and m at once (exact: m < d there); a division by a
// size otherwise, which costs Z3 seconds with float elements.
std::pair<z3::expr, z3::expr> Points::split(const z3::expr &r,
                                            const z3::expr &d) {
  z3::expr q = z3::udiv(r, d).simplify(), m = z3::urem(r, d).simplify();
  if (const Split *s = expanded.find(r); s && z3::eq(s->d, d)) {
    z3::expr fits = z3::ult(s->m, d);
    return {z3::ite(fits, s->q, q), z3::ite(fits, s->m, m)};
  }
  return {q, m};
}

// The inverse: sizes from the type and the output_shape operands, a group's
// product the source's size (else undefined).
void Points::expand(tensor::ExpandShapeOp op) {
  Exprs src = tensor(op.getSrc()).dims, dims;
  for (OpFoldResult f : op.getMixedOutputShape())
    dims.push_back(mixed(f));
  auto groups = op.getReassociationIndices();
  for (auto [gi, g] : llvm::enumerate(groups)) {
    z3::expr n = c.bv_val(1, 128);
    for (int64_t k : g) {
      n = n * z3::zext(dims[k], 64);
      e.ub = e.ub || dims[k] < c.bv_val(0, 64) ||
             z3::uge(n, c.bv_val(uint64_t(1) << 63, 128));
    }
    e.ub = e.ub || n != z3::zext(src[gi], 64);
  }
  gather(op, op.getSrc(), dims, [=, this](const Exprs &idx) {
    Exprs at;
    for (const ReassociationIndices &g : groups) {
      z3::expr r = idx[g[0]];
      for (size_t j = 1; j < g.size(); ++j) {
        z3::expr q = r;
        r = (q * dims[g[j]] + idx[g[j]]).simplify();
        expanded.set(r, Split{q, idx[g[j]], dims[g[j]]});
      }
      at.push_back(r);
    }
    return at;
  });
}

} // namespace cc::smt::detail
