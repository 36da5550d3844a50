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
#include <numeric>
#include <unordered_set>

namespace cc::smt {

using namespace mlir;
using namespace detail;

namespace detail {

Query::Query(func::FuncOp src, func::FuncOp tgt, FMode mode, const TvOptions &o,
             std::vector<int> aliasOf)
    : src(src), tgt(tgt), mode(mode), o(o), aliasOf(std::move(aliasOf)),
      es(c, mode, o), et(c, mode, o) {
  es.openChoices = true;
  es.aliasOf = et.aliasOf = this->aliasOf;
}

// The source's open choices are universally quantified: a counterexample
// must differ under every choice. The first search takes them all false
// (one deterministic semantics; without choices the only search); when
// another choice explains its counterexample, underEveryChoice decides.
Attempt Query::run() {
  if (std::optional<Attempt> unsupportedSide = encode())
    return *unsupportedSide;
  addMemoryOutputs();
  refinementViolation();
  deadline = std::chrono::steady_clock::now() +
             std::chrono::milliseconds(2 * uint64_t(o.timeoutMs));
  z3::solver s(c);
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  if (o.rlimit)
    prm.set("rlimit", o.rlimit);
  s.set(prm);
  for (const z3::expr &x : es.choices)
    choices.push_back(x);
  // Inputs where a loop runs past the unrolling bound are left out here,
  // and then make a proof `unknown` (proved()).
  z3::expr pre = under(noChoice(), withinBound(!es.ub));
  std::vector<z3::expr> d = under(noChoice(), disj);
  s.add(pre && anyOf(d));
  QueryCache cache(o, mode, s);
  std::vector<std::string> found = notes();
  std::string unknownWhy;
  z3::check_result res = search(s, pre, d, &cache, found, unknownWhy);
  if (res == z3::sat && mode == FMode::Ieee && explain(prm, disj)) {
    found.push_back("up to " + es.freedomsText());
    res = underEveryChoice(prm, unknownWhy);
    if (res == z3::unknown && unknownWhy == kOpenChoices)
      return {TvVerdict::Unknown, kOpenChoices};
  }
  if (res == z3::unsat)
    return proved(prm, found, cache);
  if (res == z3::unknown && mode == FMode::Ieee)
    if (std::optional<Attempt> a = measuredApproximation())
      return *a;
  if (res == z3::unknown)
    return undecided(unknownWhy);
  if (mode == FMode::Abstract)
    return abstractCounterexample();
  Attempt a = atPoint();
  return a.poisonOnly ? valueDifference(a) : a;
}

// `pre` restricted to inputs where no loop runs past the unrolling bound
// (unchanged without loops: the solver's search is sensitive to the form).
z3::expr Query::withinBound(const z3::expr &pre) {
  z3::expr past = (es.pastBound || et.pastBound).simplify();
  return past.is_false() ? pre : pre && !past;
}

// The counterexample at `point`.
Attempt Query::atPoint() {
  if (!point->model)
    return counterexample([&](const z3::expr &e) {
      z3::expr x = under(noChoice(), e);
      return x.substitute(point->inputs.vars, point->inputs.vals).simplify();
    });
  z3::model model = *point->model;
  return counterexample([&](const z3::expr &e) {
    return model.eval(under(noChoice(), e), true);
  });
}

// The outputs' elements that differ in value where both sides are defined.
std::vector<z3::expr> Query::valueDisjuncts() const {
  std::vector<z3::expr> d;
  for (size_t r = 0; r < os.size(); ++r)
    if (os[r].shape == ot[r].shape)
      for (int64_t i = 0; i < os[r].size(); ++i)
        if (!z3::eq(os[r].v[i], ot[r].v[i]))
          d.push_back(!os[r].p[i] && !ot[r].p[i] && os[r].v[i] != ot[r].v[i]);
  return d;
}

// A counterexample where only the target's poison or undefined behaviour
// differs cannot be shown by execution: searches again, for inputs where
// both sides are defined and a value differs (each round excluding the
// inputs found before).
Attempt Query::valueDifference(const Attempt &poisonOnly) {
  std::vector<z3::expr> d = under(noChoice(), valueDisjuncts());
  // As in run(): the encoding of a loop past its bound is not its value.
  z3::expr pre = under(noChoice(), withinBound(!es.ub && !et.ub));
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  if (o.rlimit)
    prm.set("rlimit", o.rlimit);
  const std::string lead = poisonOnly.reason + "; ";
  for (int round = 0; round < kValueRounds && !d.empty(); ++round) {
    z3::solver s(c);
    s.set(prm);
    s.add(pre && anyOf(d));
    std::vector<std::string> notes;
    std::string why;
    z3::check_result res = search(s, pre, d, nullptr, notes, why);
    if (res == z3::unsat)
      break;
    if (res == z3::unknown)
      return {TvVerdict::Unknown,
              lead +
                  "the search for a value difference "
                  "was undecided: " +
                  why,
              poisonOnly.counterexample};
    Attempt a = atPoint();
    if (a.verdict == TvVerdict::Incorrect) {
      a.reason += " (a re-query for a value difference; the first "
                  "counterexample was poison only)";
      return a;
    }
    z3::expr_vector same(c);
    for (unsigned k = 0; k < point->inputs.vars.size(); ++k)
      same.push_back(point->inputs.vars[int(k)] == point->inputs.vals[int(k)]);
    pre = pre && !z3::mk_and(same);
  }
  return {TvVerdict::Unknown,
          lead + "the target is poison or undefined where the source is "
                 "defined, and no input found gives a value difference",
          poisonOnly.counterexample};
}

std::optional<Attempt> Query::encode() {
  auto argTypes = src.getFunctionType().getInputs();
  for (size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(i < aliasOf.size() && aliasOf[i] >= 0
                       ? args[size_t(aliasOf[i])]
                       : es.fresh("arg" + std::to_string(i), argTypes[i]));
  // Pinned index arguments stay inputs (the solver's strategies substitute
  // for them); other values are left out as if undefined.
  z3::expr pins = c.bool_val(true);
  for (auto [i, v] : o.indexArgValues) {
    if (i >= args.size() || !argTypes[i].isIndex())
      continue;
    z3::expr value = c.bv_val(uint64_t(v), 64);
    pins = pins && args[i].v[0] == value;
    for (Encoder *e : {&es, &et}) {
      e->pinVars.push_back(args[i].v[0]);
      e->pinVals.push_back(value);
    }
  }
  try {
    os = es.encodeCall(src, args, 0);
  } catch (const EncodeFailure &f) {
    return Attempt{TvVerdict::Unknown, "unsupported in source: " + f.reason};
  }
  es.ub = es.ub || !pins;
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
// differs at an element where the source is not poison (the disjuncts).
void Query::refinementViolation() {
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
}

// What a `correct` verdict is up to.
std::vector<std::string> Query::notes() const {
  std::vector<std::string> notes;
  if (es.usedDynamic || et.usedDynamic) {
    std::string sz;
    for (int64_t d : o.argDimSizes.empty() ? o.dynamicSizes : o.argDimSizes)
      sz += (sz.empty() ? "" : ",") + std::to_string(d);
    notes.push_back("dynamic dimensions instantiated with sizes " + sz);
  }
  for (std::string &n : encodingNotes(es, et))
    notes.push_back(std::move(n));
  if (es.argBlocks.size() > 1)
    notes.push_back(aliasNote());
  if (std::string opaque = opaqueNote(); !opaque.empty())
    notes.push_back(opaque);
  return notes;
}

std::string Query::opaqueNote() const { return detail::opaqueNote(es, et); }

std::vector<std::string> encodingNotes(const Encoder &es, const Encoder &et) {
  std::vector<std::string> notes;
  if (es.usedReassoc || et.usedReassoc)
    notes.push_back("correct up to reassociation of float sums");
  if (es.usedUf || et.usedUf)
    notes.push_back("math functions uninterpreted");
  if (es.usedMemrefResults)
    notes.push_back("memref results compared by their contents");
  return notes;
}

std::string opaqueNote(const Encoder &es, const Encoder &et) {
  std::set<std::string> opaque = es.opaqueOps;
  opaque.insert(et.opaqueOps.begin(), et.opaqueOps.end());
  std::string names;
  for (const std::string &n : opaque)
    names += (names.empty() ? "" : ", ") + n;
  return opaque.empty() ? "" : "uninterpreted ops: " + names;
}

std::string joinNotes(const std::vector<std::string> &notes) {
  std::string joined;
  for (const std::string &x : notes)
    joined += (joined.empty() ? "" : "; ") + x;
  return joined;
}

// No counterexample: correct, unless the source is undefined for every
// input (then any target refines it, which proves nothing).
Attempt Query::proved(const z3::params &prm, std::vector<std::string> notes,
                      const QueryCache &cache) {
  z3::expr past = (es.pastBound || et.pastBound).simplify();
  if (!past.is_false()) {
    z3::solver v(c);
    v.set(prm);
    v.add(under(noChoice(), !es.ub && past));
    if (v.check() != z3::unsat)
      return {TvVerdict::Unknown,
              "bounded: no counterexample where every loop ends within " +
                  std::to_string(o.loopBound) +
                  " iterations, but a loop may run longer"};
  }
  // A probe input where the source is defined settles it without a
  // search (a search over products can take seconds).
  auto definedAtAProbe = [&] {
    for (const Assignment &as : probeSet(c, args))
      if ((!es.ub).substitute(as.vars, as.vals).simplify().is_true())
        return true;
    return false;
  };
  if (!z3::expr(es.ub).simplify().is_false() && !definedAtAProbe()) {
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
  return {TvVerdict::Correct, joinNotes(notes)};
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

// Whether either side computes with floats.
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

} // namespace detail

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

namespace {

// Structurally identical functions (up to value names and locations) need
// no query.
bool identical(func::FuncOp src, func::FuncOp tgt) {
  llvm::DenseMap<Value, Value> same;
  return OperationEquivalence::isEquivalentTo(
      src, tgt, [&](Value a, Value b) { return success(same.lookup(a) == b); },
      [&](Value a, Value b) { same[a] = b; },
      OperationEquivalence::IgnoreLocations);
}

// The queries of a pair with the memref arguments `aliasOf` shares:
// abstract floats first where there are floats, IEEE floats where they
// find a counterexample. Dynamic sizes that make the source undefined
// everywhere (a dimension that must be 1) are retried with unit sizes;
// larger sizes last: a subview or slice of a fixed size may need them.
Attempt refineWith(func::FuncOp fs, func::FuncOp ft, const TvOptions &o,
                   const std::vector<int> &aliasOf) {
  bool hasFloat = hasFloats(fs, ft);
  TvOptions square = o, unit = o, four = o;
  for (TvOptions *x : {&square, &unit, &four}) {
    x->argDimSizes.clear();
    x->indexArgValues.clear();
  }
  square.dynamicSizes = {2};
  unit.dynamicSizes = {1};
  four.dynamicSizes = {4};
  std::vector<const TvOptions *> tries{&o, &square, &unit, &four};
  for (const TvOptions *opts : tries) {
    if (hasFloat) {
      Attempt a = Query(fs, ft, FMode::Abstract, *opts, aliasOf).run();
      if (a.vacuous && opts != tries.back())
        continue;
      if (!a.needsRefinement)
        return a;
    }
    // Replay runs the generalized copies: same semantics as the originals.
    Attempt a = Query(fs, ft, FMode::Ieee, *opts, aliasOf).run();
    if (a.vacuous && opts != tries.back())
      continue;
    return a;
  }
  return {TvVerdict::Unknown, "vacuous"};
}

// The check at instantiated sizes, where the check at every size did not
// prove the pair: at its counterexample's sizes and index arguments where
// it has one. Arguments of dynamic size there: a `correct` would be
// bounded, and contradicts the counterexample. Of static size (a slice of
// a size given by an argument): only an `incorrect` there counts, else the
// check at every value of the arguments decides.
Attempt instantiated(func::FuncOp fs, func::FuncOp ft, const TvOptions &o,
                     const SymbolicCheck &sym) {
  if (sym.counterexample) {
    TvOptions at = o;
    at.argDimSizes = sym.sizes;
    at.indexArgValues = sym.indexArgs;
    Attempt a = refineWith(fs, ft, at, sym.aliasOf);
    if (!sym.aliasOf.empty() && a.verdict != TvVerdict::Correct)
      a.reason = "with " + describeAliasing(sym.aliasOf) + ": " + a.reason;
    if (sym.sizes.empty() && a.verdict != TvVerdict::Incorrect)
      return refineWith(fs, ft, o, {});
    if (a.verdict == TvVerdict::Correct)
      return {TvVerdict::Unknown,
              "symbolic sizes: " + sym.why + ", not found again there"};
    return a;
  }
  Attempt a = refineWith(fs, ft, o, {});
  if (!sym.why.empty() && a.verdict == TvVerdict::Correct)
    a.reason += " (not at every size: " + sym.why + ")";
  return a;
}

// Distinct buffers first, then each way arguments may share one: the
// target must refine the source in all of them.
Attempt refine(func::FuncOp fs, func::FuncOp ft, const TvOptions &o) {
  SymbolicCheck sym = checkSymbolic(fs, ft, o);
  if (sym.proved)
    return *sym.proved;
  Attempt a = instantiated(fs, ft, o, sym);
  if (a.verdict != TvVerdict::Correct)
    return a;
  std::vector<std::vector<int>> ways = aliasings(fs);
  for (const std::vector<int> &aliasOf : ways) {
    Attempt b = refineWith(fs, ft, o, aliasOf);
    if (b.verdict != TvVerdict::Correct) {
      b.reason = "with " + describeAliasing(aliasOf) + ": " + b.reason;
      return b;
    }
  }
  return a;
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
  } catch (const EncodeBug &b) {
    r.internalError = true;
    return finish({TvVerdict::Unknown, b.message});
  } catch (const z3::exception &e) {
    return finish({TvVerdict::Unknown, std::string("z3: ") + e.msg()});
  }
}

} // namespace cc::smt
