// The Z3 encoding of scf: if, for and while, and affine.for. Both branches
// of an scf.if are encoded and merged by the condition (values, memory,
// undefined behaviour); loops are unrolled: exactly when the trip count is a
// constant (up to kMaxTrips), else up to TvOptions::loopBound iterations,
// each guarded by the loop still running. A loop that may run longer sets
// Encoder::pastBound, and a check that holds only within the bound is
// `unknown` with that reason (Refine.cpp). Branching on poison is
// undefined, as in LLVM; so is a step that is not positive.
#include "smt/Encoder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

// Loops with a constant trip count are unrolled up to this many times.
constexpr int64_t kMaxTrips = 1024;
// Loop and branch bodies encoded in one function, nested ones included:
// three nested loops of 1,000 trips each would otherwise be 10^9 copies.
constexpr int64_t kMaxRegionRuns = int64_t(1) << 16;

// `a` where `g` holds, else `b`: values of one shape, element by element.
SVal select(const z3::expr &g, const SVal &a, const SVal &b) {
  if (a.shape != b.shape)
    unsupported("scf values of different shapes on two paths");
  SVal r;
  r.shape = a.shape;
  for (int64_t i = 0; i < a.size(); ++i) {
    r.v.push_back(z3::ite(g, a.v[i], b.v[i]));
    r.p.push_back(z3::ite(g, a.p[i], b.p[i]));
  }
  return r;
}

std::vector<SVal> select(const z3::expr &g, const std::vector<SVal> &a,
                         const std::vector<SVal> &b) {
  std::vector<SVal> r;
  for (size_t i = 0; i < a.size(); ++i)
    r.push_back(select(g, a[i], b[i]));
  return r;
}

void requireValues(TypeRange types) {
  for (Type t : types)
    if (isa<BaseMemRefType>(t))
      unsupported("scf region passing a memref");
}

} // namespace

// What a region may change: memory and undefined behaviour.
struct Encoder::PathState {
  std::vector<MemBlock> mem;
  z3::expr ub;
};

Encoder::PathState Encoder::savePath() {
  PathState s{mem, ub};
  ub = c.bool_val(false);
  return s;
}

// Keeps what the region did where `g` holds, what was before elsewhere.
void Encoder::mergePath(const z3::expr &g, const PathState &before) {
  for (size_t i = 0; i < before.mem.size(); ++i) {
    MemBlock &m = mem[i];
    const MemBlock &o = before.mem[i];
    if (m.live != o.live)
      unsupported("memref.dealloc on one path of scf control flow");
    m.v = z3::ite(g, m.v, o.v);
    m.p = z3::ite(g, m.p, o.p);
  }
  ub = before.ub || (g && ub);
}

// Runs `region`'s single block on `args`; returns its terminator's
// operands.
std::vector<SVal> Encoder::runRegion(Region &region,
                                     const std::vector<SVal> &args) {
  if (!llvm::hasSingleElement(region))
    unsupported("scf region with several blocks");
  if (++regionRuns > kMaxRegionRuns)
    unsupported("loops unrolled to more than " +
                std::to_string(kMaxRegionRuns) +
                " iterations in all (nested loops multiply)");
  Block &b = region.front();
  requireValues(b.getArgumentTypes());
  for (auto [a, v] : llvm::zip(b.getArguments(), args))
    env[a] = v;
  for (Operation &op : b.without_terminator())
    encodeOp(&op);
  std::vector<SVal> out;
  for (Value v : b.getTerminator()->getOperands())
    if (!isa<BaseMemRefType>(v.getType()))
      out.push_back(get(v));
  return out;
}

// A region run only where `g` holds.
std::vector<SVal> Encoder::runGuarded(const z3::expr &g, Region &region,
                                      const std::vector<SVal> &args) {
  PathState before = savePath();
  std::vector<SVal> out = runRegion(region, args);
  mergePath(g, before);
  return out;
}

// The Boolean of an i1 scalar; branching on poison is undefined.
z3::expr Encoder::branchCondition(Value v) {
  const SVal &s = get(v);
  ub = ub || s.p[0];
  return bvTrue(s.v[0]);
}

void Encoder::encodeScf(Operation *op) {
  requireValues(op->getResultTypes());
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    z3::expr cond = branchCondition(ifOp.getCondition());
    // A condition known here (a size compared at instantiated sizes) runs
    // one branch: the other may yield another shape.
    if (z3::expr known = cond.simplify(); known.is_true() || known.is_false()) {
      Region &taken =
          known.is_true() ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (!taken.empty())
        for (auto [r, v] : llvm::zip(ifOp.getResults(), runRegion(taken, {})))
          env[r] = v;
      return;
    }
    std::vector<SVal> thenOut = runGuarded(cond, ifOp.getThenRegion(), {});
    std::vector<SVal> elseOut =
        ifOp.getElseRegion().empty()
            ? std::vector<SVal>{}
            : runGuarded(!cond, ifOp.getElseRegion(), {});
    for (auto [r, v] :
         llvm::zip(ifOp.getResults(), select(cond, thenOut, elseOut)))
      env[r] = v;
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return encodeFor(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return encodeWhile(whileOp);
  unsupportedOp(op);
}

void Encoder::encodeFor(scf::ForOp loop) {
  const SVal &lb = get(loop.getLowerBound()), &ubv = get(loop.getUpperBound()),
             &st = get(loop.getStep());
  z3::expr lo = lb.v[0], hi = ubv.v[0], step = st.v[0];
  bool isUnsigned = loop.getUnsignedCmp();
  auto less = [&](const z3::expr &a, const z3::expr &b) {
    return isUnsigned ? z3::ult(a, b) : a < b;
  };
  z3::expr zero = c.bv_val(0, step.get_sort().bv_size());
  ub = ub || lb.p[0] || ubv.p[0] || st.p[0] || !less(zero, step);
  std::vector<SVal> state;
  for (Value v : loop.getInitArgs())
    state.push_back(get(v));
  requireValues(loop.getInitArgs().getTypes());
  // A constant trip count unrolls exactly.
  z3::expr lo1 = lo.simplify(), hi1 = hi.simplify(), st1 = step.simplify();
  std::optional<int64_t> trips;
  uint64_t l, h, s;
  if (lo1.is_numeral_u64(l) && hi1.is_numeral_u64(h) && st1.is_numeral_u64(s) &&
      s > 0) {
    int64_t sl = int64_t(l), sh = int64_t(h), ss = int64_t(s);
    if (isUnsigned)
      trips = h > l ? int64_t((h - l + s - 1) / s) : 0;
    else
      trips = sh > sl ? (sh - sl + ss - 1) / ss : 0;
    if (*trips > kMaxTrips)
      unsupported("scf.for with " + std::to_string(*trips) +
                  " iterations (unrolled up to " + std::to_string(kMaxTrips) +
                  ")");
  }
  int64_t n = trips ? *trips : int64_t(opts.loopBound);
  z3::expr iv = lo;
  for (int64_t k = 0; k < n; ++k) {
    std::vector<SVal> args{scalar(iv, c.bool_val(false))};
    args.insert(args.end(), state.begin(), state.end());
    if (trips) {
      state = runRegion(loop.getRegion(), args);
      // Z3 flattens an associative chain (x + 1 + 1 ...) at each new
      // operation: loop-carried scalars kept folded keep a long loop linear.
      for (SVal &v : state)
        if (v.size() == 1 && !v.array)
          v.v[0] = v.v[0].simplify(), v.p[0] = v.p[0].simplify();
    } else {
      z3::expr running = less(iv, hi);
      // Known to have ended (constant bounds in effect): no more copies.
      if (running.simplify().is_false())
        break;
      state =
          select(running, runGuarded(running, loop.getRegion(), args), state);
    }
    iv = iv + step;
  }
  // An iteration past the bound would still run.
  if (!trips)
    pastBound = pastBound || (!ub && less(iv, hi));
  for (auto [r, v] : llvm::zip(loop.getResults(), state))
    env[r] = v;
}

// affine.for with constant bounds (as generated, and as affine passes
// leave them), unrolled exactly; its iter_args as scf.for's.
void Encoder::encodeAffineFor(affine::AffineForOp loop) {
  if (!loop.hasConstantBounds())
    unsupported("affine.for with bounds that are not constants");
  requireValues(loop->getResultTypes());
  const int64_t lo = loop.getConstantLowerBound(),
                hi = loop.getConstantUpperBound(), step = loop.getStepAsInt();
  const int64_t trips = hi > lo ? (hi - lo + step - 1) / step : 0;
  if (trips > kMaxTrips)
    unsupported("affine.for with " + std::to_string(trips) +
                " iterations (unrolled up to " + std::to_string(kMaxTrips) +
                ")");
  std::vector<SVal> state;
  for (Value v : loop.getInits())
    state.push_back(get(v));
  for (int64_t k = 0; k < trips; ++k) {
    std::vector<SVal> args{indexVal(lo + k * step)};
    args.insert(args.end(), state.begin(), state.end());
    state = runRegion(loop.getRegion(), args);
  }
  for (auto [r, v] : llvm::zip(loop.getResults(), state))
    env[r] = v;
}

void Encoder::encodeWhile(scf::WhileOp loop) {
  std::vector<SVal> state;
  for (Value v : loop.getInits())
    state.push_back(get(v));
  std::vector<SVal> result;
  z3::expr done = c.bool_val(false);
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  for (unsigned k = 0; k < opts.loopBound; ++k) {
    PathState before = savePath();
    std::vector<SVal> fwd = runRegion(loop.getBefore(), state);
    z3::expr go = branchCondition(cond.getCondition());
    mergePath(!done, before);
    // fwd holds the condition's forwarded values, after its i1.
    std::vector<SVal> forwarded(fwd.begin() + 1, fwd.end());
    result =
        result.empty() ? forwarded : select(!done && !go, forwarded, result);
    z3::expr running = !done && go;
    state =
        select(running, runGuarded(running, loop.getAfter(), forwarded), state);
    done = done || !go;
    if (done.simplify().is_true())
      break;
  }
  pastBound = pastBound || (!ub && !done);
  for (auto [r, v] : llvm::zip(loop.getResults(), result))
    env[r] = v;
}

} // namespace cc::smt::detail
