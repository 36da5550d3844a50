// The Z3 encoding of the tensor dialect and of the shape dialect's extent
// tensors: one function per op, dispatched by encodeTensor's table.
#include "smt/Encoder.h"

#include "mlir/Dialect/Shape/IR/Shape.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

// The element a body whose arguments are the indices yields at `idx`
// (tensor.generate, tensor.pad).
Elem evalAt(Encoder &e, Block &body, const std::vector<int64_t> &idx) {
  std::vector<SVal> args;
  for (int64_t k : idx)
    args.push_back(e.indexVal(k));
  return e.evalBody(body, args, idx)[0];
}

void encode(Encoder &e, tensor::EmptyOp op) {
  Type rt = op.getType();
  e.env[op] = e.undef(e.resultShape(rt, op.getDynamicSizes()),
                      getElementTypeOrSelf(rt));
}

void encode(Encoder &e, tensor::DimOp op) {
  SVal &s = e.get(op.getSource());
  int64_t k = e.concreteIndex(op.getIndex());
  if (k < 0 || k >= int64_t(s.shape.size()))
    unsupported("tensor.dim out of range");
  e.env[op] = e.indexVal(s.shape[k]);
}

void encode(Encoder &e, tensor::ExtractOp op) {
  z3::expr p = e.c.bool_val(false);
  std::vector<z3::expr> idx = e.scalarValues(op.getIndices(), p);
  auto [v, vp] = e.at(e.get(op.getTensor()), idx);
  e.env[op] = e.scalar(v, vp || p);
}

// Writes `v` (poison `p`) at symbolic indices `idx` of `r`: every element
// is selected by whether it is the one; out of bounds is undefined.
void insertAt(Encoder &e, SVal &r, const std::vector<z3::expr> &idx,
              const z3::expr &v, const z3::expr &p) {
  z3::context &c = e.c;
  z3::expr inBounds = c.bool_val(true);
  for (size_t k = 0; k < idx.size(); ++k)
    inBounds = inBounds && z3::ult(idx[k], c.bv_val(uint64_t(r.shape[k]), 64));
  e.ub = e.ub || !inBounds;
  for (int64_t j = 0; j < r.size(); ++j) {
    z3::expr hit = c.bool_val(true);
    for (auto [k, d] : llvm::enumerate(unflatten(j, r.shape)))
      hit = hit && idx[k] == c.bv_val(uint64_t(d), 64);
    r.v[j] = z3::ite(hit, v, r.v[j]);
    r.p[j] = z3::ite(hit, p, r.p[j]);
  }
}

void encode(Encoder &e, tensor::InsertOp op) {
  SVal r = e.get(op.getDest());
  SVal s = e.get(op.getScalar());
  bool symbolic = llvm::any_of(op.getIndices(), [&](Value i) {
    return !e.get(i).v[0].simplify().is_numeral();
  });
  if (symbolic) {
    z3::expr p = s.p[0];
    std::vector<z3::expr> idx = e.scalarValues(op.getIndices(), p);
    insertAt(e, r, idx, s.v[0], p);
    e.env[op] = r;
    return;
  }
  std::vector<int64_t> idx;
  for (Value i : op.getIndices())
    idx.push_back(e.concreteIndex(i));
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 0 || idx[k] >= r.shape[k])
      e.ub = e.c.bool_val(true);
  if (!e.ub.simplify().is_true()) {
    int64_t j = flatten(idx, r.shape);
    r.v[j] = s.v[0];
    r.p[j] = s.p[0];
  }
  e.env[op] = r;
}

void encode(Encoder &e, tensor::FromElementsOp op) {
  SVal r;
  r.shape = e.resultShape(op.getType(), {});
  for (Value v : op.getElements()) {
    r.v.push_back(e.get(v).v[0]);
    r.p.push_back(e.get(v).p[0]);
  }
  e.env[op] = r;
}

void encode(Encoder &e, tensor::SplatOp op) {
  SVal s = e.get(op.getInput());
  SVal r;
  r.shape = e.resultShape(op.getType(), op.getDynamicSizes());
  r.v.assign(product(r.shape), s.v[0]);
  r.p.assign(product(r.shape), s.p[0]);
  e.env[op] = r;
}

void encode(Encoder &e, tensor::GenerateOp op) {
  SVal r;
  r.shape = e.resultShape(op.getType(), op.getDynamicExtents());
  Block &body = op.getBody().front();
  for (int64_t i = 0; i < product(r.shape); ++i) {
    auto [v, p] = evalAt(e, body, unflatten(i, r.shape));
    r.v.push_back(v);
    r.p.push_back(p);
  }
  e.env[op] = r;
}

void encode(Encoder &e, tensor::CastOp op) {
  SVal r = e.get(op.getSource());
  auto to = cast<RankedTensorType>(op.getType());
  for (int64_t k = 0; k < to.getRank(); ++k)
    if (!to.isDynamicDim(k) && to.getDimSize(k) != r.shape[k])
      e.ub = e.c.bool_val(true);
  e.env[op] = r;
}

void encode(Encoder &e, tensor::CollapseShapeOp op) {
  SVal r = e.get(op.getSrc());
  std::vector<int64_t> s;
  for (auto &grp : op.getReassociationIndices()) {
    int64_t d = 1;
    for (int64_t k : grp)
      d *= r.shape[k];
    s.push_back(d);
  }
  r.shape = s;
  e.env[op] = r;
}

void encode(Encoder &e, tensor::ExpandShapeOp op) {
  SVal r = e.get(op.getSrc());
  std::vector<int64_t> s;
  size_t dyn = 0;
  for (int64_t d : op.getStaticOutputShape())
    s.push_back(ShapedType::isDynamic(d)
                    ? e.concreteIndex(op.getOutputShape()[dyn++])
                    : d);
  if (product(s) != r.size())
    e.ub = e.c.bool_val(true);
  r.shape = s;
  e.env[op] = r;
}

// The offsets, sizes and strides of a slice, where each is static or a
// value known here (a size at instantiated sizes); others are not encoded.
struct Slice {
  std::vector<int64_t> offsets, sizes, strides;
};
Slice staticSlice(Encoder &e, OffsetSizeAndStrideOpInterface op) {
  auto known = [&](SmallVector<OpFoldResult> fs, const char *what) {
    std::vector<int64_t> r;
    for (OpFoldResult f : fs) {
      if (auto a = dyn_cast<Attribute>(f)) {
        r.push_back(cast<IntegerAttr>(a).getInt());
        continue;
      }
      const SVal &v = e.get(cast<Value>(f));
      uint64_t u;
      if (!z3::expr(v.p[0]).simplify().is_false() ||
          !e.pinned(v.v[0]).is_numeral_u64(u))
        unsupported(std::string("dynamic ") + what + " of " +
                    op->getName().getStringRef().str());
      r.push_back(int64_t(u));
    }
    return r;
  };
  // Sequenced: the first dynamic one is the one reported.
  Slice s;
  s.offsets = known(op.getMixedOffsets(), "offsets");
  s.sizes = known(op.getMixedSizes(), "sizes");
  s.strides = known(op.getMixedStrides(), "strides");
  return s;
}

// The flat index in `shape` of element `i` of the slice; `what` is out of
// bounds (not encoded) where it leaves the shape.
int64_t sliceElement(const Slice &s, int64_t i,
                     const std::vector<int64_t> &shape, const char *what) {
  auto idx = unflatten(i, s.sizes);
  for (size_t k = 0; k < idx.size(); ++k) {
    idx[k] = s.offsets[k] + idx[k] * s.strides[k];
    if (idx[k] >= shape[k])
      unsupported(std::string(what) + " out of bounds");
  }
  return flatten(idx, shape);
}

// The offsets of a slice whose sizes and strides are static but whose
// offsets are not: symbolic indices.
std::optional<std::vector<z3::expr>>
symbolicOffsets(Encoder &e, OffsetSizeAndStrideOpInterface op) {
  if (!llvm::any_of(op.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(op.getStaticSizes(), ShapedType::isDynamic) ||
      llvm::any_of(op.getStaticStrides(), ShapedType::isDynamic))
    return std::nullopt;
  std::vector<z3::expr> r;
  for (OpFoldResult f : op.getMixedOffsets()) {
    if (auto v = dyn_cast<Value>(f))
      e.ub = e.ub || e.get(v).p[0]; // a slice at a poison offset
    r.push_back(
        isa<Attribute>(f)
            ? e.c.bv_val(
                  uint64_t(cast<IntegerAttr>(cast<Attribute>(f)).getInt()), 64)
            : e.get(cast<Value>(f)).v[0]);
  }
  return r;
}

// Index `i` of a slice's element in its source (or destination).
std::vector<z3::expr> sliceIndex(Encoder &e, const std::vector<z3::expr> &off,
                                 ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> strides, int64_t i) {
  std::vector<int64_t> ii =
      unflatten(i, std::vector<int64_t>(sizes.begin(), sizes.end()));
  std::vector<z3::expr> idx;
  for (size_t k = 0; k < ii.size(); ++k)
    idx.push_back(off[k] + e.c.bv_val(uint64_t(ii[k] * strides[k]), 64));
  return idx;
}

// Sizes of a slice without its dropped unit dimensions.
std::vector<int64_t> keptSizes(tensor::ExtractSliceOp op,
                               const std::vector<int64_t> &sizes) {
  std::vector<int64_t> kept;
  auto dropped = op.getDroppedDims();
  for (size_t k = 0; k < sizes.size(); ++k)
    if (!dropped.test(k))
      kept.push_back(sizes[k]);
  return kept;
}

void encode(Encoder &e, tensor::ExtractSliceOp op) {
  SVal s = e.get(op.getSource());
  if (auto off = symbolicOffsets(e, op)) {
    SVal r;
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    for (int64_t i = 0; i < product({sizes.begin(), sizes.end()}); ++i) {
      auto [v, p] =
          e.at(s, sliceIndex(e, *off, sizes, op.getStaticStrides(), i));
      r.v.push_back(v);
      r.p.push_back(p);
    }
    r.shape = keptSizes(op, {sizes.begin(), sizes.end()});
    e.env[op] = r;
    return;
  }
  Slice sl = staticSlice(e, op);
  SVal r;
  r.shape = sl.sizes;
  for (int64_t i = 0; i < product(sl.sizes); ++i) {
    int64_t j = sliceElement(sl, i, s.shape, "extract_slice");
    r.v.push_back(s.v[j]);
    r.p.push_back(s.p[j]);
  }
  r.shape = keptSizes(op, sl.sizes);
  e.env[op] = r;
}

void encode(Encoder &e, tensor::InsertSliceOp op) {
  SVal s = e.get(op.getSource());
  SVal r = e.get(op.getDest());
  if (auto off = symbolicOffsets(e, op)) {
    for (int64_t i = 0; i < s.size(); ++i)
      insertAt(
          e, r,
          sliceIndex(e, *off, op.getStaticSizes(), op.getStaticStrides(), i),
          s.v[i], s.p[i]);
    e.env[op] = r;
    return;
  }
  Slice sl = staticSlice(e, op);
  for (int64_t i = 0; i < product(sl.sizes); ++i) {
    int64_t j = sliceElement(sl, i, r.shape, "insert_slice");
    r.v[j] = s.v[i];
    r.p[j] = s.p[i];
  }
  e.env[op] = r;
}

void encode(Encoder &e, tensor::PadOp op) {
  SVal s = e.get(op.getSource());
  auto mixed = [&](SmallVector<OpFoldResult> v) {
    std::vector<int64_t> r;
    for (OpFoldResult f : v)
      r.push_back(isa<Attribute>(f)
                      ? cast<IntegerAttr>(cast<Attribute>(f)).getInt()
                      : e.concreteIndex(cast<Value>(f)));
    return r;
  };
  auto lo = mixed(op.getMixedLowPad()), hi = mixed(op.getMixedHighPad());
  SVal r;
  for (size_t k = 0; k < s.shape.size(); ++k)
    r.shape.push_back(lo[k] + s.shape[k] + hi[k]);
  Block &body = op.getRegion().front();
  for (int64_t i = 0; i < product(r.shape); ++i) {
    auto idx = unflatten(i, r.shape);
    bool inside = true;
    std::vector<int64_t> sidx(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) {
      sidx[k] = idx[k] - lo[k];
      inside = inside && sidx[k] >= 0 && sidx[k] < s.shape[k];
    }
    if (inside) {
      int64_t j = flatten(sidx, s.shape);
      r.v.push_back(s.v[j]);
      r.p.push_back(s.p[j]);
      continue;
    }
    auto [v, p] = evalAt(e, body, idx);
    r.v.push_back(v);
    r.p.push_back(p);
  }
  e.env[op] = r;
}

void encode(Encoder &e, tensor::ConcatOp op) {
  e.env[op] = concatenate(e.operandsOf(op), op.getDim());
}

// The shape dialect's extent tensors: index tensors of the dimensions.
void bindExtents(Encoder &e, Operation *op, SVal r) {
  Type rt = op->getResult(0).getType();
  if (!isa<RankedTensorType>(rt))
    unsupported("shape value of type " + str(rt));
  e.env[op->getResult(0)] = r;
}

void encode(Encoder &e, shape::ShapeOfOp op) {
  SVal r;
  for (int64_t d : e.get(op->getOperand(0)).shape)
    r.v.push_back(e.c.bv_val(uint64_t(d), 64));
  r.p.assign(r.v.size(), e.c.bool_val(false));
  r.shape = {int64_t(r.v.size())};
  bindExtents(e, op, r);
}

void encode(Encoder &e, shape::ToExtentTensorOp op) {
  bindExtents(e, op, e.get(op->getOperand(0)));
}

} // namespace

void Encoder::encodeTensor(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<tensor::EmptyOp, tensor::DimOp, tensor::ExtractOp, tensor::InsertOp,
            tensor::FromElementsOp, tensor::SplatOp, tensor::GenerateOp,
            tensor::CastOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
            tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::PadOp,
            tensor::ConcatOp, shape::ShapeOfOp, shape::ToExtentTensorOp>(
          [&](auto typed) { encode(*this, typed); })
      .Default([](Operation *op) { unsupportedOp(op); });
}

} // namespace cc::smt::detail
