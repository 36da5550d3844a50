// The Z3 encoding of memory: memref, bufferization and affine index ops.
//
// A block of memory is a pair of arrays (element, poison) over 64-bit
// element indices; a memref is a strided view into one block. Loads and
// stores at symbolic indices stay one select or store, so a pass that
// rewrites index arithmetic (subview folding, affine maps) is checked by
// comparing addresses, not by case splits over the elements.
//
// Undefined behaviour: an index outside the view, a subview outside its
// source, an access to a deallocated block, and a write to a read-only
// block. The storage of a tensor (bufferization.to_buffer) and constant
// globals are read-only: tensors are values, so writing their storage
// would change a value that others (the caller, later readers) still see.
#include "smt/Encoder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> st(shape.size(), 1);
  for (int64_t k = int64_t(shape.size()) - 2; k >= 0; --k)
    st[k] = st[k + 1] * shape[k + 1];
  return st;
}
} // namespace

MemRef &Encoder::ref(Value v) {
  auto it = refs.find(v);
  if (it == refs.end())
    unsupported("memref defined outside the encoded region");
  return it->second;
}

int Encoder::newBlock(z3::expr v, z3::expr p, int64_t size, bool writable,
                      bool owned) {
  mem.push_back(
      MemBlock{std::move(v), std::move(p), size, writable, true, owned});
  return int(mem.size()) - 1;
}

void Encoder::bindRef(Value v, MemRef m) {
  refs.insert_or_assign(v, std::move(m));
}

MemRef Encoder::identityView(int block, const std::vector<int64_t> &shape) {
  MemRef m{block, c.bv_val(0, 64), {}, {}};
  for (auto [d, s] : llvm::zip(shape, rowMajorStrides(shape))) {
    m.sizes.push_back(c.bv_val(uint64_t(d), 64));
    m.strides.push_back(c.bv_val(uint64_t(s), 64));
  }
  return m;
}

int Encoder::blockOf(const SVal &contents, Type elt, bool writable) {
  z3::sort idx = c.bv_sort(64);
  if (contents.array)
    return newBlock(*contents.array, z3::const_array(idx, c.bool_val(false)),
                    contents.size(), writable);
  z3::expr v = z3::const_array(idx, zeroOf(sortOf(elt)));
  z3::expr p = z3::const_array(idx, c.bool_val(false));
  for (int64_t i = 0; i < contents.size(); ++i) {
    z3::expr at = c.bv_val(uint64_t(i), 64);
    v = z3::store(v, at, contents.v[i]);
    if (!contents.p[i].is_false())
      p = z3::store(p, at, contents.p[i]);
  }
  return newBlock(v, p, contents.size(), writable);
}

void Encoder::bindArgument(unsigned index, BlockArgument a,
                           const SVal &contents) {
  if (index < aliasOf.size() && aliasOf[index] >= 0) {
    int b = argBlocks.at(unsigned(aliasOf[index]));
    argBlocks[index] = b;
    bindRef(a, identityView(b, contents.shape));
    return;
  }
  int b = blockOf(contents, getElementTypeOrSelf(a.getType()), true);
  mem[size_t(b)].deref =
      c.bool_const(("deref_arg" + std::to_string(index)).c_str());
  argBlocks[index] = b;
  bindRef(a, identityView(b, contents.shape));
}

std::vector<int64_t> Encoder::concreteSizes(const MemRef &m) {
  std::vector<int64_t> s;
  for (const z3::expr &e : m.sizes)
    s.push_back(concreteIndex(e));
  return s;
}

// offset + sum(idx * stride). Valid only where the access is in bounds.
z3::expr Encoder::address(const MemRef &m, const std::vector<z3::expr> &idx) {
  z3::expr a = m.offset;
  for (size_t k = 0; k < idx.size(); ++k)
    a = a + idx[k] * m.strides[k];
  return a.simplify();
}

namespace {
// A signed 64-bit index widened so that sums of products cannot wrap.
z3::expr wide(const z3::expr &e) { return z3::sext(e, 64); }
} // namespace

// An in-bounds access: every index below its size and the address inside
// the block (checked in 128 bits). Anything else is undefined behaviour.
static z3::expr accessOk(z3::context &c, const MemRef &m, const MemBlock &b,
                         const std::vector<z3::expr> &idx) {
  z3::expr ok = c.bool_val(b.live);
  if (b.deref)
    ok = ok && *b.deref;
  z3::expr a = wide(m.offset);
  for (size_t k = 0; k < idx.size(); ++k) {
    ok = ok && z3::ult(idx[k], m.sizes[k]);
    a = a + wide(idx[k]) * wide(m.strides[k]);
  }
  ok = ok && a >= c.bv_val(0, 128) && a < c.bv_val(uint64_t(b.size), 128);
  return ok.simplify();
}

Elem Encoder::load(const MemRef &m, const std::vector<z3::expr> &idx) {
  const MemBlock &b = mem[size_t(m.block)];
  ub = ub || !accessOk(c, m, b, idx);
  z3::expr a = address(m, idx);
  return {z3::select(b.v, a).simplify(), z3::select(b.p, a).simplify()};
}

void Encoder::store(const MemRef &m, const std::vector<z3::expr> &idx,
                    const z3::expr &v, const z3::expr &p) {
  MemBlock &b = mem[size_t(m.block)];
  ub = ub || !accessOk(c, m, b, idx);
  if (!b.writable)
    ub = c.bool_val(true);
  z3::expr a = address(m, idx);
  b.v = z3::store(b.v, a, v);
  b.p = z3::store(b.p, a, p);
}

SVal Encoder::loadView(const MemRef &m) {
  SVal r;
  r.shape = concreteSizes(m);
  int64_t n = product(r.shape);
  if (n > kMaxElements)
    unsupported("memref too large");
  for (int64_t i = 0; i < n; ++i) {
    std::vector<z3::expr> idx;
    for (int64_t k : unflatten(i, r.shape))
      idx.push_back(c.bv_val(uint64_t(k), 64));
    auto [v, p] = load(m, idx);
    r.v.push_back(v);
    r.p.push_back(p);
  }
  return r;
}

void Encoder::storeView(const MemRef &m, const SVal &s) {
  std::vector<int64_t> shape = concreteSizes(m);
  if (shape != s.shape) {
    ub = c.bool_val(true); // a copy between views of different shapes
    return;
  }
  for (int64_t i = 0; i < s.size(); ++i) {
    std::vector<z3::expr> idx;
    for (int64_t k : unflatten(i, shape))
      idx.push_back(c.bv_val(uint64_t(k), 64));
    store(m, idx, s.v[i], s.p[i]);
  }
}

z3::expr Encoder::affine(AffineExpr e, const std::vector<z3::expr> &dims,
                         const std::vector<z3::expr> &syms) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return syms[s.getPosition()];
  if (auto k = dyn_cast<AffineConstantExpr>(e))
    return c.bv_val(uint64_t(k.getValue()), 64);
  auto b = cast<AffineBinaryOpExpr>(e);
  z3::expr l = affine(b.getLHS(), dims, syms),
           r = affine(b.getRHS(), dims, syms);
  z3::expr zero = c.bv_val(0, 64);
  // mod, floordiv and ceildiv need a positive right-hand side. Affine
  // computations do not overflow in the signed sense ("As with other affine
  // operations, lowerings ... may assume that the underlying computations
  // do not overflow the index type in a signed sense", AffineOps.td).
  auto floorDiv = [&](const z3::expr &x) { return (x - z3::smod(x, r)) / r; };
  switch (e.getKind()) {
  case AffineExprKind::Add:
    ub = ub || !z3::bvadd_no_overflow(l, r, true) ||
         !z3::bvadd_no_underflow(l, r);
    return l + r;
  case AffineExprKind::Mul:
    ub = ub || !z3::bvmul_no_overflow(l, r, true) ||
         !z3::bvmul_no_underflow(l, r);
    return l * r;
  case AffineExprKind::Mod:
    ub = ub || r <= zero;
    return z3::smod(l, r);
  case AffineExprKind::FloorDiv:
    ub = ub || r <= zero;
    return floorDiv(l);
  case AffineExprKind::CeilDiv:
    ub = ub || r <= zero;
    return -floorDiv(-l);
  default:
    unsupported("affine expression");
  }
}

// ---- ops
// ----------------------------------------------------------------------

namespace {

// An index operand; a poison index is undefined behaviour.
z3::expr indexOf(Encoder &e, Value v) {
  SVal &s = e.get(v);
  e.ub = e.ub || s.p[0];
  return s.v[0];
}

std::vector<z3::expr> indices(Encoder &e, ValueRange vs) {
  std::vector<z3::expr> r;
  for (Value v : vs)
    r.push_back(indexOf(e, v));
  return r;
}

z3::expr folded(Encoder &e, OpFoldResult f) {
  if (auto a = dyn_cast<Attribute>(f))
    return e.c.bv_val(uint64_t(cast<IntegerAttr>(a).getInt()), 64);
  return indexOf(e, cast<Value>(f));
}

std::vector<int64_t> shapeOf(Encoder &e, MemRefType t, ValueRange dynSizes) {
  std::vector<int64_t> s;
  size_t k = 0;
  for (int64_t d : t.getShape())
    s.push_back(ShapedType::isDynamic(d) ? e.concreteIndex(dynSizes[k++]) : d);
  if (product(s) > kMaxElements)
    unsupported("allocation too large");
  return s;
}

// The results of an affine map applied to its operands (dims, then
// symbols).
std::vector<z3::expr> applyMap(Encoder &e, AffineMap map, ValueRange operands) {
  std::vector<z3::expr> ops = indices(e, operands), r;
  std::vector<z3::expr> dims(ops.begin(), ops.begin() + map.getNumDims()),
      syms(ops.begin() + map.getNumDims(), ops.end());
  for (AffineExpr x : map.getResults())
    r.push_back(e.affine(x, dims, syms).simplify());
  return r;
}

// A fresh block of `shape`, poison until written, and the allocation's own
// memref on it (the one that may be freed).
MemRef newAllocation(Encoder &e, MemRefType t,
                     const std::vector<int64_t> &shape) {
  if (!t.getLayout().isIdentity())
    unsupported("allocation with a layout");
  z3::sort idx = e.c.bv_sort(64);
  int b = e.newBlock(z3::const_array(idx, e.zeroOf(e.sortOf(t))),
                     z3::const_array(idx, e.c.bool_val(true)), product(shape),
                     true, /*owned=*/true);
  MemRef m = e.identityView(b, shape);
  m.allocation = true;
  return m;
}

// alloc and alloca.
void allocate(Encoder &e, Value result, MemRefType t, ValueRange dynSizes) {
  e.bindRef(result, newAllocation(e, t, shapeOf(e, t, dynSizes)));
}

void encode(Encoder &e, memref::AllocOp op) {
  allocate(e, op, op.getType(), op.getDynamicSizes());
}

// bufferization.clone: a new allocation holding a copy of the source's
// contents.
void encode(Encoder &e, bufferization::CloneOp op) {
  SVal contents = e.loadView(e.ref(op.getInput()));
  MemRef m = newAllocation(e, cast<MemRefType>(op.getType()), contents.shape);
  e.storeView(m, contents);
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::AllocaOp op) {
  allocate(e, op, op.getType(), op.getDynamicSizes());
}

void encode(Encoder &e, memref::DeallocOp op) {
  // Only what the function allocated may be freed, once, through the
  // allocation's own memref.
  const MemRef &m = e.ref(op.getMemref());
  MemBlock &b = e.mem[size_t(m.block)];
  if (!b.owned || !b.live || !m.allocation)
    e.ub = e.c.bool_val(true);
  b.live = false;
}

void encode(Encoder &e, memref::LoadOp op) {
  auto [v, p] = e.load(e.ref(op.getMemref()), indices(e, op.getIndices()));
  e.env[op] = e.scalar(v, p);
}

void encode(Encoder &e, memref::StoreOp op) {
  SVal &x = e.get(op.getValueToStore());
  e.store(e.ref(op.getMemref()), indices(e, op.getIndices()), x.v[0], x.p[0]);
}

void encode(Encoder &e, affine::AffineLoadOp op) {
  auto [v, p] = e.load(e.ref(op.getMemref()),
                       applyMap(e, op.getAffineMap(), op.getMapOperands()));
  e.env[op] = e.scalar(v, p);
}

void encode(Encoder &e, affine::AffineStoreOp op) {
  SVal &x = e.get(op.getValueToStore());
  e.store(e.ref(op.getMemref()),
          applyMap(e, op.getAffineMap(), op.getMapOperands()), x.v[0], x.p[0]);
}

void encode(Encoder &e, affine::AffineApplyOp op) {
  e.env[op] = e.scalar(applyMap(e, op.getAffineMap(), op.getMapOperands())[0],
                       e.c.bool_val(false));
}

void encode(Encoder &e, memref::CopyOp op) {
  e.storeView(e.ref(op.getTarget()), e.loadView(e.ref(op.getSource())));
}

void encode(Encoder &e, memref::DimOp op) {
  MemRef &m = e.ref(op.getSource());
  int64_t k = e.concreteIndex(op.getIndex());
  if (k < 0 || k >= int64_t(m.sizes.size()))
    unsupported("memref.dim out of range");
  e.env[op] = e.scalar(m.sizes[size_t(k)], e.c.bool_val(false));
}

void encode(Encoder &e, memref::CastOp op) {
  MemRef m = e.ref(op.getSource());
  auto to = cast<MemRefType>(op.getType());
  for (int64_t k = 0; k < to.getRank(); ++k)
    if (!to.isDynamicDim(k))
      e.ub = e.ub ||
             m.sizes[size_t(k)] != e.c.bv_val(uint64_t(to.getDimSize(k)), 64);
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::SubViewOp op) {
  const MemRef &base = e.ref(op.getSource());
  MemRef m{base.block, base.offset, {}, {}};
  auto offs = op.getMixedOffsets(), sizes = op.getMixedSizes(),
       strides = op.getMixedStrides();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (size_t k = 0; k < offs.size(); ++k) {
    z3::expr o = folded(e, offs[k]), s = folded(e, sizes[k]),
             st = folded(e, strides[k]);
    // The subview lies inside its source: the first and the last index
    // it covers along k are below the source's size (128 bits: no wrap).
    z3::expr last = wide(o) + (wide(s) - e.c.bv_val(1, 128)) * wide(st);
    z3::expr srcSize = wide(base.sizes[k]), zero = e.c.bv_val(0, 128);
    e.ub = e.ub ||
           (s != e.c.bv_val(0, 64) && !(wide(o) >= zero && wide(o) < srcSize &&
                                        last >= zero && last < srcSize));
    e.ub = e.ub || wide(s) < zero;
    m.offset = m.offset + o * base.strides[k];
    if (dropped.test(unsigned(k)))
      continue;
    m.sizes.push_back(s);
    m.strides.push_back((st * base.strides[k]).simplify());
  }
  m.offset = m.offset.simplify();
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::ReinterpretCastOp op) {
  MemRef m{
      e.ref(op.getSource()).block, folded(e, op.getMixedOffsets()[0]), {}, {}};
  for (OpFoldResult s : op.getMixedSizes())
    m.sizes.push_back(folded(e, s));
  for (OpFoldResult s : op.getMixedStrides())
    m.strides.push_back(folded(e, s));
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::CollapseShapeOp op) {
  const MemRef &base = e.ref(op.getSrc());
  MemRef m{base.block, base.offset, {}, {}};
  std::vector<int64_t> sizes = e.concreteSizes(base);
  for (auto &grp : op.getReassociationIndices()) {
    int64_t size = 1;
    for (int64_t k : grp)
      size *= sizes[size_t(k)];
    m.sizes.push_back(e.c.bv_val(uint64_t(size), 64));
    // The stride of the innermost dimension that is not a unit one (a
    // unit dimension's stride says nothing about the group's layout).
    z3::expr stride =
        grp.empty() ? e.c.bv_val(1, 64) : base.strides[size_t(grp.back())];
    for (auto it = grp.rbegin(); it != grp.rend(); ++it)
      if (sizes[size_t(*it)] != 1) {
        stride = base.strides[size_t(*it)];
        break;
      }
    m.strides.push_back(stride);
  }
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::ExpandShapeOp op) {
  const MemRef &base = e.ref(op.getSrc());
  MemRef m{base.block, base.offset, {}, {}};
  auto out = op.getMixedOutputShape();
  for (OpFoldResult s : out)
    m.sizes.push_back(folded(e, s));
  m.strides = m.sizes;
  auto groups = op.getReassociationIndices();
  for (size_t k = 0; k < groups.size(); ++k) {
    z3::expr st = base.strides[k], total = e.c.bv_val(1, 64);
    for (auto it = groups[k].rbegin(); it != groups[k].rend(); ++it) {
      m.strides[size_t(*it)] = st;
      st = (st * m.sizes[size_t(*it)]).simplify();
      total = total * m.sizes[size_t(*it)];
    }
    e.ub = e.ub || total.simplify() != base.sizes[k];
  }
  e.bindRef(op, m);
}

void encode(Encoder &e, memref::GetGlobalOp op) {
  auto g = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      op, op.getNameAttr());
  if (!g || !g.getInitialValue() || g.isExternal())
    unsupported("memref.global without an initial value");
  // A mutable global may hold anything on entry, and its writes are
  // outputs: not encoded.
  if (!g.getConstant())
    unsupported("a mutable memref.global");
  std::string name = g.getSymName().str();
  if (!e.globals.count(name)) {
    MemRefType t = g.getType();
    auto tt = RankedTensorType::get(t.getShape(), t.getElementType());
    e.globals[name] = e.blockOf(e.constant(*g.getInitialValue(), tt),
                                t.getElementType(), !g.getConstant());
  }
  e.bindRef(op, e.identityView(e.globals[name], shapeOf(e, g.getType(), {})));
}

void encode(Encoder &e, bufferization::ToBufferOp op) {
  const SVal &t = e.get(op.getTensor());
  int b = e.blockOf(t, getElementTypeOrSelf(op.getType()), false);
  e.bindRef(op, e.identityView(b, t.shape));
}

void encode(Encoder &e, bufferization::ToTensorOp op) {
  e.env[op] = e.loadView(e.ref(op.getBuffer()));
}

void encode(Encoder &e, bufferization::MaterializeInDestinationOp op) {
  if (isa<MemRefType>(op.getDest().getType()))
    e.storeView(e.ref(op.getDest()), e.get(op.getSource()));
  else
    e.bind(op->getResult(0), e.get(op.getSource()));
}

void encode(Encoder &e, bufferization::AllocTensorOp op) {
  if (op.getCopy())
    e.bind(op, e.get(op.getCopy()));
  else
    e.env[op] = e.undef(e.resultShape(op.getType(), op.getDynamicSizes()),
                        getElementTypeOrSelf(op.getType()));
}

} // namespace

void Encoder::encodeMemref(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            memref::LoadOp, memref::StoreOp, memref::CopyOp, memref::DimOp,
            memref::CastOp, memref::SubViewOp, memref::ReinterpretCastOp,
            memref::CollapseShapeOp, memref::ExpandShapeOp, memref::GetGlobalOp,
            affine::AffineLoadOp, affine::AffineStoreOp, affine::AffineApplyOp,
            bufferization::ToBufferOp, bufferization::ToTensorOp,
            bufferization::MaterializeInDestinationOp,
            bufferization::AllocTensorOp, bufferization::CloneOp>(
          [&](auto typed) { encode(*this, typed); })
      .Case([&](affine::AffineForOp loop) { encodeAffineFor(loop); })
      .Default([](Operation *op) { unsupportedOp(op); });
}

} // namespace cc::smt::detail
