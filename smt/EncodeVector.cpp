// The Z3 encoding of the vector dialect on values (vectors are SVals like
// tensors): transfers between tensors and vectors (padding, masks,
// in_bounds), masks, broadcast, shape_cast, extract/insert, contract,
// reduction and multi_reduction. Float sums and products of reductions are
// sequential, accumulator first (as the LLVM lowering's ordered
// llvm.vector.reduce.*): with floats that is a choice, noted as
// reassociation. Transfers on memrefs are not encoded.
#include "smt/Encoder.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

z3::expr idx64(Encoder &e, int64_t i) { return e.c.bv_val(uint64_t(i), 64); }

// A transfer's geometry: the tensor indices of vector lane `lane`, whether
// it lies outside the tensor on a dimension that may run out of bounds
// (`out`), and the undefined behaviour of leaving it on one that may not.
struct Lane {
  std::vector<z3::expr> idx;
  z3::expr out, ub;
};

Lane laneOf(Encoder &e, VectorTransferOpInterface op, const SVal &t,
            const std::vector<int64_t> &lane) {
  if (!op.getPermutationMap().isMinorIdentity())
    unsupported("vector transfer with a permutation map that is not the "
                "minor identity");
  Lane l{{}, e.c.bool_val(false), e.c.bool_val(false)};
  const size_t lead = t.shape.size() - lane.size();
  for (auto [k, i] : llvm::enumerate(op.getIndices())) {
    const SVal &iv = e.get(i);
    l.ub = l.ub || iv.p[0];
    z3::expr x = iv.v[0];
    bool mayLeave = false;
    if (k >= lead) {
      x = x + idx64(e, lane[k - lead]);
      mayLeave = !op.isDimInBounds(unsigned(k - lead));
    }
    z3::expr outside = z3::uge(x, idx64(e, t.shape[k]));
    (mayLeave ? l.out : l.ub) = (mayLeave ? l.out : l.ub) || outside;
    l.idx.push_back(x);
  }
  return l;
}

// Whether mask lane `i` is off (no mask: never).
z3::expr maskedOff(Encoder &e, Value mask, int64_t i) {
  if (!mask)
    return e.c.bool_val(false);
  const SVal &m = e.get(mask);
  e.ub = e.ub || m.p[size_t(i)];
  return !e.bvTrue(m.v[size_t(i)]);
}

const SVal &tensorOf(Encoder &e, Value v) {
  if (!isa<RankedTensorType>(v.getType()))
    unsupported("vector transfer on " + str(v.getType()));
  return e.get(v);
}

void encode(Encoder &e, vector::TransferReadOp op) {
  const SVal &t = tensorOf(e, op.getBase());
  const SVal &pad = e.get(op.getPadding());
  auto vt = op.getVectorType();
  SVal r;
  r.shape.assign(vt.getShape().begin(), vt.getShape().end());
  for (int64_t i = 0; i < product(r.shape); ++i) {
    Lane l = laneOf(e, op, t, unflatten(i, r.shape));
    z3::expr off = maskedOff(e, op.getMask(), i);
    e.ub = e.ub || (!off && l.ub);
    Elem x = e.atOr(t, l.idx, {pad.v[0], pad.p[0]});
    r.v.push_back(z3::ite(off || l.out, pad.v[0], x.first));
    r.p.push_back(z3::ite(off || l.out, pad.p[0], x.second));
  }
  e.env[op.getResult()] = r;
}

void encode(Encoder &e, vector::TransferWriteOp op) {
  if (!op.getResult())
    unsupported("vector.transfer_write to a memref");
  SVal r = tensorOf(e, op.getBase());
  const SVal &v = e.get(op.getVector());
  for (int64_t i = 0; i < v.size(); ++i) {
    Lane l = laneOf(e, op, r, unflatten(i, v.shape));
    z3::expr off = maskedOff(e, op.getMask(), i);
    e.ub = e.ub || (!off && l.ub);
    z3::expr write = !off && !l.out;
    for (int64_t j = 0; j < r.size(); ++j) {
      z3::expr hit = write;
      for (auto [k, d] : llvm::enumerate(unflatten(j, r.shape)))
        hit = hit && l.idx[k] == idx64(e, d);
      hit = hit.simplify();
      if (hit.is_false())
        continue;
      r.v[size_t(j)] = z3::ite(hit, v.v[size_t(i)], r.v[size_t(j)]);
      r.p[size_t(j)] = z3::ite(hit, v.p[size_t(i)], r.p[size_t(j)]);
    }
  }
  e.env[op.getResult()] = r;
}

// A mask whose lanes are on below `sizes` in every dimension.
SVal maskBelow(Encoder &e, ArrayRef<int64_t> shape,
               const std::vector<z3::expr> &sizes, const z3::expr &p) {
  SVal r;
  r.shape.assign(shape.begin(), shape.end());
  for (int64_t i = 0; i < product(r.shape); ++i) {
    z3::expr on = e.c.bool_val(true);
    for (auto [k, d] : llvm::enumerate(unflatten(i, r.shape)))
      on = on && idx64(e, d) < sizes[k]; // signed: a negative size is 0
    r.v.push_back(e.boolToBv(on));
    r.p.push_back(p);
  }
  return r;
}

void encode(Encoder &e, vector::CreateMaskOp op) {
  z3::expr p = e.c.bool_val(false);
  std::vector<z3::expr> sizes = e.scalarValues(op.getOperands(), p);
  e.env[op] = maskBelow(e, op.getVectorType().getShape(), sizes, p);
}

void encode(Encoder &e, vector::ConstantMaskOp op) {
  std::vector<z3::expr> sizes;
  for (int64_t s : op.getMaskDimSizes())
    sizes.push_back(idx64(e, s));
  e.env[op] =
      maskBelow(e, op.getVectorType().getShape(), sizes, e.c.bool_val(false));
}

// Trailing dimensions align; a source dimension of size 1 stretches.
void encode(Encoder &e, vector::BroadcastOp op) {
  const SVal &s = e.get(op.getSource());
  auto vt = op.getResultVectorType();
  SVal r;
  r.shape.assign(vt.getShape().begin(), vt.getShape().end());
  const size_t lead = r.shape.size() - s.shape.size();
  for (int64_t i = 0; i < product(r.shape); ++i) {
    std::vector<int64_t> at = unflatten(i, r.shape), from;
    for (size_t k = 0; k < s.shape.size(); ++k)
      from.push_back(s.shape[k] == 1 ? 0 : at[lead + k]);
    int64_t j = flatten(from, s.shape);
    r.v.push_back(s.v[size_t(j)]);
    r.p.push_back(s.p[size_t(j)]);
  }
  e.env[op] = r;
}

void encode(Encoder &e, vector::ShapeCastOp op) {
  SVal r = e.get(op.getSource());
  auto vt = op.getResultVectorType();
  r.shape.assign(vt.getShape().begin(), vt.getShape().end());
  e.env[op] = r;
}

// The leading position of an extract or insert: static, or an SSA index
// (out of bounds: poison, as the op's documentation says).
std::vector<z3::expr> position(Encoder &e, ArrayRef<OpFoldResult> pos,
                               z3::expr &poison) {
  std::vector<z3::expr> out;
  for (OpFoldResult p : pos) {
    if (auto a = dyn_cast<Attribute>(p)) {
      out.push_back(idx64(e, cast<IntegerAttr>(a).getInt()));
      continue;
    }
    const SVal &v = e.get(cast<mlir::Value>(p));
    poison = poison || v.p[0];
    out.push_back(v.v[0]);
  }
  return out;
}

void encode(Encoder &e, vector::ExtractOp op) {
  const SVal &s = e.get(op.getSource());
  z3::expr poison = e.c.bool_val(false);
  std::vector<z3::expr> pos = position(e, op.getMixedPosition(), poison);
  std::vector<int64_t> rest(s.shape.begin() + long(pos.size()), s.shape.end());
  SVal r;
  r.shape = rest;
  for (int64_t i = 0; i < product(rest); ++i) {
    std::vector<z3::expr> idx = pos;
    for (int64_t d : unflatten(i, rest))
      idx.push_back(idx64(e, d));
    Elem x = e.atOr(s, idx, {s.v[0], e.c.bool_val(true)});
    r.v.push_back(x.first);
    r.p.push_back(x.second || poison);
  }
  e.env[op] = r;
}

void encode(Encoder &e, vector::InsertOp op) {
  const SVal &x = e.get(op.getValueToStore());
  SVal r = e.get(op.getDest());
  z3::expr poison = e.c.bool_val(false);
  std::vector<z3::expr> pos = position(e, op.getMixedPosition(), poison);
  z3::expr inside = e.c.bool_val(true);
  for (size_t k = 0; k < pos.size(); ++k)
    inside = inside && z3::ult(pos[k], idx64(e, r.shape[k]));
  for (int64_t j = 0; j < r.size(); ++j) {
    std::vector<int64_t> at = unflatten(j, r.shape);
    z3::expr hit = e.c.bool_val(true);
    for (size_t k = 0; k < pos.size(); ++k)
      hit = hit && pos[k] == idx64(e, at[k]);
    std::vector<int64_t> inner(at.begin() + long(pos.size()), at.end());
    int64_t i = inner.empty() ? 0 : flatten(inner, x.shape);
    r.v[size_t(j)] = z3::ite(hit, x.v[size_t(i)], r.v[size_t(j)]);
    r.p[size_t(j)] =
        z3::ite(hit, x.p[size_t(i)], r.p[size_t(j)]) || poison || !inside;
  }
  e.env[op] = r;
}

// acc <kind> x, for one element.
Elem combine(Encoder &e, vector::CombiningKind kind, const Elem &acc,
             const Elem &x) {
  using K = vector::CombiningKind;
  const z3::expr &a = acc.first, &b = x.first;
  const bool fl = a.get_sort().is_fpa() || !a.get_sort().is_bv();
  z3::expr v = a;
  switch (kind) {
  case K::ADD:
    v = fl ? e.fadd(a, b) : a + b;
    break;
  case K::MUL:
    v = fl ? e.fmul(a, b) : a * b;
    break;
  case K::MINUI:
  case K::MINSI:
  case K::MAXUI:
  case K::MAXSI:
    v = imaxmin(a, b, kind == K::MAXUI || kind == K::MAXSI,
                kind == K::MINSI || kind == K::MAXSI);
    break;
  case K::AND:
    v = a & b;
    break;
  case K::OR:
    v = a | b;
    break;
  case K::XOR:
    v = a ^ b;
    break;
  case K::MINNUMF:
  case K::MAXNUMF:
  case K::MINIMUMF:
  case K::MAXIMUMF:
    v = e.fmaxmin(a, b, kind == K::MAXNUMF || kind == K::MAXIMUMF,
                  kind == K::MINIMUMF || kind == K::MAXIMUMF,
                  kind == K::MINNUMF || kind == K::MAXNUMF);
    break;
  }
  if (fl && (kind == K::ADD || kind == K::MUL))
    e.usedReassoc = true;
  return {v, acc.second || x.second};
}

void encode(Encoder &e, vector::ReductionOp op) {
  const SVal &s = e.get(op.getVector());
  Elem acc = {s.v[0], s.p[0]};
  int64_t first = 1;
  if (op.getAcc()) {
    const SVal &a = e.get(op.getAcc());
    acc = {a.v[0], a.p[0]};
    first = 0;
  }
  for (int64_t i = first; i < s.size(); ++i)
    acc = combine(e, op.getKind(), acc, {s.v[size_t(i)], s.p[size_t(i)]});
  e.env[op] = e.scalar(acc.first, acc.second);
}

void encode(Encoder &e, vector::MultiDimReductionOp op) {
  const SVal &s = e.get(op.getSource());
  // No reduced dimension: a no-op, the accumulator unread (upstream's
  // folder and lowering agree: llvm/llvm-project#129415, #188983).
  if (op.getReductionDims().empty()) {
    e.env[op] = s;
    return;
  }
  SVal r = e.get(op.getAcc());
  auto reduced = op.getReductionMask();
  // Source elements in row-major order: each joins its result element.
  for (int64_t i = 0; i < s.size(); ++i) {
    std::vector<int64_t> at = unflatten(i, s.shape), kept;
    for (size_t k = 0; k < at.size(); ++k)
      if (!reduced[k])
        kept.push_back(at[k]);
    int64_t j = kept.empty() ? 0 : flatten(kept, r.shape);
    Elem x = combine(e, op.getKind(), {r.v[size_t(j)], r.p[size_t(j)]},
                     {s.v[size_t(i)], s.p[size_t(i)]});
    r.v[size_t(j)] = x.first;
    r.p[size_t(j)] = x.second;
  }
  e.env[op] = r;
}

// A contraction: acc plus the sum over the reduction dimensions of lhs *
// rhs (kind add), through the indexing maps. Integers exactly; a float
// element is an uninterpreted function of acc and its products' operands,
// since the lowering may fuse them (vector.fma) or not, and the dialect
// does not say which.
void encode(Encoder &e, vector::ContractionOp op) {
  if (op.getKind() != vector::CombiningKind::ADD)
    unsupported("vector.contract of a kind other than add");
  const SVal &a = e.get(op.getLhs()), &b = e.get(op.getRhs());
  if (!isa<VectorType>(op.getAcc().getType()))
    unsupported("vector.contract into a scalar");
  SVal r = e.get(op.getAcc());
  auto maps = op.getIndexingMapsArray();
  std::vector<int64_t> range(maps[0].getNumDims(), -1);
  auto bind = [&](AffineMap m, const std::vector<int64_t> &shape) {
    for (auto [k, x] : llvm::enumerate(m.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(x))
        range[d.getPosition()] = shape[k];
  };
  bind(maps[0], a.shape);
  bind(maps[1], b.shape);
  bind(maps[2], r.shape);
  auto at = [&](AffineMap m, const std::vector<int64_t> &pt,
                const std::vector<int64_t> &shape) {
    std::vector<int64_t> idx;
    for (AffineExpr x : m.getResults())
      idx.push_back(pt[cast<AffineDimExpr>(x).getPosition()]);
    return flatten(idx, shape);
  };
  const bool fl = !a.v[0].get_sort().is_bv();
  std::vector<std::vector<z3::expr>> operands(size_t(r.size()));
  for (int64_t i = 0; i < product(range); ++i) {
    std::vector<int64_t> pt = unflatten(i, range);
    size_t ia = size_t(at(maps[0], pt, a.shape)),
           ib = size_t(at(maps[1], pt, b.shape)),
           ir = size_t(at(maps[2], pt, r.shape));
    r.p[ir] = r.p[ir] || a.p[ia] || b.p[ib];
    if (fl) {
      operands[ir].push_back(a.v[ia]);
      operands[ir].push_back(b.v[ib]);
    } else {
      r.v[ir] = r.v[ir] + a.v[ia] * b.v[ib];
    }
  }
  if (fl)
    for (size_t j = 0; j < operands.size(); ++j) {
      std::vector<z3::expr> args{r.v[j]};
      args.insert(args.end(), operands[j].begin(), operands[j].end());
      r.v[j] = e.mathFn("vector.contract", args);
    }
  e.env[op] = r;
}

} // namespace

void Encoder::encodeVector(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<vector::TransferReadOp, vector::TransferWriteOp,
            vector::CreateMaskOp, vector::ConstantMaskOp, vector::BroadcastOp,
            vector::ShapeCastOp, vector::ExtractOp, vector::InsertOp,
            vector::ReductionOp, vector::MultiDimReductionOp,
            vector::ContractionOp>([&](auto typed) { encode(*this, typed); })
      .Default([](Operation *op) { unsupportedOp(op); });
}

} // namespace cc::smt::detail
