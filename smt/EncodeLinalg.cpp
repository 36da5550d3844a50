// The Z3 encoding of linalg: linalg.generic (named ops are generalized
// before encoding) evaluates its body once per point of the iteration
// space, and linalg.index reads the point.
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

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
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return r ? ((l % r) + r) % r : 0;
  case AffineExprKind::FloorDiv:
    return r ? (l / r - ((l % r != 0) && ((l < 0) != (r < 0)))) : 0;
  case AffineExprKind::CeilDiv:
    return r ? (l / r + ((l % r != 0) && ((l < 0) == (r < 0)))) : 0;
  default:
    unsupported("affine expression");
  }
}

// Whether `v` reads an output argument of `body` (an accumulator among
// them) through the ops of the body.
bool readsOutput(Value v, Block &body, unsigned nIn) {
  if (auto ba = dyn_cast<BlockArgument>(v))
    if (ba.getOwner() == &body && ba.getArgNumber() >= nIn)
      return true;
  if (Operation *d = v.getDefiningOp())
    if (d->getBlock() == &body)
      return llvm::any_of(d->getOperands(),
                          [&](Value x) { return readsOutput(x, body, nIn); });
  return false;
}

// Reductions whose combining op may be regrouped: out = op(term, out) with
// the term free of out. A float sum (in abstract mode: its terms become a
// multiset) and a maximum or minimum, exact in any grouping, which is
// encoded as op(init, fold of the terms): the fold is then the very term of
// a source that reduces without an initial value (tosa.reduce_max against
// a lowering that starts from the lowest finite value).
struct Reduction {
  Value term; // null where the body computes something else
  Operation *op = nullptr;
};

bool regroupable(Operation *op, FMode mode) {
  if (isa<arith::AddFOp>(op))
    return mode == FMode::Abstract;
  return isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp>(op);
}

std::vector<Reduction> reductions(linalg::GenericOp gen, FMode mode) {
  unsigned nIn = gen.getNumDpsInputs(), nOut = gen.getNumDpsInits();
  Block &body = gen.getRegion().front();
  std::vector<Reduction> r(nOut);
  auto yield = body.getTerminator();
  for (unsigned k = 0; k < nOut; ++k) {
    Operation *op = yield->getOperand(k).getDefiningOp();
    BlockArgument acc = body.getArgument(nIn + k);
    if (!op || op->getBlock() != &body || op->getNumOperands() != 2 ||
        !regroupable(op, mode))
      continue;
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value other = lhs == acc ? rhs : rhs == acc ? lhs : Value();
    if (!other || other == acc)
      continue;
    // The term reads no output, and the result goes only to the yield.
    if (!readsOutput(other, body, nIn) && op->hasOneUse() &&
        llvm::count(acc.getUsers(), op) &&
        std::distance(acc.getUsers().begin(), acc.getUsers().end()) == 1)
      r[k] = {other, op};
  }
  return r;
}

// The encoding of one linalg.generic. On buffers the operands are read as
// values and the results stored into the init buffers (operands that alias
// are read before any write).
class Generic {
public:
  Generic(Encoder &e, linalg::GenericOp gen);
  void encode();

private:
  void readOperands();
  void loopRanges();
  void evalPoint(int64_t i);
  void bindOutputs();
  z3::expr regrouped(Operation *op, const z3::expr &init,
                     const std::vector<z3::expr> &ts);

  Encoder &e;
  linalg::GenericOp gen;
  SmallVector<AffineMap> maps;
  unsigned nIn, nOut;
  std::vector<SVal> ops, outs;
  std::vector<int64_t> range;
  // Regroupable reductions: per output, its term and op and, per output
  // element, the terms collected.
  std::vector<Reduction> red;
  std::vector<std::vector<std::vector<z3::expr>>> terms;
};

Generic::Generic(Encoder &e, linalg::GenericOp gen)
    : e(e), gen(gen), maps(gen.getIndexingMapsArray()),
      nIn(gen.getNumDpsInputs()), nOut(gen.getNumDpsInits()) {}

void Generic::encode() {
  if (!gen.hasPureBufferSemantics() && !gen.hasPureTensorSemantics())
    unsupported("linalg on tensors and buffers at once");
  readOperands();
  loopRanges();
  int64_t points = product(range);
  if (points > kMaxIterations)
    unsupported("linalg.generic iteration space too large");
  outs.assign(ops.begin() + nIn, ops.end());
  auto iters = gen.getIteratorTypesArray();
  bool hasReduction = llvm::any_of(iters, [](utils::IteratorType t) {
    return t == utils::IteratorType::reduction;
  });
  red.assign(nOut, Reduction());
  if (hasReduction)
    red = reductions(gen, e.mode);
  terms.resize(nOut);
  for (unsigned k = 0; k < nOut; ++k)
    terms[k].resize(outs[k].size());
  for (int64_t i = 0; i < points; ++i)
    evalPoint(i);
  bindOutputs();
}

void Generic::readOperands() {
  for (Value v : gen->getOperands())
    ops.push_back(isa<MemRefType>(v.getType()) ? e.loadView(e.ref(v))
                                               : e.get(v));
}

// Loop ranges from the operand shapes; shapes that disagree are undefined.
void Generic::loopRanges() {
  range.assign(gen.getIteratorTypesArray().size(), -1);
  for (size_t o = 0; o < ops.size(); ++o)
    for (unsigned r = 0; r < maps[o].getNumResults(); ++r)
      if (auto d = dyn_cast<AffineDimExpr>(maps[o].getResult(r))) {
        if (range[d.getPosition()] < 0)
          range[d.getPosition()] = ops[o].shape[r];
        else if (range[d.getPosition()] != ops[o].shape[r])
          e.ub = e.c.bool_val(true);
      }
  for (int64_t r : range)
    if (r < 0)
      unsupported("linalg.generic loop range not given by a shape");
}

// Evaluates the body at point `i` and writes its results into `outs` (or
// collects their terms of a regroupable reduction).
void Generic::evalPoint(int64_t i) {
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
    for (AffineExpr x : maps[o].getResults())
      idx.push_back(evalAffine(x, pt));
    // Operand shapes that disagree with the loop ranges: undefined.
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= src.shape[k]) {
        e.ub = e.c.bool_val(true);
        idx[k] = 0;
      }
    if (src.v.empty()) {
      args.push_back(e.scalar(e.zeroOf(e.sortOf(gen->getOperand(o).getType())),
                              e.c.bool_val(true)));
      continue;
    }
    int64_t j = flatten(idx, src.shape);
    if (o >= nIn)
      outPos[o - nIn] = j;
    args.push_back(e.scalar(src.v[j], src.p[j]));
  }
  auto ys = e.evalBody(gen.getRegion().front(), args, pt);
  for (unsigned k = 0; k < nOut; ++k) {
    if (red[k].term) {
      SVal &t = e.get(red[k].term);
      terms[k][outPos[k]].push_back(t.v[0]);
      outs[k].p[outPos[k]] = outs[k].p[outPos[k]] || t.p[0];
    } else {
      outs[k].v[outPos[k]] = ys[k].first;
      outs[k].p[outPos[k]] = ys[k].second;
    }
  }
}

void Generic::bindOutputs() {
  for (unsigned k = 0; k < nOut; ++k) {
    if (red[k].term)
      for (int64_t j = 0; j < outs[k].size(); ++j)
        outs[k].v[j] = regrouped(red[k].op, ops[nIn + k].v[j], terms[k][j]);
    if (gen.hasPureBufferSemantics())
      e.storeView(e.ref(gen.getDpsInits()[k]), outs[k]);
    else
      e.env[gen->getResult(k)] = outs[k];
  }
}

// A regroupable reduction's value from its initial value and terms (a sum,
// or op(op(init, constant terms), fold of the others)).
z3::expr Generic::regrouped(Operation *op, const z3::expr &init,
                            const std::vector<z3::expr> &ts) {
  if (isa<arith::AddFOp>(op)) {
    std::vector<z3::expr> all{init};
    all.insert(all.end(), ts.begin(), ts.end());
    return e.fsum(all);
  }
  bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(op);
  bool propagate = isa<arith::MaximumFOp, arith::MinimumFOp>(op);
  bool tie = isa<arith::MaxNumFOp, arith::MinNumFOp>(op);
  // Constant terms (a pooling's padding) join the initial value: the fold
  // of the others is then the source's term over the window's inside.
  z3::expr k = init;
  std::optional<z3::expr> m;
  for (const z3::expr &t : ts) {
    bool constant = t.is_app() && t.num_args() == 0 &&
                    t.decl().decl_kind() != Z3_OP_UNINTERPRETED;
    if (constant)
      k = e.fmaxmin(k, t, isMax, propagate, tie).simplify();
    else
      m = m ? e.fmaxmin(*m, t, isMax, propagate, tie) : t;
  }
  return m ? e.fmaxmin(k, *m, isMax, propagate, tie) : k;
}

void encodeLinalgOp(Encoder &e, linalg::LinalgOp op) {
  auto gen = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!gen)
    unsupported("linalg op '" + op->getName().getStringRef().str() +
                "' (not generalizable)");
  Generic(e, gen).encode();
}

} // namespace

void Encoder::encodeLinalg(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](linalg::IndexOp idx) {
        size_t d = idx.getDim();
        if (curPoint && d < curPoint->size())
          env[idx] = indexVal((*curPoint)[d]);
        else if (!curPoint && symPoint && d < symPoint->size())
          env[idx] = scalar((*symPoint)[d], c.bool_val(false));
        else
          unsupported("linalg.index outside a body");
      })
      .Case([&](linalg::LinalgOp lop) { encodeLinalgOp(*this, lop); })
      .Default([](Operation *op) { unsupportedOp(op); });
}

} // namespace cc::smt::detail
