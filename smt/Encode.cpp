// The Z3 encoding of arith, math, linalg, tensor, tosa and func ops (the
// encoder's state and helpers are in Encoder.h).
#include "smt/Encoder.h"

#include "core/DType.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace cc::smt::detail {

int64_t evalAffine(AffineExpr e, const std::vector<int64_t> &dims) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto k = dyn_cast<AffineConstantExpr>(e))
    return k.getValue();
  auto b = dyn_cast<AffineBinaryOpExpr>(e);
  if (!b)
    unsupported("affine symbols in an indexing map");
  int64_t l = evalAffine(b.getLHS(), dims), r = evalAffine(b.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add: return l + r;
  case AffineExprKind::Mul: return l * r;
  case AffineExprKind::Mod: return r ? ((l % r) + r) % r : 0;
  case AffineExprKind::FloorDiv:
    return r ? (l / r - ((l % r != 0) && ((l < 0) != (r < 0)))) : 0;
  case AffineExprKind::CeilDiv:
    return r ? (l / r + ((l % r != 0) && ((l < 0) == (r < 0)))) : 0;
  default: unsupported("affine expression");
  }
}

void Encoder::encodeLinalg(linalg::LinalgOp lop) {
  auto gen = dyn_cast<linalg::GenericOp>(lop.getOperation());
  if (!gen)
    unsupported("linalg op '" + lop->getName().getStringRef().str() +
                "' (not generalizable)");
  // On buffers the operands are read as values and the results stored into
  // the init buffers (operands that alias are read before any write).
  bool buffers = gen.hasPureBufferSemantics();
  if (!buffers && !gen.hasPureTensorSemantics())
    unsupported("linalg on tensors and buffers at once");
  auto maps = gen.getIndexingMapsArray();
  auto iters = gen.getIteratorTypesArray();
  unsigned nIn = gen.getNumDpsInputs(), nOut = gen.getNumDpsInits();
  std::vector<SVal> ops;
  for (Value v : gen->getOperands())
    ops.push_back(isa<MemRefType>(v.getType()) ? loadView(ref(v)) : get(v));
  // Loop ranges from the operand shapes.
  std::vector<int64_t> range(iters.size(), -1);
  for (size_t o = 0; o < ops.size(); ++o)
    for (unsigned r = 0; r < maps[o].getNumResults(); ++r)
      if (auto d = dyn_cast<AffineDimExpr>(maps[o].getResult(r))) {
        if (range[d.getPosition()] < 0)
          range[d.getPosition()] = ops[o].shape[r];
        else if (range[d.getPosition()] != ops[o].shape[r])
          ub = c.bool_val(true);
      }
  for (int64_t r : range)
    if (r < 0)
      unsupported("linalg.generic loop range not given by a shape");
  int64_t points = product(range);
  if (points > kMaxIterations)
    unsupported("linalg.generic iteration space too large");
  std::vector<SVal> outs(ops.begin() + nIn, ops.end());
  Block &body = gen.getRegion().front();
  // Float sums over reductions: out = addf(term, out) with the term free of
  // out. Abstract mode collects the terms as a multiset.
  bool hasReduction = llvm::any_of(iters, [](utils::IteratorType t) {
    return t == utils::IteratorType::reduction;
  });
  std::vector<Value> termOf(nOut);
  if (mode == FMode::Abstract && hasReduction) {
    auto yield = body.getTerminator();
    for (unsigned k = 0; k < nOut; ++k) {
      auto add = yield->getOperand(k).getDefiningOp<arith::AddFOp>();
      BlockArgument acc = body.getArgument(nIn + k);
      if (!add)
        continue;
      Value other = add.getLhs() == acc   ? add.getRhs()
                    : add.getRhs() == acc ? add.getLhs()
                                          : Value();
      if (!other || other == acc)
        continue;
      // The term must not read the accumulator.
      bool readsAcc = false;
      std::function<void(Value)> visit = [&](Value v) {
        if (v == acc)
          readsAcc = true;
        if (Operation *d = v.getDefiningOp())
          if (d->getBlock() == &body)
            for (Value x : d->getOperands())
              visit(x);
      };
      visit(other);
      // ... nor any output, and the sum goes only to the yield.
      bool readsOutput = false;
      std::function<void(Value)> visitOut = [&](Value v) {
        if (auto ba = dyn_cast<BlockArgument>(v))
          readsOutput |= ba.getOwner() == &body && ba.getArgNumber() >= nIn;
        if (Operation *d = v.getDefiningOp())
          if (d->getBlock() == &body)
            for (Value x : d->getOperands())
              visitOut(x);
      };
      visitOut(other);
      if (!readsAcc && !readsOutput && add->hasOneUse() &&
          llvm::count(acc.getUsers(), add.getOperation()) &&
          std::distance(acc.getUsers().begin(), acc.getUsers().end()) == 1)
        termOf[k] = other;
    }
  }
  std::vector<std::vector<std::vector<z3::expr>>> terms(nOut);
  for (unsigned k = 0; k < nOut; ++k)
    terms[k].resize(outs[k].size());
  for (int64_t i = 0; i < points; ++i) {
    std::vector<int64_t> pt = unflatten(i, range);
    std::vector<SVal> args;
    std::vector<int64_t> outPos(nOut);
    for (size_t o = 0; o < ops.size(); ++o) {
      const SVal &src = o < nIn ? ops[o] : outs[o - nIn];
      if (!isa<ShapedType>(gen->getOperand(o).getType())) {
        args.push_back(src);
        continue;
      }
      std::vector<int64_t> idx;
      for (AffineExpr e : maps[o].getResults())
        idx.push_back(evalAffine(e, pt));
      // Operand shapes that disagree with the loop ranges: undefined.
      for (size_t k = 0; k < idx.size(); ++k)
        if (idx[k] < 0 || idx[k] >= src.shape[k]) {
          ub = c.bool_val(true);
          idx[k] = 0;
        }
      if (src.v.empty()) {
        args.push_back(scalar(zeroOf(sortOf(gen->getOperand(o).getType())),
                              c.bool_val(true)));
        continue;
      }
      int64_t j = flatten(idx, src.shape);
      if (o >= nIn)
        outPos[o - nIn] = j;
      args.push_back(scalar(src.v[j], src.p[j]));
    }
    auto ys = evalBody(body, args, pt);
    for (unsigned k = 0; k < nOut; ++k) {
      if (termOf[k]) {
        SVal &t = get(termOf[k]);
        terms[k][outPos[k]].push_back(t.v[0]);
        outs[k].p[outPos[k]] = outs[k].p[outPos[k]] || t.p[0];
      } else {
        outs[k].v[outPos[k]] = ys[k].first;
        outs[k].p[outPos[k]] = ys[k].second;
      }
    }
  }
  for (unsigned k = 0; k < nOut; ++k) {
    if (termOf[k])
      for (int64_t j = 0; j < outs[k].size(); ++j) {
        std::vector<z3::expr> all{ops[nIn + k].v[j]};
        all.insert(all.end(), terms[k][j].begin(), terms[k][j].end());
        outs[k].v[j] = fsum(all);
      }
    if (buffers)
      storeView(ref(gen.getDpsInits()[k]), outs[k]);
    else
      env[gen->getResult(k)] = outs[k];
  }
}

void Encoder::encodeTensor(Operation *op) {
  std::string n = op->getName().getStringRef().str();
  Type rt = op->getNumResults() ? op->getResult(0).getType() : Type();
  if (auto e = dyn_cast<tensor::EmptyOp>(op)) {
    env[e] = undef(resultShape(rt, e.getDynamicSizes()), getElementTypeOrSelf(rt));
    return;
  }
  if (auto d = dyn_cast<tensor::DimOp>(op)) {
    SVal &s = get(d.getSource());
    int64_t k = concreteIndex(d.getIndex());
    if (k < 0 || k >= int64_t(s.shape.size()))
      unsupported("tensor.dim out of range");
    env[d] = indexVal(s.shape[k]);
    return;
  }
  if (auto x = dyn_cast<tensor::ExtractOp>(op)) {
    std::vector<z3::expr> idx;
    z3::expr p = c.bool_val(false);
    for (Value i : x.getIndices()) {
      idx.push_back(get(i).v[0]);
      p = p || get(i).p[0];
    }
    auto [v, vp] = at(get(x.getTensor()), idx);
    env[x] = scalar(v, vp || p);
    return;
  }
  if (auto ins = dyn_cast<tensor::InsertOp>(op)) {
    SVal r = get(ins.getDest());
    SVal s = get(ins.getScalar());
    std::vector<int64_t> idx;
    for (Value i : ins.getIndices())
      idx.push_back(concreteIndex(i));
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= r.shape[k])
        ub = c.bool_val(true);
    if (!ub.simplify().is_true()) {
      int64_t j = flatten(idx, r.shape);
      r.v[j] = s.v[0];
      r.p[j] = s.p[0];
    }
    env[ins] = r;
    return;
  }
  if (auto fe = dyn_cast<tensor::FromElementsOp>(op)) {
    SVal r;
    r.shape = resultShape(rt, {});
    for (Value v : fe.getElements()) {
      r.v.push_back(get(v).v[0]);
      r.p.push_back(get(v).p[0]);
    }
    env[fe] = r;
    return;
  }
  if (auto sp = dyn_cast<tensor::SplatOp>(op)) {
    SVal s = get(sp.getInput());
    SVal r;
    r.shape = resultShape(rt, sp.getDynamicSizes());
    r.v.assign(product(r.shape), s.v[0]);
    r.p.assign(product(r.shape), s.p[0]);
    env[sp] = r;
    return;
  }
  if (auto g = dyn_cast<tensor::GenerateOp>(op)) {
    SVal r;
    r.shape = resultShape(rt, g.getDynamicExtents());
    Block &body = g.getBody().front();
    for (int64_t i = 0; i < product(r.shape); ++i) {
      std::vector<int64_t> pt = unflatten(i, r.shape);
      std::vector<SVal> args;
      for (int64_t k : pt)
        args.push_back(indexVal(k));
      auto ys = evalBody(body, args, pt);
      r.v.push_back(ys[0].first);
      r.p.push_back(ys[0].second);
    }
    env[g] = r;
    return;
  }
  if (auto cst = dyn_cast<tensor::CastOp>(op)) {
    SVal r = get(cst.getSource());
    auto to = cast<RankedTensorType>(rt);
    for (int64_t k = 0; k < to.getRank(); ++k)
      if (!to.isDynamicDim(k) && to.getDimSize(k) != r.shape[k])
        ub = c.bool_val(true);
    env[cst] = r;
    return;
  }
  if (auto col = dyn_cast<tensor::CollapseShapeOp>(op)) {
    SVal r = get(col.getSrc());
    std::vector<int64_t> s;
    for (auto &grp : col.getReassociationIndices()) {
      int64_t d = 1;
      for (int64_t k : grp)
        d *= r.shape[k];
      s.push_back(d);
    }
    r.shape = s;
    env[col] = r;
    return;
  }
  if (auto ex = dyn_cast<tensor::ExpandShapeOp>(op)) {
    SVal r = get(ex.getSrc());
    std::vector<int64_t> s;
    size_t dyn = 0;
    for (int64_t d : ex.getStaticOutputShape())
      s.push_back(ShapedType::isDynamic(d)
                      ? concreteIndex(ex.getOutputShape()[dyn++])
                      : d);
    if (product(s) != r.size())
      ub = c.bool_val(true);
    r.shape = s;
    env[ex] = r;
    return;
  }
  auto staticOr = [&](ArrayRef<int64_t> st, const char *what) {
    for (int64_t d : st)
      if (ShapedType::isDynamic(d))
        unsupported(std::string("dynamic ") + what + " of " + n);
    return std::vector<int64_t>(st.begin(), st.end());
  };
  if (auto es = dyn_cast<tensor::ExtractSliceOp>(op)) {
    SVal s = get(es.getSource());
    auto off = staticOr(es.getStaticOffsets(), "offsets");
    auto sz = staticOr(es.getStaticSizes(), "sizes");
    auto st = staticOr(es.getStaticStrides(), "strides");
    SVal r;
    r.shape = sz;
    for (int64_t i = 0; i < product(sz); ++i) {
      auto idx = unflatten(i, sz);
      for (size_t k = 0; k < idx.size(); ++k) {
        idx[k] = off[k] + idx[k] * st[k];
        if (idx[k] >= s.shape[k])
          unsupported("extract_slice out of bounds");
      }
      int64_t j = flatten(idx, s.shape);
      r.v.push_back(s.v[j]);
      r.p.push_back(s.p[j]);
    }
    std::vector<int64_t> kept;
    auto dropped = es.getDroppedDims();
    for (size_t k = 0; k < sz.size(); ++k)
      if (!dropped.test(k))
        kept.push_back(sz[k]);
    r.shape = kept;
    env[es] = r;
    return;
  }
  if (auto is = dyn_cast<tensor::InsertSliceOp>(op)) {
    SVal s = get(is.getSource());
    SVal r = get(is.getDest());
    auto off = staticOr(is.getStaticOffsets(), "offsets");
    auto sz = staticOr(is.getStaticSizes(), "sizes");
    auto st = staticOr(is.getStaticStrides(), "strides");
    for (int64_t i = 0; i < product(sz); ++i) {
      auto idx = unflatten(i, sz);
      for (size_t k = 0; k < idx.size(); ++k) {
        idx[k] = off[k] + idx[k] * st[k];
        if (idx[k] >= r.shape[k])
          unsupported("insert_slice out of bounds");
      }
      int64_t j = flatten(idx, r.shape);
      r.v[j] = s.v[i];
      r.p[j] = s.p[i];
    }
    env[is] = r;
    return;
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    SVal s = get(pad.getSource());
    auto mixed = [&](SmallVector<OpFoldResult> v) {
      std::vector<int64_t> r;
      for (OpFoldResult f : v)
        r.push_back(isa<Attribute>(f)
                        ? cast<IntegerAttr>(cast<Attribute>(f)).getInt()
                        : concreteIndex(cast<Value>(f)));
      return r;
    };
    auto lo = mixed(pad.getMixedLowPad()), hi = mixed(pad.getMixedHighPad());
    SVal r;
    for (size_t k = 0; k < s.shape.size(); ++k)
      r.shape.push_back(lo[k] + s.shape[k] + hi[k]);
    Block &body = pad.getRegion().front();
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
      std::vector<SVal> args;
      for (int64_t k : idx)
        args.push_back(indexVal(k));
      auto ys = evalBody(body, args, idx);
      r.v.push_back(ys[0].first);
      r.p.push_back(ys[0].second);
    }
    env[pad] = r;
    return;
  }
  // The shape dialect's extent tensors: index tensors of the dimensions.
  if (n == "shape.shape_of" || n == "shape.to_extent_tensor") {
    SVal r;
    if (n == "shape.shape_of") {
      for (int64_t d : get(op->getOperand(0)).shape)
        r.v.push_back(c.bv_val(uint64_t(d), 64));
      r.p.assign(r.v.size(), c.bool_val(false));
      r.shape = {int64_t(r.v.size())};
    } else {
      r = get(op->getOperand(0));
    }
    if (!isa<RankedTensorType>(rt))
      unsupported("shape value of type " + str(rt));
    env[op->getResult(0)] = r;
    return;
  }
  if (auto cc = dyn_cast<tensor::ConcatOp>(op)) {
    env[cc] = concatenate(operandsOf(op), cc.getDim());
    return;
  }
  unsupported("op '" + n + "'");
}

// TOSA 1.0 semantics of the elementwise and data-movement ops.
void Encoder::encodeTosa(Operation *op) {
  std::string n = op->getName().getStringRef().str().substr(5);
  Type rt = op->getResult(0).getType();
  Type elt = getElementTypeOrSelf(rt);
  Type inElt = op->getNumOperands() ? getElementTypeOrSelf(op->getOperand(0).getType())
                                    : elt;
  bool fl = isFloat(inElt);
  std::vector<SVal> ins = operandsOf(op);
  auto anyP = [&](const std::vector<z3::expr> &p) {
    z3::expr r = c.bool_val(false);
    for (const z3::expr &x : p)
      r = r || x;
    return r;
  };
  auto ew = [&](std::vector<SVal> xs,
                std::function<z3::expr(const std::vector<z3::expr> &)> f) {
    env[op->getResult(0)] = elementwise(
        xs, [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          return std::pair{f(v), anyP(p)};
        });
  };
  auto bin = [&](std::function<z3::expr(const z3::expr &, const z3::expr &)> f) {
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) { return f(v[0], v[1]); });
  };
  auto un = [&](std::function<z3::expr(const z3::expr &)> f) {
    ew({ins[0]}, [&](const std::vector<z3::expr> &v) { return f(v[0]); });
  };
  auto isZeroConst = [&](const SVal &s) {
    for (const z3::expr &e : s.v) {
      z3::expr x = e.simplify();
      uint64_t u;
      if (!(x.is_numeral_u64(u) && u == 0))
        return false;
    }
    return true;
  };
  auto intAttr = [&](const char *name) {
    auto a = op->getAttrOfType<IntegerAttr>(name);
    if (!a)
      unsupported("tosa." + n + " without " + name);
    return a.getInt();
  };
  auto shapeOperand = [&](unsigned i) {
    std::vector<int64_t> s;
    for (const z3::expr &e : ins[i].v)
      s.push_back(concreteIndex(e));
    return s;
  };
  if (n == "const" || n == "const_shape") {
    Attribute a = op->getAttr("values");
    if (n == "const_shape") {
      auto d = cast<DenseElementsAttr>(a);
      SVal r;
      for (APInt v : d.getValues<APInt>()) {
        r.v.push_back(c.bv_val(uint64_t(v.getSExtValue()), 64));
        r.p.push_back(c.bool_val(false));
      }
      r.shape = {int64_t(r.v.size())};
      env[op->getResult(0)] = r;
      return;
    }
    env[op->getResult(0)] = constant(a, rt);
    return;
  }
  // Integer add, sub, abs and negate are TOSA's apply_add_s / apply_sub_s:
  // a result outside the type's range fails a REQUIRE, which (as for
  // apply_scale) makes the element poison; the reference refuses it too.
  auto ewRequire = [&](std::vector<SVal> xs,
                       std::function<std::pair<z3::expr, z3::expr>(
                           const std::vector<z3::expr> &)> f) {
    env[op->getResult(0)] = elementwise(
        xs, [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          auto [r, fails] = f(v);
          return std::pair{r, anyP(p) || fails};
        });
  };
  auto isMin = [&](const z3::expr &a) {
    unsigned w = a.get_sort().bv_size();
    return a == c.bv_val(uint64_t(1) << (w - 1), w);
  };
  if ((n == "add" || n == "sub") && fl)
    return bin([&](auto &a, auto &b) { return n == "add" ? fadd(a, b) : fsub(a, b); });
  if (n == "add" || n == "sub")
    return ewRequire({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) {
      bool add = n == "add";
      z3::expr r = add ? v[0] + v[1] : v[0] - v[1];
      z3::expr wa = z3::sext(v[0], 1), wb = z3::sext(v[1], 1);
      return std::pair{r, z3::sext(r, 1) != (add ? wa + wb : wa - wb)};
    });
  if (n == "mul") {
    if (fl || isZeroConst(ins[2]))
      return bin([&](auto &a, auto &b) {
        if (fl)
          return fmul(a, b);
        // i8 and i16 products are i32.
        unsigned w = a.get_sort().bv_size(), rw = elt.getIntOrFloatBitWidth();
        return rw > w ? z3::sext(a, rw - w) * z3::sext(b, rw - w) : a * b;
      });
    // i32 with a shift: the 64-bit product, rounded and shifted, must fit.
    int64_t shift = concreteIndex(z3::sext(ins[2].v[0], 56));
    return bin([&](auto &a, auto &b) {
      unsigned w = a.get_sort().bv_size();
      z3::expr prod = z3::sext(a, 64 - w) * z3::sext(b, 64 - w);
      if (shift > 0)
        prod = z3::ashr(prod + c.bv_val(uint64_t(1) << (shift - 1), 64),
                        c.bv_val(uint64_t(shift), 64));
      z3::expr r = prod.extract(w - 1, 0);
      ub = ub || z3::sext(r, 64 - w) != prod;
      return r;
    });
  }
  if (n == "maximum" || n == "minimum") {
    bool mx = n == "maximum";
    bool prop = propagatesNaN(op);
    return bin([&](auto &a, auto &b) {
      return fl ? fmaxmin(a, b, mx, prop)
                : (mx ? z3::ite(a > b, a, b) : z3::ite(a < b, a, b));
    });
  }
  if (n == "intdiv") {
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) {
      // A zero divisor and INT_MIN / -1 are undefined (as the reference).
      unsigned w = v[1].get_sort().bv_size();
      ub = ub || v[1] == c.bv_val(0, w) ||
           (v[0] == c.bv_val(uint64_t(1) << (w - 1), w) &&
            v[1] == c.bv_val(~uint64_t(0), w));
      return v[0] / v[1];
    });
    return;
  }
  if (n == "bitwise_and" || n == "logical_and")
    return bin([](auto &a, auto &b) { return a & b; });
  if (n == "bitwise_or" || n == "logical_or")
    return bin([](auto &a, auto &b) { return a | b; });
  if (n == "bitwise_xor" || n == "logical_xor")
    return bin([](auto &a, auto &b) { return a ^ b; });
  if (n == "bitwise_not" || n == "logical_not")
    return un([](auto &a) { return ~a; });
  if (n == "logical_left_shift" || n == "logical_right_shift" ||
      n == "arithmetic_right_shift") {
    bool round = n == "arithmetic_right_shift" &&
                 op->getAttrOfType<BoolAttr>("round") &&
                 op->getAttrOfType<BoolAttr>("round").getValue();
    ew({ins[0], ins[1]}, [&](const std::vector<z3::expr> &v) {
      unsigned w = v[1].get_sort().bv_size();
      ub = ub || z3::uge(v[1], c.bv_val(uint64_t(w), w));
      if (round) {
        // TOSA: add the last bit shifted out when the shift is positive.
        z3::expr zero = c.bv_val(0, w), one = c.bv_val(1, w);
        z3::expr bit = z3::ashr(v[0], v[1] - one) & one;
        return z3::ashr(v[0], v[1]) + z3::ite(v[1] > zero, bit, zero);
      }
      return n == "logical_left_shift"    ? z3::shl(v[0], v[1])
             : n == "logical_right_shift" ? z3::lshr(v[0], v[1])
                                          : z3::ashr(v[0], v[1]);
    });
    return;
  }
  if (n == "equal" || n == "greater" || n == "greater_equal") {
    using P = arith::CmpFPredicate;
    return bin([&](auto &a, auto &b) {
      if (fl)
        return boolToBv(fcmp(n == "equal" ? P::OEQ : n == "greater" ? P::OGT : P::OGE,
                             a, b));
      return boolToBv(n == "equal" ? a == b : n == "greater" ? a > b : a >= b);
    });
  }
  if (n == "abs" && fl)
    return un([&](auto &a) { return fabs(a); });
  if (n == "abs")
    return ewRequire({ins[0]}, [&](const std::vector<z3::expr> &v) {
      // apply_sub_s(0, x): the minimum's negation overflows.
      z3::expr zero = c.bv_val(0, v[0].get_sort().bv_size());
      return std::pair{z3::ite(v[0] < zero, -v[0], v[0]), isMin(v[0])};
    });
  if (n == "negate") {
    if (!fl && (!isZeroConst(ins[1]) || !isZeroConst(ins[2])))
      unsupported("tosa.negate with zero points");
    if (fl)
      return un([&](auto &a) { return fneg(a); });
    return ewRequire({ins[0]}, [&](const std::vector<z3::expr> &v) {
      const z3::expr &a = v[0];
      // i8 and i16 negate in the i32 accumulator and clip: the minimum
      // saturates to the maximum (negate(negate(x)) is not x there). In
      // i32, the accumulator itself overflows there.
      unsigned w = a.get_sort().bv_size();
      if (w >= 32)
        return std::pair{-a, isMin(a)};
      int64_t min = -(int64_t(1) << (w - 1));
      return std::pair{
          z3::ite(a == c.bv_val(min, w), c.bv_val(-(min + 1), w), -a),
          c.bool_val(false)};
    });
  }
  if (n == "identity")
    return void(env[op->getResult(0)] = ins[0]);
  if (n == "reciprocal" && fl)
    return un([&](auto &a) {
      return fdiv(elemConst(FloatAttr::get(inElt, 1.0), inElt), a);
    });
  // TOSA defines sigmoid as 1 / (1 + exp(-x)) (and tosa-to-linalg emits
  // exactly that): with exp uninterpreted, both meet.
  if (n == "sigmoid" && fl)
    return un([&](auto &a) {
      z3::expr one = elemConst(FloatAttr::get(inElt, 1.0), inElt);
      return fdiv(one, fadd(mathFn("exp", {fneg(a)}), one));
    });
  if (n == "exp" || n == "log" || n == "tanh" || n == "erf" ||
      n == "sin" || n == "cos" || n == "ceil" || n == "floor" ||
      n == "reciprocal" || n == "rsqrt" || n == "pow")
    return ew(std::vector<SVal>(ins.begin(), ins.begin() + (n == "pow" ? 2 : 1)),
              [&](const std::vector<z3::expr> &v) {
                // The same function as math's op (tosa.pow is math.powf).
                return mathFn(n == "pow" ? "powf" : n, v);
              });
  if (n == "clamp") {
    Attribute lo = op->getAttr("min_val"), hi = op->getAttr("max_val");
    z3::expr l = elemConst(lo, inElt), h = elemConst(hi, inElt);
    bool prop = propagatesNaN(op);
    return un([&](auto &a) {
      // As tosa-to-linalg writes it (so that abstract floats meet):
      // maximum(minimum(x, hi), lo), and IGNORE maps NaN to lo.
      if (fl) {
        z3::expr m = fmaxmin(fmaxmin(a, h, false, true), l, true, true);
        return prop ? m
                    : z3::ite(fcmp(arith::CmpFPredicate::UNO, a, a), l, m);
      }
      // As tosa-to-linalg writes it: minsi(hi, maxsi(lo, x)).
      z3::expr m = z3::ite(l > a, l, a);
      return z3::ite(h < m, h, m);
    });
  }
  if (n == "select") {
    env[op->getResult(0)] = elementwise(
        {ins[0], ins[1], ins[2]},
        [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          z3::expr cnd = bvTrue(v[0]);
          return std::pair{z3::ite(cnd, v[1], v[2]),
                           p[0] || z3::ite(cnd, p[1], p[2])};
        });
    return;
  }
  if (n == "cast") {
    bool toF = isFloat(elt);
    return un([&](auto &a) -> z3::expr {
      if (fl && toF)
        return fcast(a, elt);
      if (!fl && toF)
        return intToFloat(a, elt, inElt.getIntOrFloatBitWidth() != 1);
      unsigned w = elt.getIntOrFloatBitWidth();
      if (fl) {
        if (w == 1)
          unsupported("tosa.cast float to i1");
        // Round to nearest even, saturate; NaN is undefined.
        z3::expr bad = c.bool_val(false);
        z3::expr r = floatToInt(a, w, true, true, bad);
        if (mode == FMode::Abstract)
          return r;
        z3::expr big = z3::expr(c, Z3_mk_fpa_is_positive(c, a));
        ub = ub || isNaN(a);
        z3::expr mx = c.bv_val((uint64_t(1) << (w - 1)) - 1, w),
                 mn = c.bv_val(uint64_t(1) << (w - 1), w);
        return z3::ite(bad, z3::ite(big, mx, mn), r);
      }
      unsigned from = a.get_sort().bv_size();
      if (w == 1)
        return boolToBv(a != c.bv_val(0, from));
      if (w <= from)
        return a.extract(w - 1, 0);
      return from == 1 ? z3::zext(a, w - from) : z3::sext(a, w - from);
    });
  }
  SVal &x = ins[0];
  if (n == "reshape") {
    SVal r = x;
    r.shape = shapeOperand(1);
    int64_t inferred = -1, known = 1;
    for (size_t k = 0; k < r.shape.size(); ++k)
      r.shape[k] == -1 ? inferred = int64_t(k) : known *= r.shape[k];
    if (inferred >= 0)
      r.shape[inferred] = known ? x.size() / known : 0;
    if (product(r.shape) != x.size())
      ub = c.bool_val(true);
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "transpose") {
    auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
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
    env[op->getResult(0)] = r;
    return;
  }
  auto gather = [&](std::vector<int64_t> shape,
                    std::function<std::vector<int64_t>(std::vector<int64_t>)> src) {
    SVal r;
    r.shape = shape;
    for (int64_t i = 0; i < product(shape); ++i) {
      auto s = src(unflatten(i, shape));
      for (size_t k = 0; k < s.size(); ++k)
        if (s[k] < 0 || s[k] >= x.shape[k]) {
          ub = c.bool_val(true);
          s[k] = 0;
        }
      int64_t j = flatten(s, x.shape);
      r.v.push_back(x.v[j]);
      r.p.push_back(x.p[j]);
    }
    env[op->getResult(0)] = r;
  };
  if (n == "slice") {
    auto start = shapeOperand(1), size = shapeOperand(2);
    return gather(size, [&](std::vector<int64_t> idx) {
      for (size_t k = 0; k < idx.size(); ++k)
        idx[k] += start[k];
      return idx;
    });
  }
  if (n == "pad") {
    auto padding = shapeOperand(1);
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
      r.v.push_back(inside ? x.v[j] : ins[2].v[0]);
      r.p.push_back(inside ? x.p[j] : ins[2].p[0]);
    }
    env[op->getResult(0)] = r;
    return;
  }
  if (n == "reverse") {
    int64_t ax = intAttr("axis");
    return gather(x.shape, [&](std::vector<int64_t> idx) {
      idx[ax] = x.shape[ax] - 1 - idx[ax];
      return idx;
    });
  }
  if (n == "tile") {
    auto mult = shapeOperand(1);
    std::vector<int64_t> s = x.shape;
    for (size_t k = 0; k < s.size(); ++k)
      s[k] *= mult[k];
    return gather(s, [&](std::vector<int64_t> idx) {
      for (size_t k = 0; k < idx.size(); ++k)
        idx[k] %= x.shape[k];
      return idx;
    });
  }
  if (n == "concat") {
    env[op->getResult(0)] = concatenate(ins, intAttr("axis"));
    return;
  }
  if (n.rfind("reduce_", 0) == 0) {
    int64_t ax = intAttr("axis");
    std::string kind = n.substr(7);
    SVal r;
    r.shape = x.shape;
    r.shape[ax] = 1;
    bool prop = propagatesNaN(op);
    for (int64_t i = 0; i < product(r.shape); ++i) {
      auto idx = unflatten(i, r.shape);
      std::vector<z3::expr> vs;
      z3::expr p = c.bool_val(false);
      for (int64_t k = 0; k < x.shape[ax]; ++k) {
        idx[ax] = k;
        int64_t j = flatten(idx, x.shape);
        vs.push_back(x.v[j]);
        p = p || x.p[j];
      }
      z3::expr acc = vs[0];
      if (kind == "sum" && fl) {
        vs.insert(vs.begin(), floatBits(0, cast<FloatType>(inElt)));
        acc = fsum(vs);
      } else {
        for (size_t k = 1; k < vs.size(); ++k) {
          const z3::expr &b = vs[k];
          if (kind == "sum")
            acc = acc + b;
          else if (kind == "prod")
            acc = fl ? fmul(acc, b) : acc * b;
          else if (kind == "max")
            acc = fl ? fmaxmin(acc, b, true, prop) : z3::ite(acc > b, acc, b);
          else if (kind == "min")
            acc = fl ? fmaxmin(acc, b, false, prop) : z3::ite(acc < b, acc, b);
          else if (kind == "any")
            acc = acc | b;
          else if (kind == "all")
            acc = acc & b;
          else
            unsupported("op 'tosa." + n + "'");
        }
      }
      r.v.push_back(acc);
      r.p.push_back(p);
    }
    env[op->getResult(0)] = r;
    return;
  }
  if (encodeTosaKernel(op, ins))
    return;
  unsupported("op 'tosa." + n + "'");
}

std::vector<SVal> Encoder::encodeCall(func::FuncOp f,
                                      const std::vector<SVal> &args, int depth) {
  if (depth > 8)
    unsupported("call depth above 8");
  if (f.isExternal())
    unsupported("call of external function @" + f.getSymName().str());
  Block &body = f.getBody().front();
  if (!llvm::hasSingleElement(f.getBody()))
    unsupported("function with several blocks");
  for (auto [i, a] : llvm::enumerate(body.getArguments())) {
    // A call's memref operands are bound by the caller (their views).
    if (isa<MemRefType>(a.getType())) {
      if (depth == 0)
        bindArgument(unsigned(i), a, args[i]);
      continue;
    }
    env[a] = args[i];
  }
  ++callDepth;
  for (Operation &op : body.without_terminator())
    encodeOp(&op);
  --callDepth;
  std::vector<SVal> outs;
  for (Value v : body.getTerminator()->getOperands()) {
    if (isa<MemRefType>(v.getType()))
      unsupported("a function that returns a memref");
    outs.push_back(get(v));
  }
  return outs;
}

// An op the encoding does not cover, if it is pure and on values: its
// results are uninterpreted functions of all its operand elements (one
// function per op, attributes and types). The same op on the same operands
// on both sides gives the same terms, so a pass that leaves it alone is
// still checked; a counterexample that depends on it is replayed.
void Encoder::encodeOp(Operation *op) {
  try {
    encodeKnownOp(op);
  } catch (const EncodeFailure &) {
    if (!opaqueOp(op))
      throw;
  }
  // Integer tensors in Z3's normal form (sums and products flattened and
  // sorted): the same integer computation written in another order, as a
  // lowering or a fold writes it, becomes the same term, which later ops
  // and the final comparison then share.
  for (Value r : op->getResults()) {
    auto it = env.find(r);
    if (it == env.end() || it->second.v.empty() ||
        !it->second.v[0].get_sort().is_bv())
      continue;
    for (z3::expr &e : it->second.v)
      e = e.simplify();
  }
}

bool Encoder::opaqueOp(Operation *op) {
  if (op->getNumRegions() || !isMemoryEffectFree(op) || !op->getNumResults())
    return false;
  std::vector<z3::expr> args;
  z3::expr_vector poison(c);
  for (Value v : op->getOperands()) {
    auto it = env.find(v);
    if (it == env.end())
      return false;
    args.insert(args.end(), it->second.v.begin(), it->second.v.end());
    for (const z3::expr &p : it->second.p)
      poison.push_back(p);
  }
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << op->getAttrDictionary() << op->getOperandTypes()
     << op->getResultTypes();
  char name[40];
  std::snprintf(name, sizeof name, "opaque_%016zx", std::hash<std::string>{}(key));
  std::vector<SVal> results;
  for (Value r : op->getResults()) {
    Type t = r.getType();
    auto rt = dyn_cast<RankedTensorType>(t);
    if ((rt && !rt.hasStaticShape()) ||
        (!rt && !isa<IntegerType, FloatType, IndexType>(t)))
      return false;
    SVal out;
    out.shape = argShape(t);
    try {
      (void)sortOf(t);
    } catch (const EncodeFailure &) {
      return false;
    }
    results.push_back(std::move(out));
  }
  z3::expr in = uf(std::string(name) + "_in", args, c.uninterpreted_sort("Operands"));
  z3::expr p = z3::mk_or(poison).simplify();
  for (auto [k, r] : llvm::enumerate(op->getResults())) {
    SVal &out = results[k];
    std::string fn = std::string(name) + "_r" + std::to_string(k);
    for (int64_t i = 0; i < product(out.shape); ++i) {
      out.v.push_back(uf(fn, {in, c.bv_val(uint64_t(i), 32)}, sortOf(r.getType())));
      out.p.push_back(p);
    }
    env[r] = std::move(out);
  }
  opaqueOps.insert(op->getName().getStringRef().str());
  return true;
}

void Encoder::encodeKnownOp(Operation *op) {
  StringRef dialect = op->getName().getDialectNamespace();
  std::string n = op->getName().getStringRef().str();
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    env[cst] = constant(cst.getValue(), cst.getType());
    return;
  }
  if (dialect == "arith" || dialect == "math") {
    std::vector<SVal> ins = operandsOf(op);
    if (op->getNumResults() != 1)
      unsupported("op '" + n + "'");
    env[op->getResult(0)] = elementwise(
        ins, [&](const std::vector<z3::expr> &v, const std::vector<z3::expr> &p) {
          return scalarOp(op, v, p);
        });
    return;
  }
  if (auto idx = dyn_cast<linalg::IndexOp>(op)) {
    if (!curPoint || idx.getDim() >= curPoint->size())
      unsupported("linalg.index outside a body");
    env[idx] = indexVal((*curPoint)[idx.getDim()]);
    return;
  }
  if (auto lop = dyn_cast<linalg::LinalgOp>(op))
    return encodeLinalg(lop);
  if (dialect == "tensor" || dialect == "shape")
    return encodeTensor(op);
  if (dialect == "memref" || dialect == "bufferization" || dialect == "affine")
    return encodeMemref(op);
  if (dialect == "tosa")
    return encodeTosa(op);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto f = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr());
    if (!f)
      unsupported("call of unknown function");
    for (auto [a, v] : llvm::zip(f.getArguments(), call.getOperands()))
      if (isa<MemRefType>(v.getType()))
        bindRef(a, ref(v));
    auto outs = encodeCall(f, operandsOf(op), callDepth + 1);
    for (auto [r, v] : llvm::zip(call.getResults(), outs))
      env[r] = v;
    return;
  }
  unsupported("op '" + n + "'");
}

} // namespace cc::smt::detail
