// Symbolic sizes: a pair whose arguments (or values inside) have dynamic
// dimensions, checked at every size at once. A tensor is its sizes (64-bit
// terms; an argument's dynamic size is an input, any size a tensor in
// memory may have) and the rule that gives its element at a symbolic
// point, so an output is compared at one free point within its sizes and
// the query needs no quantifier over elements. Undefined behaviour that
// depends on the point (a division by zero in an elementwise op, a read
// out of bounds in a body) is kept per op with the op's own point: the
// target's is an existential (a free point), the source's a universal,
// taken at the points the query names (the target's and the outputs'),
// which weakens the precondition: a proof stands, a counterexample may be
// spurious. A pair with an op outside these rules, or with a
// counterexample, goes on at instantiated sizes (Refine.cpp): the
// counterexample's own sizes where it has one.
#include "smt/RefineSymbolic.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

std::vector<Lazy> Points::run(func::FuncOp f) {
  if (!llvm::hasSingleElement(f.getBody()))
    unsupported("function with several blocks");
  Block &b = f.getBody().front();
  blocks = args.blocks;
  for (auto [i, a] : llvm::enumerate(b.getArguments())) {
    if (isa<RankedTensorType>(a.getType()))
      bind(a, args.tensors[i]);
    else if (auto it = args.blockOf.find(unsigned(i)); it != args.blockOf.end())
      views[a] =
          identity(it->second, size_t(cast<MemRefType>(a.getType()).getRank()));
    else
      e.env[a] = args.scalars[i];
  }
  stepBlock(b);
  std::vector<Lazy> outs;
  for (Value v : b.getTerminator()->getOperands()) {
    if (isa<RankedTensorType>(v.getType())) {
      outs.push_back(tensor(v));
      continue;
    }
    SVal s = scalarOf(v);
    outs.push_back({{}, [s](const Exprs &) { return Elem{s.v[0], s.p[0]}; }});
  }
  return outs;
}

void Points::stepBlock(Block &b) {
  for (Operation &op : b.without_terminator())
    step(&op);
}

// A value's rule; its memoized elements go (a value inside a body is
// bound again at each point).
void Points::bind(Value v, Lazy l) {
  const void *key = v.getAsOpaquePointer();
  auto it = memo.lower_bound({key, {}});
  while (it != memo.end() && it->first.first == key)
    it = memo.erase(it);
  lazy[v] = std::move(l);
}

// A value that is not a tensor: a scalar (vectors are not covered).
SVal Points::scalarOf(Value v) {
  if (isa<ShapedType>(v.getType()))
    unsupported("a value of type " + str(v.getType()) + " at symbolic sizes");
  return e.get(v);
}

Lazy &Points::tensor(Value v) {
  auto it = lazy.find(v);
  if (it == lazy.end())
    unsupported("value defined outside the encoded region");
  return it->second;
}

z3::expr Points::index(Value v) {
  const SVal &s = e.get(v);
  e.ub = e.ub || s.p[0];
  return s.v[0];
}

Elem Points::elemAt(Value v, const Exprs &idx) {
  std::vector<unsigned> key;
  for (const z3::expr &x : idx)
    key.push_back(x.id());
  auto k = std::pair{v.getAsOpaquePointer(), key};
  if (auto it = memo.find(k); it != memo.end())
    return it->second.second;
  Elem r = tensor(v).at(idx);
  memo.insert({k, {idx, r}});
  return r;
}

Exprs Points::freshPoint(size_t rank) {
  Exprs q;
  for (size_t k = 0; k < rank; ++k)
    q.push_back(
        c.bv_const((side + "_point!" + std::to_string(points++)).c_str(), 64));
  return q;
}

// Binds `v` to the elements `raw` computes.
void Points::define(Value v, Exprs dims,
                    std::function<Elem(const Exprs &)> raw) {
  bind(v, rule(std::move(dims), std::move(raw)));
}

// The elements `raw` computes. The undefined behaviour of an element is
// kept once, here, at a point of its own (pointUbs): a read of one
// element elsewhere adds none.
Lazy Points::rule(Exprs dims, std::function<Elem(const Exprs &)> raw) {
  z3::expr before = e.ub;
  e.ub = c.bool_val(false);
  Exprs q = freshPoint(dims.size());
  (void)raw(q);
  z3::expr at = e.ub.simplify();
  e.ub = before;
  if (!at.is_false() && bodies)
    unsupported("undefined behaviour of a tensor op inside a body");
  if (!at.is_false())
    pointUbs.push_back({guard, q, dims, at});
  Encoder &enc = e;
  return Lazy{std::move(dims), [&enc, raw](const Exprs &idx) {
                z3::expr before = enc.ub;
                Elem r = raw(idx);
                enc.ub = before;
                return r;
              }};
}

z3::expr Points::PointUb::holdsAt(const Exprs &w) const {
  z3::context &c = at.ctx();
  z3::expr_vector from(c), to(c);
  for (auto [a, b] : llvm::zip(q, w)) {
    from.push_back(a);
    to.push_back(b);
  }
  return guard && below(c, w, dims) && z3::expr(at).substitute(from, to);
}

// The rules by op; an op on scalars (or making a constant tensor) is the
// encoder's.
void Points::step(Operation *op) {
  bool tensorIf =
      isa<scf::IfOp>(op) &&
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  bool pointwise =
      op->getNumResults() == 1 &&
      isa<RankedTensorType>(op->getResultTypes()[0]) &&
      (op->hasTrait<OpTrait::Elementwise>() || tosaElementwise(op));
  if (tensorIf)
    return ifOp(cast<scf::IfOp>(op));
  if (pointwise)
    return elementwise(op);
  if (memoryStep(op))
    return;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](tensor::EmptyOp x) { empty(x); })
      .Case([&](tensor::CastOp x) { castOp(x); })
      .Case([&](tensor::DimOp x) {
        sizeAt(x, tensor(x.getSource()).dims, x.getIndex());
      })
      .Case([&](tensor::ExtractOp x) { extract(x); })
      .Case([&](tensor::ExtractSliceOp x) { extractSlice(x); })
      .Case([&](tensor::InsertSliceOp x) { insertSlice(x); })
      .Case([&](tensor::CollapseShapeOp x) { collapse(x); })
      .Case([&](tensor::ExpandShapeOp x) { expand(x); })
      .Case([&](linalg::GenericOp x) { generic(x); })
      .Case<tosa::ReverseOp, tosa::TransposeOp>(
          [&](Operation *x) { tosaMovement(x); })
      .Default([&](Operation *x) { encoded(x); });
}

// An op of the encoder: on scalars and tensors of static shape it has
// (constants), its tensor results read by their indices.
void Points::encoded(Operation *op) {
  auto symbolic = [&](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return rt && !rt.hasStaticShape();
  };
  auto whole = [&](Value v) {
    auto rt = dyn_cast<RankedTensorType>(v.getType());
    auto it = e.env.find(v);
    return !rt || (it != e.env.end() && rt.hasStaticShape() &&
                   it->second.shape == std::vector<int64_t>(rt.getShape()));
  };
  // Memory is RefineSymbolicMemory.cpp's; an effect there in a branch or
  // a body would count whether it runs or not.
  auto memref = llvm::IsaPred<BaseMemRefType>;
  if (llvm::any_of(op->getResultTypes(), symbolic) ||
      llvm::any_of(op->getResultTypes(), memref) ||
      llvm::any_of(op->getOperandTypes(), memref) ||
      !llvm::all_of(op->getOperands(), whole) || !isMemoryEffectFree(op))
    unsupportedOp(op);
  e.encodeOp(op);
  for (Value r : op->getResults()) {
    if (!isa<RankedTensorType>(r.getType()))
      continue;
    SVal s = e.get(r);
    Exprs dims;
    for (int64_t d : s.shape)
      dims.push_back(c.bv_val(uint64_t(d), 64));
    Encoder &enc = e;
    z3::expr none = s.v.empty() ? c.bv_val(0, 1) : s.v[0];
    bind(r, Lazy{dims, [&enc, s, none](const Exprs &idx) {
                   return enc.atOr(s, idx, {none, enc.c.bool_val(true)});
                 }});
  }
}

// A size at an index (tensor.dim, memref.dim): past the rank is undefined.
void Points::sizeAt(Value result, const Exprs &dims, Value at) {
  z3::expr k = index(at);
  z3::expr d = c.bv_val(0, 64);
  for (size_t i = 0; i < dims.size(); ++i)
    d = z3::ite(k == c.bv_val(uint64_t(i), 64), dims[i], d);
  e.ub = e.ub || z3::uge(k, c.bv_val(uint64_t(dims.size()), 64));
  e.env[result] = e.scalar(d.simplify(), c.bool_val(false));
}

// An element at indices (in a body: of the point); out of bounds is
// undefined.
void Points::extract(tensor::ExtractOp op) {
  const Lazy &t = tensor(op.getTensor());
  Exprs idx;
  for (Value i : op.getIndices())
    idx.push_back(index(i));
  e.ub = e.ub || !below(c, idx, t.dims);
  Elem r = elemAt(op.getTensor(), idx);
  e.env[op] = e.scalar(r.first, r.second);
}

// Sizes from the type, dynamic ones from the operands; elements poison.
void Points::empty(tensor::EmptyOp op) {
  Exprs dims;
  auto sizes = op.getDynamicSizes();
  size_t k = 0;
  for (int64_t d : op.getType().getShape()) {
    if (!ShapedType::isDynamic(d)) {
      dims.push_back(c.bv_val(uint64_t(d), 64));
      continue;
    }
    z3::expr s = index(sizes[k++]);
    e.ub = e.ub || s < c.bv_val(0, 64);
    dims.push_back(s);
  }
  z3::expr none = e.zeroOf(e.sortOf(op.getType().getElementType()));
  bind(op, Lazy{dims, [none](const Exprs &) {
                  return Elem{none, none.ctx().bool_val(true)};
                }});
}

// A cast to a static size asserts it: another size is undefined.
void Points::castOp(tensor::CastOp op) {
  auto rt = dyn_cast<RankedTensorType>(op.getType());
  if (!rt)
    unsupportedOp(op);
  Lazy t = tensor(op.getSource());
  for (auto [k, d] : llvm::enumerate(rt.getShape()))
    if (!ShapedType::isDynamic(d)) {
      e.ub = e.ub || t.dims[k] != c.bv_val(uint64_t(d), 64);
      t.dims[k] = c.bv_val(uint64_t(d), 64);
    }
  bind(op, t);
}

// arith and math on tensors (operands of one shape) and TOSA's elementwise
// ops (a size 1 broadcast): the op itself, encoded on the operands'
// elements at the point. Operands of another rank (a TOSA shift or zero
// point of static shape) are passed whole.
void Points::elementwise(Operation *op) {
  size_t rank =
      size_t(cast<RankedTensorType>(op->getResultTypes()[0]).getRank());
  std::vector<Value> pointwise;
  for (Value v : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (t && size_t(t.getRank()) == rank)
      pointwise.push_back(v);
    else if (!e.env.count(v))
      unsupported("op '" + op->getName().getStringRef().str() +
                  "' with an operand of another rank and dynamic shape");
  }
  if (pointwise.empty())
    unsupportedOp(op);
  define(op->getResult(0), broadcastDims(op, pointwise),
         [this, op, pointwise](const Exprs &idx) {
           return elementwiseAt(op, pointwise, idx);
         });
}

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

// linalg.generic on tensors whose maps read dimensions and constants; a
// reduction only over static sizes (unrolled at each point of the
// output), in the loops' order.
void Points::generic(linalg::GenericOp gen) {
  if (!gen.hasPureTensorSemantics())
    unsupported("linalg.generic on buffers");
  Loops loops = loopsOf(gen);
  unsigned nOut = gen.getNumDpsInits();
  if (!loops.reductions.empty() && nOut != 1)
    unsupported("a reduction with several outputs");
  for (unsigned k = 0; k < nOut; ++k)
    define(gen->getResult(k), tensor(gen.getDpsInits()[k]).dims,
           [this, gen, loops, k](const Exprs &idx) {
             return genericAt(gen, loops, k, idx);
           });
}

// The loops' sizes from the operands' (sizes that disagree are
// undefined), and the reduction loops, of static sizes.
Points::Loops Points::loopsOf(linalg::GenericOp gen) {
  auto maps = gen.getIndexingMapsArray();
  auto iters = gen.getIteratorTypesArray();
  std::vector<std::optional<z3::expr>> range(iters.size());
  z3::expr constantOutside = c.bool_val(false);
  for (OpOperand &o : gen->getOpOperands()) {
    if (!isa<ShapedType>(o.get().getType()))
      continue;
    const Exprs &dims = tensor(o.get()).dims;
    for (auto [r, x] :
         llvm::enumerate(maps[o.getOperandNumber()].getResults())) {
      if (auto d = dyn_cast<AffineDimExpr>(x)) {
        auto &l = range[d.getPosition()];
        e.ub = l ? e.ub || *l != dims[r] : e.ub;
        l = l ? *l : dims[r];
      } else if (auto k = dyn_cast<AffineConstantExpr>(x)) {
        constantOutside =
            constantOutside ||
            z3::uge(c.bv_val(uint64_t(k.getValue()), 64), dims[r]);
      } else {
        unsupported("linalg.generic with an indexing map other than "
                    "dimensions and constants");
      }
    }
  }
  Loops loops;
  z3::expr nonEmpty = c.bool_val(true);
  for (auto [l, it] : llvm::enumerate(iters)) {
    uint64_t n;
    if (!range[l])
      unsupported("linalg.generic loop range not given by a shape");
    nonEmpty = nonEmpty && *range[l] != c.bv_val(0, 64);
    if (it != utils::IteratorType::reduction)
      continue;
    if (!range[l]->simplify().is_numeral_u64(n))
      unsupported("a reduction over a dynamic dimension");
    loops.points = n > 4096 ? 4097 : loops.points * int64_t(n);
    if (loops.points > 4096)
      unsupported("a reduction of more than 4096 points");
    loops.sizes.push_back(int64_t(n));
    loops.reductions.push_back(unsigned(l));
  }
  // A constant index out of its operand is undefined where the body runs.
  e.ub = e.ub || (nonEmpty && constantOutside);
  loops.runs = nonEmpty;
  for (OpOperand &init : gen.getDpsInitsMutable()) {
    AffineMap out = gen.getMatchingIndexingMap(&init);
    llvm::SmallBitVector seen(iters.size());
    for (AffineExpr x : out.getResults()) {
      auto d = dyn_cast<AffineDimExpr>(x);
      if (!d || seen.test(d.getPosition()))
        unsupported("linalg.generic output map other than distinct "
                    "dimensions");
      seen.set(d.getPosition());
    }
    for (auto [l, it] : llvm::enumerate(iters))
      if ((it == utils::IteratorType::parallel) !=
          out.isFunctionOfDim(unsigned(l)))
        unsupported("linalg.generic output map other than its parallel "
                    "loops");
  }
  return loops;
}

// Output k's element at idx: the body at each reduction point (once
// without reductions), the accumulator carried from one to the next.
// Operands from `ops` where given (buffers as they were before the op).
Elem Points::genericAt(linalg::GenericOp gen, const Loops &loops, unsigned k,
                       const Exprs &idx, const std::vector<Lazy> *ops) {
  auto read = [&](OpOperand &o, const Exprs &at) {
    return ops ? (*ops)[o.getOperandNumber()].at(at) : elemAt(o.get(), at);
  };
  auto maps = gen.getIndexingMapsArray();
  unsigned nIn = gen.getNumDpsInputs();
  Exprs pt(maps[0].getNumDims(), c.bv_val(0, 64));
  for (auto [r, x] : llvm::enumerate(maps[nIn + k].getResults()))
    pt[cast<AffineDimExpr>(x).getPosition()] = idx[r];
  // The initial value where no reduction point runs the body.
  std::optional<Elem> acc;
  if (loops.points == 0)
    acc = read(gen.getDpsInitsMutable()[k], idx);
  for (int64_t i = 0; i < loops.points; ++i) {
    std::vector<int64_t> red = unflatten(i, loops.sizes);
    for (size_t j = 0; j < loops.reductions.size(); ++j)
      pt[loops.reductions[j]] = c.bv_val(uint64_t(red[j]), 64);
    std::vector<SVal> args;
    for (OpOperand &o : gen->getOpOperands()) {
      if (!isa<ShapedType>(o.get().getType())) {
        args.push_back(e.get(o.get()));
        continue;
      }
      Exprs at;
      for (AffineExpr x : maps[o.getOperandNumber()].getResults())
        at.push_back(e.affine(x, pt, {}));
      Elem el = read(o, at);
      args.push_back(e.scalar(el.first, el.second));
    }
    if (acc)
      args[nIn] = e.scalar(acc->first, acc->second);
    acc = body(gen.getRegion().front(), args, pt)[k];
  }
  return *acc;
}

// A body at a symbolic point: its ops as at top level (a tensor.extract of
// a tensor of symbolic sizes), linalg.index reading the point.
std::vector<Elem> Points::body(Block &b, const std::vector<SVal> &args,
                               const Exprs &pt) {
  for (auto [arg, val] : llvm::zip(b.getArguments(), args))
    e.env[arg] = val;
  const std::vector<int64_t> *outer = e.curPoint;
  const Exprs *outerSym = e.symPoint;
  e.curPoint = nullptr;
  e.symPoint = &pt;
  ++bodies;
  stepBlock(b);
  --bodies;
  std::vector<Elem> out;
  for (Value y : b.getTerminator()->getOperands()) {
    SVal &s = e.get(y);
    out.push_back({s.v[0], s.p[0]});
  }
  e.curPoint = outer;
  e.symPoint = outerSym;
  return out;
}

// Both branches, merged by the condition: sizes, elements and undefined
// behaviour.
void Points::ifOp(scf::IfOp op) {
  z3::expr cond = e.branchCondition(op.getCondition());
  if (op.getElseRegion().empty())
    unsupportedOp(op);
  z3::expr before = e.ub, outer = guard;
  auto branch = [&](Region &r, const z3::expr &taken, z3::expr &ub) {
    e.ub = c.bool_val(false);
    guard = outer && taken;
    stepBlock(r.front());
    ub = e.ub;
    return r.front().getTerminator()->getOperands();
  };
  z3::expr ubThen = c.bool_val(false), ubElse = c.bool_val(false);
  auto ys = branch(op.getThenRegion(), cond, ubThen);
  auto ns = branch(op.getElseRegion(), !cond, ubElse);
  guard = outer;
  e.ub = before || z3::ite(cond, ubThen, ubElse);
  for (auto [r, y, n] : llvm::zip(op.getResults(), ys, ns)) {
    if (!isa<RankedTensorType>(r.getType())) {
      SVal a = scalarOf(y), b = scalarOf(n);
      e.env[r] = e.scalar(z3::ite(cond, a.v[0], b.v[0]),
                          z3::ite(cond, a.p[0], b.p[0]));
      continue;
    }
    Exprs dims;
    for (auto [a, b] : llvm::zip(tensor(y).dims, tensor(n).dims))
      dims.push_back(z3::ite(cond, a, b).simplify());
    Value yv = y, nv = n;
    bind(r, Lazy{dims, [this, cond, yv, nv](const Exprs &idx) {
                   Elem a = elemAt(yv, idx), b = elemAt(nv, idx);
                   return Elem{z3::ite(cond, a.first, b.first),
                               z3::ite(cond, a.second, b.second)};
                 }});
  }
}

namespace {

bool dynamic(Type t) {
  auto st = dyn_cast<ShapedType>(t);
  return st && st.hasRank() && !st.hasStaticShape();
}

// Values of dynamic size inside (a slice of a size given by an argument).
bool dynamicInside(func::FuncOp f) {
  return f
      .walk([](Operation *op) {
        return llvm::any_of(op->getResultTypes(), dynamic)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

// An argument's sizes: an input per dynamic dimension. `fits`: each
// dynamic size times the static ones is an index (below 2^63), as for any
// tensor in memory (the whole product would be a nonlinear fact, costly
// to decide).
Exprs argDims(z3::context &c, ShapedType t, const std::string &name,
              SymbolicArgs &a) {
  Exprs dims;
  uint64_t fixed = 1;
  for (int64_t d : t.getShape())
    if (!ShapedType::isDynamic(d) && d > 0)
      fixed *= uint64_t(d);
  for (int64_t k = 0; k < t.getRank(); ++k) {
    int64_t d = t.getDimSize(k);
    if (!ShapedType::isDynamic(d)) {
      dims.push_back(c.bv_val(uint64_t(d), 64));
      continue;
    }
    a.sizes.push_back(
        c.bv_const((name + "_dim" + std::to_string(k)).c_str(), 64));
    dims.push_back(a.sizes.back());
    a.fits = a.fits && z3::ult(z3::zext(dims.back(), 64) * c.bv_val(fixed, 128),
                               c.bv_val(uint64_t(1) << 63, 128));
  }
  return dims;
}

// An argument's elements: an array from its indices (rank 0: one, 0) to
// elements of sort `elt`, never poison.
Lazy argRule(z3::context &c, const std::string &name, Exprs dims,
             z3::sort elt) {
  if (dims.empty())
    dims.push_back(c.bv_val(1, 64));
  z3::sort_vector dom(c);
  for (size_t k = 0; k < dims.size(); ++k)
    dom.push_back(c.bv_sort(64));
  z3::expr arr = c.constant(name.c_str(), c.array_sort(dom, elt));
  return Lazy{std::move(dims), [arr](const Exprs &q) {
                z3::expr_vector is(arr.ctx());
                for (const z3::expr &x : q)
                  is.push_back(x);
                if (is.empty())
                  is.push_back(arr.ctx().bv_val(0, 64));
                return Elem{z3::select(arr, is), arr.ctx().bool_val(false)};
              }};
}

// A memref argument of identity layout: a writable block of its sizes, or
// the block of the argument `aliasOf` names.
void memrefArg(Encoder &e, unsigned i, MemRefType t, int aliasOf,
               SymbolicArgs &a) {
  z3::context &c = e.c;
  if (!t.getLayout().isIdentity())
    unsupported("argument type " + str(t));
  if (aliasOf >= 0) {
    a.blockOf[i] = a.blockOf.at(unsigned(aliasOf));
    return;
  }
  std::string name = "arg" + std::to_string(i);
  Lazy data =
      argRule(c, name, argDims(c, t, name, a), e.sortOf(t.getElementType()));
  SymBlock b{std::move(data), true, true, false,
             c.bool_const(("deref_arg" + std::to_string(i)).c_str())};
  a.blockOf[i] = int(a.blocks.size());
  a.blocks.push_back(std::move(b));
}

// The arguments: a tensor is an array from its indices to its elements,
// with a size per dimension; a memref a block (memrefArg).
SymbolicArgs makeArgs(func::FuncOp f, Encoder &e,
                      const std::vector<int> &aliasOf) {
  z3::context &c = e.c;
  SymbolicArgs a{{}, {}, {}, {}, {}, c.bool_val(true)};
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    a.tensors.push_back({});
    a.scalars.push_back({});
    if (auto mt = dyn_cast<MemRefType>(t)) {
      memrefArg(e, unsigned(i), mt, i < aliasOf.size() ? aliasOf[i] : -1, a);
      continue;
    }
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt) {
      if (isa<ShapedType>(t))
        unsupported("argument type " + str(t));
      a.scalars.back() =
          e.scalar(c.constant(name.c_str(), e.sortOf(t)), c.bool_val(false));
      continue;
    }
    Lazy &l = a.tensors.back();
    l = argRule(c, name, argDims(c, rt, name, a),
                e.sortOf(rt.getElementType()));
    if (rt.getRank() == 0)
      l.dims.clear();
  }
  return a;
}

// One float mode: the violation at one free point per output, under
// sizes an index may hold.
class SymbolicQuery {
public:
  SymbolicQuery(func::FuncOp src, func::FuncOp tgt, FMode mode,
                const TvOptions &o, std::vector<int> aliasOf)
      : src(src), tgt(tgt), o(o), aliasOf(std::move(aliasOf)), es(c, mode, o),
        et(c, mode, o), ps(es, args, "src"), pt(et, args, "tgt") {}
  SymbolicCheck run();

private:
  void violation();
  SymbolicCheck proof();
  SymbolicCheck smallCounterexample(const Limits &lim);

  func::FuncOp src, tgt;
  const TvOptions &o;
  std::vector<int> aliasOf;
  z3::context c;
  Encoder es, et;
  SymbolicArgs args{{}, {}, {}, {}, {}, c.bool_val(true)};
  // The outputs' rules read the encodings: they live as long as the query.
  Points ps, pt;
  std::vector<Lazy> os, ot;
  z3::expr defined = c.bool_val(true);
  z3::expr_vector bad{c};
};

SymbolicCheck SymbolicQuery::run() {
  try {
    args = makeArgs(src, es, aliasOf);
    os = ps.run(src);
    ot = pt.run(tgt);
    violation();
  } catch (const EncodeFailure &f) {
    return {std::nullopt, {}, f.reason};
  }
  if (!(es.pastBound || et.pastBound).simplify().is_false())
    return {std::nullopt, {}, "a loop of unknown trip count"};
  Limits lim{o.timeoutMs / 2, o.rlimit / 2};
  std::optional<z3::model> model;
  std::string why;
  if (checkAlone(c, defined, lim, model, why) == z3::unsat)
    return {std::nullopt, {}, "the source is undefined at every size"};
  switch (checkAlone(c, defined && z3::mk_or(bad), lim, model, why)) {
  case z3::unsat:
    return proof();
  case z3::unknown:
    return {
        std::nullopt, {}, "no proof within the limit (" + why + ")", {}, true};
  case z3::sat:
    break;
  }
  if (es.mode == FMode::Abstract)
    return {std::nullopt,
            {},
            "a counterexample with floats uninterpreted",
            {},
            true};
  return smallCounterexample(lim);
}

// `bad`: the target undefined at a point of its own, or an output of
// another size or another element at a free point. `defined`: the source
// defined at those points.
void SymbolicQuery::violation() {
  bad.push_back(et.ub);
  std::vector<Exprs> witnesses;
  for (const Points::PointUb &u : pt.pointUbs) {
    bad.push_back(u.holdsAt(u.q));
    witnesses.push_back(u.q);
  }
  for (size_t r = 0; r < os.size(); ++r) {
    z3::expr differ = c.bool_val(false);
    for (auto [a, b] : llvm::zip(os[r].dims, ot[r].dims))
      differ = differ || a != b;
    Exprs q;
    for (size_t k = 0; k < os[r].dims.size(); ++k)
      q.push_back(c.bv_const(
          ("out" + std::to_string(r) + "_at" + std::to_string(k)).c_str(), 64));
    z3::expr before = es.ub;
    Elem s = os[r].at(q);
    Elem t = ot[r].at(q);
    es.ub = before;
    bad.push_back(differ || (below(c, q, os[r].dims) && !s.second &&
                             (t.second || s.first != t.first)));
    witnesses.push_back(q);
  }
  // The memref arguments' final contents, at a free index of each block.
  for (size_t b = 0; b < args.blocks.size(); ++b) {
    const Exprs &dims = args.blocks[b].data.dims;
    Exprs q;
    for (size_t k = 0; k < dims.size(); ++k)
      q.push_back(c.bv_const(
          ("mem" + std::to_string(b) + "_at" + std::to_string(k)).c_str(), 64));
    Elem s = ps.read(ps.blocks[b], q), t = pt.read(pt.blocks[b], q);
    bad.push_back(below(c, q, dims) && !s.second &&
                  (t.second || s.first != t.first));
    witnesses.push_back(q);
  }
  defined = args.fits && !es.ub;
  for (const Points::PointUb &u : ps.pointUbs)
    for (const Exprs &w : witnesses)
      if (w.size() == u.q.size())
        defined = defined && !u.holdsAt(w);
}

SymbolicCheck SymbolicQuery::proof() {
  std::vector<std::string> notes;
  if (!args.sizes.empty())
    notes.push_back("at every size of the dynamic dimensions");
  for (std::string &n : encodingNotes(es, et))
    notes.push_back(std::move(n));
  if (std::string opaque = opaqueNote(es, et); !opaque.empty())
    notes.push_back(opaque);
  return {Attempt{TvVerdict::Correct, joinNotes(notes)}, {}, ""};
}

// Small sizes of a counterexample, to replay it: no size 0 first (an
// empty tensor shows no value).
SymbolicCheck SymbolicQuery::smallCounterexample(const Limits &lim) {
  SymbolicCheck r{
      std::nullopt, {}, "a counterexample only at sizes above 64", {}, true};
  for (auto [lo, cap] : {std::pair{1, 2}, {1, 4}, {0, 4}, {1, 16}, {0, 64}}) {
    z3::expr small = c.bool_val(true);
    for (const z3::expr &s : args.sizes)
      small = small && z3::ule(s, c.bv_val(uint64_t(cap), 64)) &&
              z3::uge(s, c.bv_val(uint64_t(lo), 64));
    std::optional<z3::model> m;
    std::string why;
    if (checkAlone(c, defined && small && z3::mk_or(bad), lim, m, why) !=
        z3::sat)
      continue;
    std::string at;
    for (const z3::expr &s : args.sizes) {
      r.sizes.push_back(m->eval(s, true).get_numeral_int64());
      at += (at.empty() ? "" : ",") + std::to_string(r.sizes.back());
    }
    for (auto [i, t] : llvm::enumerate(src.getArgumentTypes()))
      if (t.isIndex())
        r.indexArgs[unsigned(i)] =
            m->eval(args.scalars[i].v[0], true).get_numeral_int64();
    r.why = "a counterexample at sizes " + at;
    r.counterexample = true;
    return r;
  }
  return r;
}

// IEEE first: at one point a query is small, and Z3 bit-blasts it at
// once (with abstract floats it searches, slowly, over index arithmetic).
// Abstract floats then where a float sum's order or a math function may
// be what differs.
SymbolicCheck checkModes(func::FuncOp src, func::FuncOp tgt, const TvOptions &o,
                         const std::vector<int> &aliasOf) {
  try {
    SymbolicCheck r = SymbolicQuery(src, tgt, FMode::Ieee, o, aliasOf).run();
    if (r.proved || !r.posed || !hasFloats(src, tgt))
      return r;
    SymbolicCheck a =
        SymbolicQuery(src, tgt, FMode::Abstract, o, aliasOf).run();
    return a.proved ? a : r;
  } catch (const z3::exception &x) {
    return {std::nullopt, {}, std::string("not encoded (") + x.msg() + ")"};
  }
}

// Distinct buffers, then each way memref arguments may share one.
SymbolicCheck checkEverySize(func::FuncOp src, func::FuncOp tgt,
                             const TvOptions &o) {
  SymbolicCheck r = checkModes(src, tgt, o, {});
  if (!r.proved)
    return r;
  for (const std::vector<int> &aliasOf : aliasings(src, true)) {
    SymbolicCheck a = checkModes(src, tgt, o, aliasOf);
    if (!a.proved) {
      a.why = "with " + describeAliasing(aliasOf) + ": " + a.why;
      a.aliasOf = aliasOf;
      return a;
    }
  }
  if (llvm::count_if(src.getArgumentTypes(), llvm::IsaPred<MemRefType>) > 1)
    r.proved->reason = joinNotes({r.proved->reason, aliasNote()});
  return r;
}

} // namespace

SymbolicCheck checkSymbolic(func::FuncOp src, func::FuncOp tgt,
                            const TvOptions &o) {
  bool args = llvm::any_of(src.getArgumentTypes(), dynamic);
  if (!args && !dynamicInside(src) && !dynamicInside(tgt))
    return {std::nullopt, {}, ""};
  SymbolicCheck r = checkEverySize(src, tgt, o);
  // Arguments of static size: the instantiated check is not bounded, and
  // a failure here needs no note.
  if (!args && !r.counterexample)
    r.why = "";
  return r;
}

} // namespace cc::smt::detail
