// What a counterexample shows (the inputs, both sides' outputs) and
// whether the JIT confirms it: a replay whose outputs differ, a target
// that fails where the source runs, or, where the source's encoding is
// exact, compiled code that disagrees with the source's semantics.
#include "smt/Refine.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace cc::smt::detail {

using namespace mlir;

// A counterexample: the text shown and what its replay needs.
struct Shown {
  std::ostringstream text;
  Inputs inputs;
  std::string notReplayable;
  Mask mask;        // per output, the elements where the source is defined
  ArgMemory memory; // how memref arguments are passed
  // The source's outputs (nothing where the model leaves them open).
  std::vector<std::vector<std::optional<double>>> expected;
};

std::optional<ModelNum> modelValue(const Eval &eval, const z3::expr &e,
                                   Type elt, z3::context &c) {
  if (e.get_sort().is_fpa()) {
    z3::expr bits = eval(z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, e)));
    z3::expr nan = eval(z3::expr(c, Z3_mk_fpa_is_nan(c, e)));
    if (nan.is_true()) {
      // The NaN's bits where the program reads them (Encoder::floatToBits):
      // its sign goes to the replay (copysign shows it).
      z3::sort so = e.get_sort();
      unsigned w = so.fpa_ebits() + so.fpa_sbits();
      std::string name = "nan_bits_" + std::to_string(w);
      uint64_t nb = 0, mant = so.fpa_sbits() - 1;
      uint64_t expOnes = ((uint64_t(1) << (w - 1 - mant)) - 1) << mant;
      bool negative =
          eval(c.constant(name.c_str(), c.bv_sort(w))).is_numeral_u64(nb) &&
          (nb & expOnes) == expOnes && (nb & ((uint64_t(1) << mant) - 1)) &&
          (nb >> (w - 1));
      return ModelNum{std::copysign(std::nan(""), negative ? -1.0 : 1.0),
                      std::nullopt};
    }
    uint64_t b;
    if (!bits.is_numeral_u64(b))
      return std::nullopt;
    if (elt.isF16())
      return ModelNum{f16BitsToF64(uint16_t(b)), std::nullopt};
    if (elt.isBF16())
      return ModelNum{bf16BitsToF64(uint16_t(b)), std::nullopt};
    if (elt.isF32()) {
      uint32_t u = uint32_t(b);
      float f;
      std::memcpy(&f, &u, 4);
      return ModelNum{f, std::nullopt};
    }
    double d;
    std::memcpy(&d, &b, 8);
    return ModelNum{d, std::nullopt};
  }
  z3::expr v = eval(e);
  uint64_t u = 0;
  if (!v.is_numeral_u64(u))
    return std::nullopt;
  unsigned w = e.get_sort().bv_size();
  int64_t s =
      w == 1 || w == 64 ? int64_t(u) : int64_t(u << (64 - w)) >> (64 - w);
  return ModelNum{double(s), s};
}

namespace {

// Integers exactly (an i64 near its extremes is not a double).
std::string fmtValue(const ModelNum &n) {
  return n.i ? std::to_string(*n.i) : detail::fmtValue(n.d);
}

// The arguments' values, shown and as the replay's inputs.
void showInputs(z3::context &c, const Eval &eval, const std::vector<SVal> &args,
                TypeRange argTypes, Shown &x) {
  for (size_t i = 0; i < args.size(); ++i) {
    Type t = argTypes[i];
    // Index scalars and vectors travel as i64 (replayMain).
    bool index = isa<IndexType>(t) || (isa<VectorType>(t) &&
                                       isa<IndexType>(getElementTypeOrSelf(t)));
    auto dt = index ? std::optional(DType::i64) : dtypeOf(t);
    if (!dt)
      x.notReplayable = "an argument of type " + str(t);
    x.text << "  %arg" << i;
    // Sizes where the type leaves them open.
    if (auto st = dyn_cast<ShapedType>(t); st && !st.hasStaticShape()) {
      x.text << " (";
      for (auto [k, d] : llvm::enumerate(args[i].shape))
        x.text << (k ? "x" : "") << d;
      x.text << ")";
    }
    x.text << " = [";
    Tensor tensor(dt.value_or(DType::f32), Shape(args[i].shape));
    for (int64_t k = 0; k < args[i].size(); ++k) {
      ModelNum n = modelValue(eval, args[i].v[k], getElementTypeOrSelf(t), c)
                       .value_or(ModelNum{0, 0});
      x.text << (k ? ", " : "") << fmtValue(n);
      if (dt)
        isFloat(*dt) ? tensor.setF(k, n.d) : tensor.setI(k, n.i.value_or(0));
    }
    x.text << "]\n";
    x.inputs.push_back(std::move(tensor));
  }
}

// One output's elements, shown; the source's (with `x`) are recorded for
// the replay.
std::string showOutput(z3::context &c, const Eval &eval, const SVal &v,
                       Type elt, Shown *x) {
  std::string out;
  for (int64_t i = 0; i < v.size(); ++i) {
    // Poison unless known defined (a probe may leave it open).
    bool poison = !eval(v.p[i]).is_false();
    std::optional<ModelNum> d;
    if (!poison)
      d = modelValue(eval, v.v[i], elt, c);
    if (x) {
      x->mask.back().push_back(!poison);
      x->expected.back().push_back(d ? std::optional(d->d) : std::nullopt);
    }
    out += (i ? ", " : "") + (poison ? std::string("poison")
                              : d    ? fmtValue(*d)
                                     : std::string("?"));
  }
  return out;
}

} // namespace

Attempt Query::counterexample(const Eval &eval) {
  Shown x = show(eval);
  bool targetUb = eval(et.ub).is_true();
  if (!o.confirm)
    return {TvVerdict::Incorrect, "counterexample not replayed (--no-confirm)",
            x.text.str()};
  if (!x.notReplayable.empty())
    return {TvVerdict::Unknown,
            "counterexample not confirmed: " + x.notReplayable +
                " cannot be replayed",
            x.text.str()};
  Attempt a = confirm(x, targetUb);
  if (a.verdict == TvVerdict::Unknown) {
    // Only poison or undefined behaviour differs when no defined element
    // of the target differs in value.
    bool valueDiffers = llvm::any_of(
        valueDisjuncts(), [&](const z3::expr &d) { return eval(d).is_true(); });
    a.poisonOnly = !valueDiffers && shapeNote.empty();
  }
  return a;
}

// What a counterexample shows, with what its replay needs.
Shown Query::show(const Eval &eval) {
  auto argTypes = src.getFunctionType().getInputs();
  Shown x;
  showInputs(c, eval, args, argTypes, x);
  x.memory.sameAs = aliasOf;
  for (size_t j = 0; j < aliasOf.size(); ++j)
    if (aliasOf[j] >= 0)
      x.text << "  %arg" << j << " is %arg" << aliasOf[j]
             << " (the same buffer)\n";
  for (size_t r = 0; r < os.size(); ++r) {
    Type elt = getElementTypeOrSelf(r < numResults
                                        ? src.getFunctionType().getResult(r)
                                        : argTypes[memArgs[r - numResults]]);
    x.mask.emplace_back();
    x.expected.emplace_back();
    x.text << "  source " << outName(r) << " = ["
           << showOutput(c, eval, os[r], elt, &x) << "]\n";
    x.text << "  target " << outName(r) << " = ["
           << showOutput(c, eval, ot[r], elt, nullptr) << "]\n";
  }
  x.memory.unmapped.assign(args.size(), false);
  for (auto [i, blk] : es.argBlocks)
    if (eval(*es.mem[size_t(blk)].deref).is_false()) {
      x.memory.unmapped[i] = true;
      x.text << "  %arg" << i
             << " is not dereferenceable (any access is undefined; replayed "
                "as a pointer to unmapped memory)\n";
    }
  bool targetUb = eval(et.ub).is_true();
  if (targetUb)
    x.text << "  the target has undefined behaviour\n";
  if (!shapeNote.empty())
    x.text << "  " << shapeNote << "\n";
  return x;
}

// The uninterpreted ops of a side but for declared functions (which the
// replay runs as their stand-in), comma-separated.
static std::string opaqueNonCalls(const Encoder &e) {
  std::string names;
  for (const std::string &n : e.opaqueOps)
    if (n.rfind("call @", 0) != 0)
      names += (names.empty() ? "" : ", ") + n;
  return names;
}

// The probes where the source is defined, shown; none where an argument
// cannot be replayed.
std::vector<Shown> Query::definedProbes() {
  std::vector<Shown> shown;
  for (const Assignment &as : probeSet(c, args)) {
    Eval eval = [&](const z3::expr &e) {
      return under(noChoice(), e).substitute(as.vars, as.vals).simplify();
    };
    if (!eval(es.ub).is_false())
      continue;
    shown.push_back(show(eval));
    if (!shown.back().notReplayable.empty())
      return {};
  }
  return shown;
}

// A counterexample that depends on uninterpreted functions (their model
// is Z3's choice, not libm's) may not replay; the probes' edge values
// (±0, ±1, ±inf, NaN, small integers) may, where the source is defined.
// Not where the source has an op the encoding does not know but for a
// declared function (run as its stand-in): where that op is undefined is
// unknown too (affine.delinearize_index of a non-positive basis), so a
// probe's difference may be the op's undefined behaviour.
std::optional<Attempt> Query::probeExecution() {
  if (!es.usedUf && !et.usedUf && es.opaqueOps.empty() && et.opaqueOps.empty())
    return std::nullopt;
  if (!opaqueNonCalls(es).empty() || !opaqueNonCalls(et).empty())
    return std::nullopt;
  Shapes shapes = outputShapes();
  for (const Shown &x : definedProbes()) {
    Replay rp = replay(src, tgt, x.inputs, shapes, x.mask, 0, x.memory);
    if (rp.kind == Replay::Differ)
      return Attempt{TvVerdict::Incorrect,
                     "counterexample confirmed by execution on probe inputs "
                     "(Z3's own depended on uninterpreted functions)",
                     x.text.str()};
  }
  return std::nullopt;
}

Attempt Query::confirm(const Shown &x, bool targetUb) {
  Replay rp = replay(src, tgt, x.inputs, outputShapes(), x.mask, 0, x.memory);
  // A float sum in another order (a convolution's bias added before the
  // cast) rounds differently: TOSA bounds a dot product's error, not its
  // order, so a difference of a few roundings is not a miscompile.
  if (rp.kind == Replay::Differ && rp.withinRounding &&
      (es.usedReassoc || et.usedReassoc))
    return {TvVerdict::Unknown,
            "counterexample not confirmed: the outputs differ only by "
            "rounding (a float sum in another order; TOSA bounds a dot "
            "product's error, not its order)",
            x.text.str()};
  // An op of the source the encoding does not know may be undefined at
  // these inputs (affine.delinearize_index of a non-positive basis): a
  // difference there is no miscompile it can show.
  if (std::string ops = opaqueNonCalls(es);
      rp.kind == Replay::Differ && !ops.empty())
    return {TvVerdict::Unknown,
            "counterexample not confirmed as a miscompile: the source's "
            "uninterpreted ops (" +
                ops + ") may be undefined at these inputs",
            x.text.str()};
  if (rp.kind == Replay::Differ || rp.kind == Replay::Agree)
    if (std::optional<Attempt> a = approximation(&x, rp.kind == Replay::Differ))
      return *a;
  if (rp.kind == Replay::Differ && !es.unmodelledFlags.empty())
    return {TvVerdict::Unknown,
            "counterexample not confirmed as a miscompile: the source's "
            "fast-math flags (" +
                llvm::join(es.unmodelledFlags, ", ") +
                ") allow results this check does not enumerate",
            x.text.str()};
  if (rp.kind == Replay::Differ) {
    // The lowered source computes one of the results TOSA allows, the
    // target may compute another (a zero sign TOSA leaves open): where the
    // source's encoding is exact, it tells.
    bool calls = llvm::any_of(es.opaqueOps, [](const std::string &n) {
      return n.rfind("call @", 0) == 0;
    });
    if (choices.empty() || !es.exact() || !allowed(rp, x))
      return {TvVerdict::Incorrect,
              std::string("counterexample confirmed by execution") +
                  (calls ? ", with each declared function run as the "
                           "stand-in x0*2 + x1*3 + ... + 1"
                         : ""),
              x.text.str()};
    return {TvVerdict::Unknown,
            "counterexample not confirmed: the target's compiled code "
            "computes a result the source allows (" +
                es.freedomsText() + ")",
            x.text.str()};
  }
  // Undefined behaviour has no defined outcome to compare; a target that
  // fails to compile or run where the source runs confirms it.
  if (rp.kind == Replay::TargetFailed && targetUb)
    return {TvVerdict::Incorrect,
            "counterexample confirmed: the target has undefined behaviour on "
            "these inputs and fails where the source runs (" +
                rp.why + ")",
            x.text.str()};
  if (rp.kind == Replay::Agree && targetUb)
    return {TvVerdict::Unknown,
            "counterexample not confirmed: the target has undefined behaviour "
            "on these inputs, but its compiled code computes what the source "
            "does",
            x.text.str()};
  if (std::optional<Attempt> a = againstSource(rp, x))
    return *a;
  if (std::optional<Attempt> a = probeExecution())
    return *a;
  std::string note = opaqueNote().empty() ? "" : " (" + opaqueNote() + ")";
  if (rp.kind == Replay::Agree)
    return {TvVerdict::Unknown,
            "spurious counterexample (both sides agree when executed)" + note,
            x.text.str()};
  return {TvVerdict::Unknown, "counterexample not confirmed: " + rp.why + note,
          x.text.str()};
}

// A target that computes a math function of the source by a formula of
// its own (math-expand-ops: tan as sin/cos) rounds differently, and MLIR
// documents no accuracy for math functions: measured on seeded inputs, it
// is approximate within --ulp-bound, incorrect beyond it or where no
// distance is finite (a NaN for a number but at ±0 and ±inf, where MLIR
// defines no value; another integer).
// Measured from the first probe where there is one (what is measured does
// not depend on where, or whether, Z3 found a point in its time), else from
// `x`, the counterexample that `differs` when replayed.
std::optional<Attempt> Query::approximation(const Shown *x, bool differs) {
  std::vector<std::string> replaced = replacedMathFns();
  if (replaced.empty())
    return std::nullopt;
  std::string fns = llvm::join(replaced, ", ");
  std::vector<Shown> probes = definedProbes();
  if (probes.empty() && !x)
    return std::nullopt;
  const Shown &from = probes.empty() ? *x : probes.front();
  UlpMeasure m =
      measureUlp(src, tgt, from.inputs, outputShapes(), from.mask, from.memory);
  if (!m.notRun.empty())
    return !differs || !x
               ? std::nullopt
               : std::optional<Attempt>(Attempt{
                     TvVerdict::Unknown,
                     "the target computes " + fns +
                         " by a formula whose accuracy was not measured (" +
                         m.notRun.substr(0, 200) + ")",
                     x->text.str()});
  std::string what = "the target computes " + fns + " by a formula";
  if (!m.exactMiss.empty())
    return Attempt{TvVerdict::Incorrect,
                   "counterexample confirmed by execution: " + what +
                       " that gives " + m.exactMiss,
                   m.at};
  std::string ulp = fmtValue(m.maxUlp) + " ulp";
  if (m.maxUlp > o.ulpBound)
    return Attempt{TvVerdict::Incorrect,
                   "counterexample confirmed by execution: " + what + " " +
                       ulp + " from the source, more than --ulp-bound " +
                       fmtValue(o.ulpBound) +
                       "; the largest difference is shown",
                   m.at};
  return Attempt{
      TvVerdict::Approximate,
      what + ", at most " + ulp + " from the source on " +
          std::to_string(m.sets) + " seeded inputs" +
          (m.open.empty()
               ? ""
               : ", and a NaN for a number (or the reverse) at ±0 or ±inf, "
                 "where MLIR defines no value (shown last)") +
          "; the largest difference is shown",
      m.at + (m.open.empty() ? "" : "at ±0 or ±inf:\n" + m.open)};
}

Shapes Query::outputShapes() const {
  Shapes shapes;
  for (const SVal &r : os)
    shapes.push_back(r.shape);
  return shapes;
}

// The source's math functions the target does not call (it computes them
// by a formula), as "math.NAME".
std::vector<std::string> Query::replacedMathFns() const {
  std::vector<std::string> replaced;
  for (const std::string &f : es.mathFns)
    if (!et.mathFns.count(f))
      replaced.push_back("math." + f);
  return replaced;
}

// Where the target computes a math function of the source by a formula
// and the search in IEEE floats is undecided (formulas of divisions are
// hard for Z3), measured from the first probe where the source is defined.
std::optional<Attempt> Query::measuredApproximation() {
  return o.confirm ? approximation(nullptr, false) : std::nullopt;
}

// The replay lowers both sides the same way, so a bug in that lowering
// makes both agree, and a source it cannot lower leaves only the target's
// run. Where an element of the source's encoding is exact at the inputs
// (no uninterpreted function, no sum whose order the encoding chose, no
// NaN bits), its value is the source's semantics (for TOSA: the encoding
// agrees with the reference interpreter op by op): the target's compiled
// code is compared with that, element by element (an argmax beside a
// reordered sum is still exact).
std::optional<Attempt> Query::againstSource(const Replay &rp, const Shown &x) {
  if ((rp.kind != Replay::Agree && rp.kind != Replay::SourceFailed) || !point ||
      !es.unmodelledFlags.empty())
    return std::nullopt;
  z3::expr_vector none = noChoice();
  for (size_t r = 0; r < rp.target.size() && r < x.expected.size(); ++r)
    for (int64_t i = 0; i < rp.target[r].size(); ++i) {
      std::optional<double> want = x.expected[r][size_t(i)];
      double got = rp.target[r].asDouble(i);
      if (!x.mask[r][size_t(i)] || !want || sameValue(*want, got) ||
          !es.exactAt(under(none, os[r].v[size_t(i)]), point->inputs.vars,
                      point->inputs.vals))
        continue;
      // Another choice of what TOSA leaves open may give the target's.
      if (choices.size() && allowed(rp, x))
        return std::nullopt;
      std::string how =
          rp.kind == Replay::Agree
              ? "the source, lowered the same way, agrees with the target: "
                "the shared lowering is wrong"
              : rp.why;
      return Attempt{TvVerdict::Incorrect,
                     "counterexample confirmed by execution against the "
                     "source's semantics: the target's compiled code gives " +
                         fmtValue(got) + " at " + outName(r) + "[" +
                         std::to_string(i) +
                         "], the source's exact encoding gives " +
                         fmtValue(*want) + " (" + how + ")",
                     x.text.str()};
    }
  return std::nullopt;
}

// Whether the target's compiled code computes, at the counterexample's
// inputs, what the source's encoding gives under some choice of its open
// results (zero signs), where the source is defined.
bool Query::allowed(const Replay &rp, const Shown &x) {
  z3::expr_vector same(c);
  for (size_t r = 0; r < rp.target.size() && r < os.size(); ++r)
    for (int64_t i = 0; i < os[r].size(); ++i) {
      if (!x.mask[r][size_t(i)])
        continue;
      const z3::expr &v = os[r].v[size_t(i)];
      z3::sort so = v.get_sort();
      z3::expr lit =
          so.is_fpa() ? z3::expr(c, Z3_mk_fpa_numeral_double(
                                        c, rp.target[r].asDouble(i), so))
                      : c.bv_val(uint64_t(rp.target[r].getI(i)), so.bv_size());
      same.push_back(os[r].p[size_t(i)] || v == lit);
    }
  z3::solver s(c);
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  s.set(prm);
  s.add(pin(es.ub || z3::mk_and(same)));
  return s.check() == z3::sat;
}

} // namespace cc::smt::detail
