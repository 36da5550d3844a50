// Memory at symbolic sizes (RefineSymbolic.h). A block is an array over
// its own dimensions, and a view an offset and a stride per dimension of
// its block: a subview's offsets and an index are added per dimension, so
// a pass that folds subviews into loads (affine maps of the indices) is
// checked without the products of a linear layout, which a solver decides
// slowly. Views that mix a block's dimensions (collapse_shape,
// expand_shape, reinterpret_cast, a cast to another layout) go to the
// check at instantiated sizes.
//
// Undefined behaviour is the encoder's (EncodeMemref.cpp): an index
// outside the view, a subview outside its source, an access to a freed or
// non-dereferenceable block, a write to a tensor's storage, a free of
// anything but an allocation. A view made here lies inside its block (a
// subview is checked against its source), so an access checks its indices
// against the view's sizes only.
#include "smt/RefineSymbolic.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>
#include <memory>

namespace cc::smt::detail {

using namespace mlir;

namespace {
z3::expr wide(const z3::expr &x) { return z3::sext(x, 64); }

z3::expr same(z3::context &c, const Exprs &a, const Exprs &b) {
  z3::expr r = c.bool_val(true);
  for (auto [x, y] : llvm::zip(a, b))
    r = r && x == y;
  return r;
}

// Sums and products of indices flattened, their operands in one order (by
// term id): an offset folded into an index (d0 + s0) meets the subview's
// own sum (s0 + d0) as one term, which Z3's simplifier does not make.
z3::expr canonical(const z3::expr &x) {
  if (!x.is_app() || x.num_args() < 2 ||
      (x.decl().decl_kind() != Z3_OP_BADD &&
       x.decl().decl_kind() != Z3_OP_BMUL))
    return x;
  Z3_decl_kind kind = x.decl().decl_kind();
  std::vector<z3::expr> ops;
  std::function<void(const z3::expr &)> flatten = [&](const z3::expr &y) {
    if (y.is_app() && y.decl().decl_kind() == kind)
      for (unsigned i = 0; i < y.num_args(); ++i)
        flatten(y.arg(i));
    else
      ops.push_back(canonical(y));
  };
  flatten(x);
  llvm::sort(ops, [](const z3::expr &a, const z3::expr &b) {
    return a.id() < b.id();
  });
  z3::expr r = ops[0];
  for (size_t i = 1; i < ops.size(); ++i)
    r = kind == Z3_OP_BADD ? r + ops[i] : r * ops[i];
  return r;
}

Elem choose(const z3::expr &cond, const Elem &a, const Elem &b) {
  return {z3::ite(cond, a.first, b.first), z3::ite(cond, a.second, b.second)};
}
} // namespace

SymView &Points::view(Value v) {
  auto it = views.find(v);
  if (it == views.end())
    unsupported("memref defined outside the encoded region");
  return it->second;
}

// The whole block; a rank-0 view reads its block's one element.
SymView Points::identity(int block, size_t rank) {
  const Exprs &dims = blocks[size_t(block)].data.dims;
  SymView m{block, {}, {}, {}, {}};
  for (size_t j = 0; j < dims.size(); ++j) {
    m.base.push_back(c.bv_val(0, 64));
    m.strides.push_back(c.bv_val(1, 64));
    m.dimOf.push_back(rank ? int(j) : -1);
  }
  if (rank)
    m.sizes = dims;
  return m;
}

Exprs Points::address(const SymView &m, const Exprs &idx) {
  Exprs a;
  for (size_t j = 0; j < m.base.size(); ++j)
    a.push_back(canonical(
        m.dimOf[j] < 0
            ? m.base[j]
            : (m.base[j] + idx[size_t(m.dimOf[j])] * m.strides[j]).simplify()));
  return a;
}

Elem Points::read(const SymBlock &b, const Exprs &at) { return b.data.at(at); }

Elem Points::load(const SymView &m, const Exprs &idx) {
  const SymBlock &b = blocks[size_t(m.block)];
  e.ub = e.ub || !(c.bool_val(b.live) && b.deref && below(c, idx, m.sizes));
  return read(b, address(m, idx));
}

void Points::store(const SymView &m, const Exprs &idx, const Elem &x) {
  SymBlock &b = blocks[size_t(m.block)];
  e.ub = e.ub || !(c.bool_val(b.live && b.writable) && b.deref &&
                   below(c, idx, m.sizes));
  z3::context &ctx = c;
  auto old = b.data.at;
  Exprs at = address(m, idx);
  b.data.at = [&ctx, old, at, x](const Exprs &q) {
    return choose(same(ctx, q, at), x, old(q));
  };
}

z3::expr Points::nonEmpty(const SymView &m) {
  z3::expr r = c.bool_val(true);
  for (const z3::expr &s : m.sizes)
    r = r && s != c.bv_val(0, 64);
  return r;
}

// An access to every element of a view (where `when` holds).
void Points::touch(const SymView &m, bool writes, const z3::expr &when) {
  const SymBlock &b = blocks[size_t(m.block)];
  e.ub = e.ub ||
         (when && !(c.bool_val(b.live && (!writes || b.writable)) && b.deref));
}

// The view's elements as they are now (a later write does not change
// them).
Lazy Points::contents(const SymView &m) {
  auto data = blocks[size_t(m.block)].data.at;
  return Lazy{m.sizes, [this, data, m](const Exprs &idx) {
                return data(address(m, idx));
              }};
}

// Every element of a view from `from`: the block, where the view covers
// an index, holds `from`'s element at the view's index there.
void Points::write(const SymView &m, const Lazy &from) {
  SymBlock &b = blocks[size_t(m.block)];
  for (const z3::expr &st : m.strides) {
    uint64_t n;
    if (!st.is_numeral_u64(n) || n == 0 || n >= (1ull << 63))
      unsupported("a write through a view of a stride not a constant");
  }
  z3::context &ctx = c;
  auto old = b.data.at;
  b.data.at = [&ctx, m, from, old](const Exprs &q) {
    z3::expr in = ctx.bool_val(true);
    Exprs idx(m.sizes.size(), ctx.bv_val(0, 64));
    for (size_t j = 0; j < m.base.size(); ++j) {
      if (m.dimOf[j] < 0) {
        in = in && q[j] == m.base[j];
        continue;
      }
      const z3::expr &st = m.strides[j];
      bool unit = st.get_numeral_uint64() == 1;
      z3::expr d = q[j] - m.base[j];
      z3::expr i = unit ? d : z3::udiv(d, st);
      in = in && z3::uge(q[j], m.base[j]) &&
           z3::ult(i, m.sizes[size_t(m.dimOf[j])]);
      if (!unit)
        in = in && z3::urem(d, st) == 0;
      idx[size_t(m.dimOf[j])] = i.simplify();
    }
    return choose(in.simplify(), from.at(idx), old(q));
  };
}

// Offsets, sizes and strides per dimension of the source view, each
// checked as the encoder does (EncodeMemref.cpp): the first and the last
// index covered lie inside the source (128 bits: no wrap).
void Points::subview(memref::SubViewOp op) {
  const SymView &base = view(op.getSource());
  SymView m = base;
  m.sizes.clear();
  auto offs = op.getMixedOffsets(), sizes = op.getMixedSizes(),
       strides = op.getMixedStrides();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  std::vector<int> newDim(offs.size(), -1);
  z3::expr zero = c.bv_val(0, 128);
  for (size_t k = 0; k < offs.size(); ++k) {
    z3::expr o = mixed(offs[k]), s = mixed(sizes[k]), st = mixed(strides[k]);
    z3::expr last =
        (wide(o) + (wide(s) - c.bv_val(1, 128)) * wide(st)).simplify();
    z3::expr srcSize = wide(base.sizes[k]);
    e.ub = e.ub || wide(s) < zero ||
           (s != c.bv_val(0, 64) && !(wide(o) >= zero && wide(o) < srcSize &&
                                      last >= zero && last < srcSize));
    for (size_t j = 0; j < base.dimOf.size(); ++j)
      if (base.dimOf[j] == int(k)) {
        m.base[j] = (base.base[j] + o * base.strides[j]).simplify();
        m.strides[j] = (st * base.strides[j]).simplify();
      }
    if (!dropped.test(unsigned(k))) {
      newDim[k] = int(m.sizes.size());
      m.sizes.push_back(s);
    }
  }
  for (int &d : m.dimOf)
    d = d < 0 ? -1 : newDim[size_t(d)];
  m.allocation = false;
  views[op] = m;
}

// A cast to a static size asserts it; a cast to another layout is not
// covered (the layouts are linear, views here are not).
void Points::memrefCast(memref::CastOp op) {
  auto from = dyn_cast<MemRefType>(op.getSource().getType());
  auto to = dyn_cast<MemRefType>(op.getType());
  if (!from || !to || from.getLayout() != to.getLayout())
    unsupportedOp(op);
  SymView m = view(op.getSource());
  for (int64_t k = 0; k < to.getRank(); ++k)
    if (!to.isDynamicDim(k)) {
      z3::expr d = c.bv_val(uint64_t(to.getDimSize(k)), 64);
      e.ub = e.ub || m.sizes[size_t(k)] != d;
      m.sizes[size_t(k)] = d;
    }
  m.allocation = false;
  views[op] = m;
}

// A new block, poison until written; its own view may be freed.
void Points::allocate(Value result, MemRefType t, Exprs dims) {
  if (!t.getLayout().isIdentity())
    unsupported("allocation with a layout");
  size_t rank = dims.size();
  if (dims.empty())
    dims.push_back(c.bv_val(1, 64));
  Elem none{e.zeroOf(e.sortOf(t.getElementType())), c.bool_val(true)};
  SymBlock b{Lazy{std::move(dims), [none](const Exprs &) { return none; }},
             true, true, true, c.bool_val(true)};
  blocks.push_back(std::move(b));
  SymView m = identity(int(blocks.size()) - 1, rank);
  m.allocation = true;
  views[result] = m;
}

void Points::dealloc(memref::DeallocOp op) {
  const SymView &m = view(op.getMemref());
  SymBlock &b = blocks[size_t(m.block)];
  if (!b.owned || !b.live || !m.allocation)
    e.ub = c.bool_val(true);
  b.live = false;
}

// Two views of one block that are not one view: reading all of one and
// then writing the other is not what a loop over them does.
void Points::noOverlap(const SymView &a, const SymView &b) {
  auto same = [](const Exprs &x, const Exprs &y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](const auto &p) {
             return z3::eq(std::get<0>(p), std::get<1>(p));
           });
  };
  if (a.block == b.block &&
      !(a.dimOf == b.dimOf && same(a.base, b.base) &&
        same(a.strides, b.strides) && same(a.sizes, b.sizes)))
    unsupported("views of one buffer that may overlap");
}

// Views of other sizes are undefined.
void Points::copy(const SymView &from, const SymView &to) {
  noOverlap(from, to);
  for (auto [a, b] : llvm::zip(from.sizes, to.sizes))
    e.ub = e.ub || a != b;
  touch(from, false, nonEmpty(from));
  touch(to, true, nonEmpty(to));
  write(to, contents(from));
}

// linalg.generic on buffers: the tensor rules on each operand's contents
// before the op, the outputs then written.
void Points::bufferGeneric(linalg::GenericOp gen) {
  if (!gen.hasPureBufferSemantics())
    unsupported("linalg.generic on tensors and buffers");
  // The operands as they are now, kept by the outputs' rules: a memref
  // value's contents change at later writes.
  // An output in place of an input: one view read by one map.
  for (OpOperand *in : gen.getDpsInputOperands())
    for (OpOperand &out : gen.getDpsInitsMutable())
      if (isa<MemRefType>(in->get().getType())) {
        noOverlap(view(in->get()), view(out.get()));
        if (view(in->get()).block == view(out.get()).block &&
            gen.getMatchingIndexingMap(in) != gen.getMatchingIndexingMap(&out))
          unsupported("an output read in place by another map");
      }
  auto ops = std::make_shared<std::vector<Lazy>>();
  for (OpOperand &o : gen->getOpOperands()) {
    ops->push_back({});
    if (isa<MemRefType>(o.get().getType()))
      bind(o.get(), ops->back() = contents(view(o.get())));
  }
  Loops loops = loopsOf(gen);
  for (OpOperand &o : gen->getOpOperands())
    if (isa<MemRefType>(o.get().getType()))
      touch(view(o.get()), gen.isDpsInit(&o), *loops.runs);
  std::vector<Lazy> outs;
  for (unsigned k = 0; k < gen.getNumDpsInits(); ++k)
    outs.push_back(rule(ops->at(gen.getNumDpsInputs() + k).dims,
                        [this, gen, loops, k, ops](const Exprs &idx) {
                          return genericAt(gen, loops, k, idx, ops.get());
                        }));
  for (unsigned k = 0; k < gen.getNumDpsInits(); ++k)
    write(view(gen.getDpsInits()[k]), outs[k]);
}

// The memory ops; false for an op of another kind. Memory inside a branch
// or a body is not covered.
bool Points::memoryStep(Operation *op) {
  bool buffers =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
  if (!buffers)
    return false;
  if (bodies || !guard.is_true())
    unsupported("memory in a branch or a body at symbolic sizes");
  auto indices = [&](ValueRange vs) {
    Exprs r;
    for (Value v : vs)
      r.push_back(index(v));
    return r;
  };
  auto applied = [&](AffineMap map, ValueRange operands) {
    Exprs ops = indices(operands), r;
    Exprs dims(ops.begin(), ops.begin() + map.getNumDims()),
        syms(ops.begin() + map.getNumDims(), ops.end());
    for (AffineExpr x : map.getResults())
      r.push_back(e.affine(x, dims, syms).simplify());
    return r;
  };
  auto value = [&](Value v) {
    const SVal &s = e.get(v);
    return Elem{s.v[0], s.p[0]};
  };
  bool known = true;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](memref::LoadOp x) {
        Elem r = load(view(x.getMemref()), indices(x.getIndices()));
        e.env[x] = e.scalar(r.first, r.second);
      })
      .Case([&](affine::AffineLoadOp x) {
        Elem r = load(view(x.getMemref()),
                      applied(x.getAffineMap(), x.getMapOperands()));
        e.env[x] = e.scalar(r.first, r.second);
      })
      .Case([&](memref::StoreOp x) {
        store(view(x.getMemref()), indices(x.getIndices()),
              value(x.getValueToStore()));
      })
      .Case([&](affine::AffineStoreOp x) {
        store(view(x.getMemref()),
              applied(x.getAffineMap(), x.getMapOperands()),
              value(x.getValueToStore()));
      })
      .Case([&](memref::SubViewOp x) { subview(x); })
      .Case([&](memref::CastOp x) { memrefCast(x); })
      .Case([&](memref::DimOp x) {
        sizeAt(x, view(x.getSource()).sizes, x.getIndex());
      })
      .Case<memref::AllocOp, memref::AllocaOp>([&](auto x) {
        Exprs dims;
        size_t k = 0;
        auto sizes = x.getDynamicSizes();
        for (int64_t d : x.getType().getShape()) {
          if (!ShapedType::isDynamic(d)) {
            dims.push_back(c.bv_val(uint64_t(d), 64));
            continue;
          }
          dims.push_back(index(sizes[k++]));
          e.ub = e.ub || dims.back() < c.bv_val(0, 64);
        }
        allocate(x, x.getType(), dims);
      })
      .Case([&](memref::DeallocOp x) { dealloc(x); })
      .Case([&](memref::CopyOp x) {
        copy(view(x.getSource()), view(x.getTarget()));
      })
      .Case([&](bufferization::ToBufferOp x) {
        const Lazy &t = tensor(x.getTensor());
        SymBlock b{t, false, true, false, c.bool_val(true)};
        if (t.dims.empty())
          b.data =
              Lazy{{c.bv_val(1, 64)}, [t](const Exprs &) { return t.at({}); }};
        blocks.push_back(std::move(b));
        views[x] = identity(int(blocks.size()) - 1, t.dims.size());
      })
      .Case([&](bufferization::ToTensorOp x) {
        const SymView &m = view(x.getBuffer());
        touch(m, false, nonEmpty(m));
        bind(x, contents(m));
      })
      .Case([&](bufferization::CloneOp x) {
        SymView from = view(x.getInput());
        allocate(x, cast<MemRefType>(x.getType()), from.sizes);
        touch(from, false, nonEmpty(from));
        write(view(x), contents(from));
      })
      .Case([&](bufferization::MaterializeInDestinationOp x) {
        const SymView &to = view(x.getDest());
        const Lazy &from = tensor(x.getSource());
        for (auto [a, b] : llvm::zip(from.dims, to.sizes))
          e.ub = e.ub || a != b;
        touch(to, true, nonEmpty(to));
        write(to, from);
      })
      .Case([&](linalg::GenericOp x) { bufferGeneric(x); })
      .Default([&](Operation *) { known = false; });
  if (!known)
    unsupportedOp(op);
  return true;
}

} // namespace cc::smt::detail
