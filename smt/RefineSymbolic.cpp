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
// counterexample's own sizes where it has one. Shapes, slices and TOSA's data
// movement are in RefineSymbolicShapes.cpp, the query in
// RefineSymbolicQuery.cpp, memrefs in RefineSymbolicMemory.cpp.
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

} // namespace cc::smt::detail
