// The refinement check of a function pair: both sides encoded on the same
// arguments, one query whose models are the inputs where the target does
// not refine the source, first with abstract floats, then (when they find
// a counterexample) with IEEE floats.
#include "smt/Refine.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <chrono>

namespace cc::smt {

using namespace mlir;
using namespace detail;

namespace detail {

Query::Query(func::FuncOp src, func::FuncOp tgt, FMode mode, const TvOptions &o)
    : src(src), tgt(tgt), mode(mode), o(o), es(c, mode, o), et(c, mode, o) {}

Attempt Query::run() {
  if (std::optional<Attempt> unsupportedSide = encode())
    return *unsupportedSide;
  addMemoryOutputs();
  z3::expr bad = refinementViolation();
  z3::solver s(c);
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  if (o.rlimit)
    prm.set("rlimit", o.rlimit);
  s.set(prm);
  s.add(!es.ub && bad);
  QueryCache cache(o, mode, s);
  std::vector<std::string> found = notes();
  z3::check_result res;
  std::string unknownWhy;
  std::optional<Assignment> hit;
  if (mode == FMode::Ieee)
    hit = probe(c, args, !es.ub && bad);
  if (hit) {
    res = z3::sat; // a probe input is a counterexample: no search needed
  } else if (cache.holdsProof()) {
    res = z3::unsat;
    found.push_back("cached");
  } else if (mode == FMode::Ieee && disj.size() <= 1024) {
    // IEEE queries are much faster one output element at a time: the
    // disjunction is unsatisfiable iff each disjunct is.
    res = decompose(s, !es.ub, disj, o, unknownWhy);
  } else if (disj.size() > 1024 && sampleDisjuncts(s, !es.ub, disj, o)) {
    res = z3::sat;
  } else {
    s.set(prm);
    res = s.check();
    if (res == z3::unknown)
      unknownWhy = s.reason_unknown();
  }
  if (res == z3::unsat)
    return proved(prm, found, cache);
  if (res == z3::unknown)
    return undecided(unknownWhy);
  if (mode == FMode::Abstract)
    return abstractCounterexample();
  if (hit)
    return counterexample([&](const z3::expr &e) {
      z3::expr x = e;
      return x.substitute(hit->vars, hit->vals).simplify();
    });
  z3::model model = s.get_model();
  return counterexample([&](const z3::expr &e) { return model.eval(e, true); });
}

std::optional<Attempt> Query::encode() {
  auto argTypes = src.getFunctionType().getInputs();
  for (size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(es.fresh("arg" + std::to_string(i), argTypes[i]));
  try {
    os = es.encodeCall(src, args, 0);
  } catch (const EncodeFailure &f) {
    return Attempt{TvVerdict::Unknown, "unsupported in source: " + f.reason};
  }
  try {
    ot = et.encodeCall(tgt, args, 0);
  } catch (const EncodeFailure &f) {
    return Attempt{TvVerdict::Unknown, "unsupported in target: " + f.reason};
  }
  return std::nullopt;
}

// Memref arguments are outputs too: their final contents follow the
// results.
void Query::addMemoryOutputs() {
  numResults = os.size();
  for (auto [i, blk] : es.argBlocks) {
    memArgs.push_back(i);
    SVal sm, tm;
    sm.shape = tm.shape = args[i].shape;
    for (int64_t k = 0; k < args[i].size(); ++k) {
      z3::expr at = c.bv_val(uint64_t(k), 64);
      for (auto [e, out] : {std::pair{&es, &sm}, std::pair{&et, &tm}}) {
        const MemBlock &mb = e->mem[size_t(e->argBlocks.at(i))];
        out->v.push_back(z3::select(mb.v, at).simplify());
        out->p.push_back(z3::select(mb.p, at).simplify());
      }
    }
    os.push_back(std::move(sm));
    ot.push_back(std::move(tm));
  }
}

std::string Query::outName(size_t r) const {
  return r < numResults
             ? "result " + std::to_string(r)
             : "memory %arg" + std::to_string(memArgs[r - numResults]);
}

// A counterexample: the source is defined, and the target is undefined or
// differs at an element where the source is not poison.
z3::expr Query::refinementViolation() {
  disj.push_back(et.ub);
  for (size_t r = 0; r < os.size(); ++r) {
    if (os[r].shape != ot[r].shape) {
      disj.push_back(c.bool_val(true));
      shapeNote = outName(r) + " has a different shape";
      continue;
    }
    // Elements that are the same term on both sides (Z3 shares equal
    // terms) cannot differ: a pass usually leaves most of a graph alone.
    // Integer terms are compared after Z3's normalization (sums and
    // products flattened and sorted), which meets reordered integer sums.
    for (int64_t i = 0; i < os[r].size(); ++i) {
      z3::expr sv = os[r].v[i], tv = ot[r].v[i];
      if (sv.get_sort().is_bv() && !z3::eq(sv, tv)) {
        sv = sv.simplify();
        tv = tv.simplify();
      }
      if (!z3::eq(sv, tv) || !z3::eq(os[r].p[i], ot[r].p[i]))
        disj.push_back(!os[r].p[i] && (ot[r].p[i] || sv != tv));
    }
  }
  // One flat disjunction: a nested chain of 2-ary ors costs Z3 quadratic
  // time on large outputs.
  z3::expr_vector dv(c);
  for (const z3::expr &d : disj)
    dv.push_back(d);
  return z3::mk_or(dv);
}

// What a `correct` verdict is up to.
std::vector<std::string> Query::notes() const {
  std::vector<std::string> notes;
  if (es.usedDynamic || et.usedDynamic) {
    std::string sz;
    for (int64_t d : o.dynamicSizes)
      sz += (sz.empty() ? "" : ",") + std::to_string(d);
    notes.push_back("dynamic dimensions instantiated with sizes " + sz);
  }
  if (es.usedReassoc || et.usedReassoc)
    notes.push_back("correct up to reassociation of float sums");
  if (es.usedUf || et.usedUf)
    notes.push_back("math functions uninterpreted");
  if (std::string opaque = opaqueNote(); !opaque.empty())
    notes.push_back(opaque);
  return notes;
}

std::string Query::opaqueNote() const {
  std::set<std::string> opaque = es.opaqueOps;
  opaque.insert(et.opaqueOps.begin(), et.opaqueOps.end());
  std::string names;
  for (const std::string &n : opaque)
    names += (names.empty() ? "" : ", ") + n;
  return opaque.empty() ? "" : "uninterpreted ops: " + names;
}

// No counterexample: correct, unless the source is undefined for every
// input (then any target refines it, which proves nothing).
Attempt Query::proved(const z3::params &prm, std::vector<std::string> notes,
                      const QueryCache &cache) {
  if (!z3::expr(es.ub).simplify().is_false()) {
    z3::solver v(c);
    v.set(prm);
    v.add(!es.ub);
    if (v.check() == z3::unsat) {
      Attempt a{TvVerdict::Unknown,
                "vacuous: the source is undefined for every input"};
      a.vacuous = true;
      return a;
    }
  }
  cache.storeProof();
  std::string joined;
  for (const std::string &x : notes)
    joined += (joined.empty() ? "" : "; ") + x;
  return {TvVerdict::Correct, joined};
}

Attempt Query::undecided(const std::string &why) const {
  // Z3 says "canceled" for either limit, or names the resource limit.
  bool limit = why.find("timeout") != std::string::npos ||
               why.find("canceled") != std::string::npos ||
               why.find("resource limit") != std::string::npos;
  if (limit && o.rlimit)
    return {TvVerdict::Timeout,
            "solver limit reached (" + std::to_string(o.timeoutMs) +
                " ms or resource limit " + std::to_string(o.rlimit) + ")"};
  if (limit)
    return {TvVerdict::Timeout,
            "solver timeout after " + std::to_string(o.timeoutMs) + " ms"};
  return {TvVerdict::Unknown, "solver: " + why};
}

// A counterexample with abstract floats may be an artefact of the
// abstraction: it is refined with IEEE floats, or, where the program has
// too many float operations for that, sought by random execution.
Attempt Query::abstractCounterexample() {
  unsigned fops = es.floatOps + et.floatOps;
  if (fops <= 2 * o.maxFpOps) {
    Attempt a{TvVerdict::Unknown, "abstract counterexample"};
    a.needsRefinement = true;
    return a;
  }
  std::string why = "abstract floats found a counterexample; too many "
                    "float operations (" +
                    std::to_string(fops) + ") to refine";
  bool total = z3::expr(es.ub).simplify().is_false();
  for (const SVal &x : os)
    for (const z3::expr &p : x.p)
      total = total && p.simplify().is_false();
  if (!total || !o.confirm)
    return {TvVerdict::Unknown, why};
  Shapes argShapes, outShapes;
  Mask mask;
  for (const SVal &a : args)
    argShapes.push_back(a.shape);
  for (const SVal &out : os) {
    outShapes.push_back(out.shape);
    mask.emplace_back(size_t(out.size()), true);
  }
  if (auto cex = randomExecution(src, tgt, argShapes, outShapes, mask))
    return {TvVerdict::Incorrect,
            "counterexample confirmed by execution (seeded random "
            "inputs; the symbolic one was too large to refine)",
            *cex};
  return {TvVerdict::Unknown, why + "; 3 random inputs agree"};
}

} // namespace detail

namespace {

// A copy of `f` in its own module (with the functions it may call) whose
// named linalg ops are generalized: their generic form is their definition.
OwningOpRef<ModuleOp> generalizedCopy(func::FuncOp f) {
  ModuleOp parent = f->getParentOfType<ModuleOp>();
  OwningOpRef<ModuleOp> m(cast<ModuleOp>(parent->clone()));
  IRRewriter rewriter(f.getContext());
  m->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op.getOperation()))
      return;
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  });
  return m;
}

// Structurally identical functions (up to value names and locations) need
// no query.
bool identical(func::FuncOp src, func::FuncOp tgt) {
  llvm::DenseMap<Value, Value> same;
  return OperationEquivalence::isEquivalentTo(
      src, tgt, [&](Value a, Value b) { return success(same.lookup(a) == b); },
      [&](Value a, Value b) { same[a] = b; },
      OperationEquivalence::IgnoreLocations);
}

bool hasFloats(func::FuncOp fs, func::FuncOp ft) {
  bool hasFloat = false;
  for (func::FuncOp f : {fs, ft})
    f.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        hasFloat |= Encoder::isFloat(t);
      for (Type t : op->getOperandTypes())
        hasFloat |= Encoder::isFloat(t);
    });
  return hasFloat;
}

// The queries of a pair: abstract floats first where there are floats,
// IEEE floats where they find a counterexample. Dynamic sizes that make
// the source undefined everywhere (a dimension that must be 1) are retried
// with unit sizes; larger sizes last: a subview or slice of a fixed size
// may need them.
Attempt refine(func::FuncOp fs, func::FuncOp ft, const TvOptions &o) {
  bool hasFloat = hasFloats(fs, ft);
  TvOptions square = o, unit = o, four = o;
  square.dynamicSizes = {2};
  unit.dynamicSizes = {1};
  four.dynamicSizes = {4};
  std::vector<const TvOptions *> tries{&o, &square, &unit, &four};
  for (const TvOptions *opts : tries) {
    if (hasFloat) {
      Attempt a = Query(fs, ft, FMode::Abstract, *opts).run();
      if (a.vacuous && opts != tries.back())
        continue;
      if (!a.needsRefinement)
        return a;
    }
    // Replay runs the generalized copies: same semantics as the originals.
    Attempt a = Query(fs, ft, FMode::Ieee, *opts).run();
    if (a.vacuous && opts != tries.back())
      continue;
    return a;
  }
  return {TvVerdict::Unknown, "vacuous"};
}

} // namespace

std::string signatureMismatch(func::FuncOp src, func::FuncOp tgt) {
  if (src.getFunctionType() == tgt.getFunctionType())
    return "";
  std::string a, b;
  llvm::raw_string_ostream as(a), bs(b);
  as << src.getFunctionType();
  bs << tgt.getFunctionType();
  return "@" + src.getSymName().str() + " has type " + a +
         " in the source but " + b + " in the target";
}

FunctionCheck checkFunctionPair(func::FuncOp src, func::FuncOp tgt,
                                const TvOptions &o) {
  auto t0 = std::chrono::steady_clock::now();
  FunctionCheck r;
  r.function = src.getSymName().str();
  auto finish = [&](Attempt a) {
    r.verdict = a.verdict;
    r.reason = a.reason;
    r.counterexample = a.counterexample;
    r.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    return r;
  };
  if (identical(src, tgt))
    return finish({TvVerdict::Correct, "identical"});
  auto gs = generalizedCopy(src), gt = generalizedCopy(tgt);
  auto fs = gs->lookupSymbol<func::FuncOp>(src.getSymName());
  auto ft = gt->lookupSymbol<func::FuncOp>(tgt.getSymName());
  try {
    return finish(refine(fs, ft, o));
  } catch (const EncodeFailure &f) {
    return finish({TvVerdict::Unknown, "unsupported: " + f.reason});
  } catch (const z3::exception &e) {
    return finish({TvVerdict::Unknown, std::string("z3: ") + e.msg()});
  }
}

} // namespace cc::smt
