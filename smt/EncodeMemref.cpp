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

namespace cc::smt::detail {

namespace {
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> st(shape.size(), 1);
  for (int64_t k = int64_t(shape.size()) - 2; k >= 0; --k)
    st[k] = st[k + 1] * shape[k + 1];
  return st;
}
} // namespace

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
  int b = blockOf(contents, getElementTypeOrSelf(a.getType()), true);
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
  z3::expr a = wide(m.offset);
  for (size_t k = 0; k < idx.size(); ++k) {
    ok = ok && z3::ult(idx[k], m.sizes[k]);
    a = a + wide(idx[k]) * wide(m.strides[k]);
  }
  ok = ok && a >= c.bv_val(0, 128) && a < c.bv_val(uint64_t(b.size), 128);
  return ok.simplify();
}

std::pair<z3::expr, z3::expr> Encoder::load(const MemRef &m,
                                            const std::vector<z3::expr> &idx) {
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
  // mod, floordiv and ceildiv need a positive right-hand side.
  auto floorDiv = [&](const z3::expr &x) { return (x - z3::smod(x, r)) / r; };
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
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

void Encoder::encodeMemref(Operation *op) {
  std::string n = op->getName().getStringRef().str();
  auto indexOf = [&](Value v) {
    SVal &s = get(v);
    ub = ub || s.p[0]; // a poison index is undefined behaviour
    return s.v[0];
  };
  auto indices = [&](ValueRange vs) {
    std::vector<z3::expr> r;
    for (Value v : vs)
      r.push_back(indexOf(v));
    return r;
  };
  auto folded = [&](OpFoldResult f) {
    if (auto a = dyn_cast<Attribute>(f))
      return c.bv_val(uint64_t(cast<IntegerAttr>(a).getInt()), 64);
    return indexOf(cast<Value>(f));
  };
  auto shapeOf = [&](MemRefType t, ValueRange dynSizes) {
    std::vector<int64_t> s;
    size_t k = 0;
    for (int64_t d : t.getShape())
      s.push_back(ShapedType::isDynamic(d) ? concreteIndex(dynSizes[k++]) : d);
    if (product(s) > kMaxElements)
      unsupported("allocation too large");
    return s;
  };
  auto allocate = [&](Value result, MemRefType t, ValueRange dynSizes) {
    if (!t.getLayout().isIdentity())
      unsupported("allocation with a layout");
    auto shape = shapeOf(t, dynSizes);
    z3::sort idx = c.bv_sort(64);
    int b =
        newBlock(z3::const_array(idx, zeroOf(sortOf(t))),
                 z3::const_array(idx, c.bool_val(true)), product(shape), true,
                 /*owned=*/true);
    bindRef(result, identityView(b, shape));
  };
  if (auto a = dyn_cast<memref::AllocOp>(op))
    return allocate(a, a.getType(), a.getDynamicSizes());
  if (auto a = dyn_cast<memref::AllocaOp>(op))
    return allocate(a, a.getType(), a.getDynamicSizes());
  if (auto d = dyn_cast<memref::DeallocOp>(op)) {
    // Only what the function allocated may be freed, once.
    MemBlock &b = mem[size_t(ref(d.getMemref()).block)];
    if (!b.owned || !b.live)
      ub = c.bool_val(true);
    b.live = false;
    return;
  }
  if (auto l = dyn_cast<memref::LoadOp>(op)) {
    auto [v, p] = load(ref(l.getMemref()), indices(l.getIndices()));
    env[l] = scalar(v, p);
    return;
  }
  if (auto s = dyn_cast<memref::StoreOp>(op)) {
    SVal &x = get(s.getValueToStore());
    store(ref(s.getMemref()), indices(s.getIndices()), x.v[0], x.p[0]);
    return;
  }
  // The results of an affine map applied to its operands (dims, then
  // symbols).
  auto applyMap = [&](AffineMap map, ValueRange operands) {
    std::vector<z3::expr> ops = indices(operands), r;
    std::vector<z3::expr> dims(ops.begin(), ops.begin() + map.getNumDims()),
        syms(ops.begin() + map.getNumDims(), ops.end());
    for (AffineExpr e : map.getResults())
      r.push_back(affine(e, dims, syms).simplify());
    return r;
  };
  if (auto l = dyn_cast<affine::AffineLoadOp>(op)) {
    auto [v, p] = load(ref(l.getMemref()),
                       applyMap(l.getAffineMap(), l.getMapOperands()));
    env[l] = scalar(v, p);
    return;
  }
  if (auto s = dyn_cast<affine::AffineStoreOp>(op)) {
    SVal &x = get(s.getValueToStore());
    store(ref(s.getMemref()), applyMap(s.getAffineMap(), s.getMapOperands()),
          x.v[0], x.p[0]);
    return;
  }
  if (auto a = dyn_cast<affine::AffineApplyOp>(op)) {
    env[a] = scalar(applyMap(a.getAffineMap(), a.getMapOperands())[0],
                    c.bool_val(false));
    return;
  }
  if (auto cp = dyn_cast<memref::CopyOp>(op)) {
    storeView(ref(cp.getTarget()), loadView(ref(cp.getSource())));
    return;
  }
  if (auto d = dyn_cast<memref::DimOp>(op)) {
    MemRef &m = ref(d.getSource());
    int64_t k = concreteIndex(d.getIndex());
    if (k < 0 || k >= int64_t(m.sizes.size()))
      unsupported("memref.dim out of range");
    env[d] = scalar(m.sizes[size_t(k)], c.bool_val(false));
    return;
  }
  if (auto cst = dyn_cast<memref::CastOp>(op)) {
    MemRef m = ref(cst.getSource());
    auto to = cast<MemRefType>(cst.getType());
    for (int64_t k = 0; k < to.getRank(); ++k)
      if (!to.isDynamicDim(k))
        ub = ub ||
             m.sizes[size_t(k)] != c.bv_val(uint64_t(to.getDimSize(k)), 64);
    bindRef(cst, m);
    return;
  }
  if (auto sv = dyn_cast<memref::SubViewOp>(op)) {
    const MemRef &base = ref(sv.getSource());
    MemRef m{base.block, base.offset, {}, {}};
    auto offs = sv.getMixedOffsets(), sizes = sv.getMixedSizes(),
         strides = sv.getMixedStrides();
    llvm::SmallBitVector dropped = sv.getDroppedDims();
    for (size_t k = 0; k < offs.size(); ++k) {
      z3::expr o = folded(offs[k]), s = folded(sizes[k]),
               st = folded(strides[k]);
      // The subview lies inside its source: the first and the last index
      // it covers along k are below the source's size (128 bits: no wrap).
      z3::expr last = wide(o) + (wide(s) - c.bv_val(1, 128)) * wide(st);
      z3::expr srcSize = wide(base.sizes[k]), zero = c.bv_val(0, 128);
      ub = ub ||
           (s != c.bv_val(0, 64) && !(wide(o) >= zero && wide(o) < srcSize &&
                                      last >= zero && last < srcSize));
      ub = ub || wide(s) < zero;
      m.offset = m.offset + o * base.strides[k];
      if (dropped.test(unsigned(k)))
        continue;
      m.sizes.push_back(s);
      m.strides.push_back((st * base.strides[k]).simplify());
    }
    m.offset = m.offset.simplify();
    bindRef(sv, m);
    return;
  }
  if (auto rc = dyn_cast<memref::ReinterpretCastOp>(op)) {
    MemRef m{
        ref(rc.getSource()).block, folded(rc.getMixedOffsets()[0]), {}, {}};
    for (OpFoldResult s : rc.getMixedSizes())
      m.sizes.push_back(folded(s));
    for (OpFoldResult s : rc.getMixedStrides())
      m.strides.push_back(folded(s));
    bindRef(rc, m);
    return;
  }
  if (auto col = dyn_cast<memref::CollapseShapeOp>(op)) {
    const MemRef &base = ref(col.getSrc());
    MemRef m{base.block, base.offset, {}, {}};
    std::vector<int64_t> sizes = concreteSizes(base);
    for (auto &grp : col.getReassociationIndices()) {
      int64_t size = 1;
      for (int64_t k : grp)
        size *= sizes[size_t(k)];
      m.sizes.push_back(c.bv_val(uint64_t(size), 64));
      // The stride of the innermost dimension that is not a unit one (a
      // unit dimension's stride says nothing about the group's layout).
      z3::expr stride =
          grp.empty() ? c.bv_val(1, 64) : base.strides[size_t(grp.back())];
      for (auto it = grp.rbegin(); it != grp.rend(); ++it)
        if (sizes[size_t(*it)] != 1) {
          stride = base.strides[size_t(*it)];
          break;
        }
      m.strides.push_back(stride);
    }
    bindRef(col, m);
    return;
  }
  if (auto ex = dyn_cast<memref::ExpandShapeOp>(op)) {
    const MemRef &base = ref(ex.getSrc());
    MemRef m{base.block, base.offset, {}, {}};
    auto out = ex.getMixedOutputShape();
    for (OpFoldResult s : out)
      m.sizes.push_back(folded(s));
    m.strides = m.sizes;
    auto groups = ex.getReassociationIndices();
    for (size_t k = 0; k < groups.size(); ++k) {
      z3::expr st = base.strides[k], total = c.bv_val(1, 64);
      for (auto it = groups[k].rbegin(); it != groups[k].rend(); ++it) {
        m.strides[size_t(*it)] = st;
        st = (st * m.sizes[size_t(*it)]).simplify();
        total = total * m.sizes[size_t(*it)];
      }
      ub = ub || total.simplify() != base.sizes[k];
    }
    bindRef(ex, m);
    return;
  }
  if (auto gg = dyn_cast<memref::GetGlobalOp>(op)) {
    auto g = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, gg.getNameAttr());
    if (!g || !g.getInitialValue() || g.isExternal())
      unsupported("memref.global without an initial value");
    // A mutable global may hold anything on entry, and its writes are
    // outputs: not encoded.
    if (!g.getConstant())
      unsupported("a mutable memref.global");
    std::string name = g.getSymName().str();
    if (!globals.count(name)) {
      MemRefType t = g.getType();
      auto tt = RankedTensorType::get(t.getShape(), t.getElementType());
      globals[name] = blockOf(constant(*g.getInitialValue(), tt),
                              t.getElementType(), !g.getConstant());
    }
    bindRef(gg, identityView(globals[name], shapeOf(g.getType(), {})));
    return;
  }
  if (auto tb = dyn_cast<bufferization::ToBufferOp>(op)) {
    const SVal &t = get(tb.getTensor());
    int b = blockOf(t, getElementTypeOrSelf(tb.getType()), false);
    bindRef(tb, identityView(b, t.shape));
    return;
  }
  if (auto tt = dyn_cast<bufferization::ToTensorOp>(op)) {
    env[tt] = loadView(ref(tt.getBuffer()));
    return;
  }
  if (auto md = dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
    if (isa<MemRefType>(md.getDest().getType()))
      storeView(ref(md.getDest()), get(md.getSource()));
    else
      bind(md->getResult(0), get(md.getSource()));
    return;
  }
  if (auto at = dyn_cast<bufferization::AllocTensorOp>(op)) {
    if (at.getCopy())
      bind(at, get(at.getCopy()));
    else
      env[at] = undef(resultShape(at.getType(), at.getDynamicSizes()),
                      getElementTypeOrSelf(at.getType()));
    return;
  }
  unsupported("op '" + n + "'");
}

} // namespace cc::smt::detail
