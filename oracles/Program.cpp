#include "oracles/Program.h"

#include "backends/mlir/MlirBackend.h"
#include "core/Format.h"
#ifdef CC_HAVE_SMT
#include "smt/Evaluate.h"
#endif

#include <chrono>
#include <cmath>
#include <optional>

namespace cc {

using nlohmann::json;

namespace {

// The first element where two runs differ, and how.
struct Difference {
  size_t output = 0;
  int64_t element = 0;
  std::string kind; // value, nan, inf, signed-zero
  std::string expected, actual;
};

std::string elementText(const Tensor &t, int64_t i) {
  return isFloat(t.dtype()) ? formatDouble("%.9g", t.getF(i))
                            : std::to_string(t.getI(i));
}

std::string differenceKind(const Tensor &t, double a, double b) {
  if (!isFloat(t.dtype()))
    return "value";
  if (std::isnan(a) != std::isnan(b))
    return "nan";
  if (std::isinf(a) || std::isinf(b))
    return "inf";
  if (a == 0 && b == 0)
    return "signed-zero";
  return "value";
}

// Per output, the elements to compare (all when absent).
using Known = std::vector<std::vector<bool>>;

bool sameElement(const Tensor &e, const Tensor &a, int64_t i,
                 bool anyZeroSign) {
  if (!isFloat(e.dtype()))
    return e.getI(i) == a.getI(i);
  double x = e.getF(i), y = a.getF(i);
  return sameValue(x, y) || (anyZeroSign && x == 0 && y == 0);
}

std::optional<Difference> firstDifference(const Outputs &expected,
                                          const Outputs &actual,
                                          bool anyZeroSign,
                                          const Known *known = nullptr) {
  for (size_t o = 0; o < expected.size() && o < actual.size(); ++o) {
    const Tensor &e = expected[o], &a = actual[o];
    for (int64_t i = 0; i < e.size() && i < a.size(); ++i) {
      if (known && !(*known)[o][size_t(i)])
        continue;
      bool same = sameElement(e, a, i, anyZeroSign);
      if (!same)
        return Difference{o, i, differenceKind(e, e.getF(i), a.getF(i)),
                          elementText(e, i), elementText(a, i)};
    }
  }
  return std::nullopt;
}

FindingRecord miscompile(const TestCase &c, const std::string &backend,
                         const Difference &d, const Outputs &expected,
                         const Outputs &actual) {
  FindingRecord f;
  f.testCase = c;
  f.testCase.cut = backend;
  DType dt = expected[d.output].dtype();
  f.finding.signature = {Kind::Miscompile, backend, "",
                         std::string(dtypeName(dt)) + ":" + d.kind};
  f.finding.message = "miscompile: @" + c.program->name + " output " +
                      std::to_string(d.output) + " element " +
                      std::to_string(d.element) + " is " + d.actual +
                      ", the straight lowering gives " + d.expected;
  f.evidence = {{"reference", kProgramReference},
                {"expected", outputsToJson(expected)},
                {"actual", outputsToJson(actual)}};
  return f;
}

FindingRecord failure(const TestCase &c, const std::string &backend,
                      const Error &e) {
  FindingRecord f;
  f.testCase = c;
  f.testCase.cut = backend;
  f.finding = compilerFailureFinding(backend, e);
  f.log = e.message();
  return f;
}

#ifdef CC_HAVE_SMT
// Oracle (b): the straight lowering against the program's value from its
// encoding. Their disagreement is a bug of crosscheck's encoding, of the
// conversions that every lowering shares, or of the generator (undefined
// behaviour), so it is a reference-disagreement, not a miscompile.
std::optional<FindingRecord>
againstEncoding(const TestCase &c, const Outputs &straight,
                const Expected<smt::Evaluation> &ev) {
  FindingRecord f;
  f.testCase = c;
  f.testCase.cut = kProgramReference;
  std::string detail, what;
  if (!ev) {
    if (ev.error().code() == ErrorCode::Unsupported)
      return std::nullopt;
    detail = "error";
    what = "its encoding could not be evaluated: " + ev.error().message();
  } else if (!ev->undefined.empty()) {
    detail = "undefined";
    what = "its encoding is undefined on these inputs: " + ev->undefined;
  } else if (auto d = firstDifference(ev->outputs, straight,
                                      zeroSignOpen(*c.program), &ev->known)) {
    detail =
        std::string(dtypeName(straight[d->output].dtype())) + ":" + d->kind;
    what = "output " + std::to_string(d->output) + " element " +
           std::to_string(d->element) + " is " + d->actual +
           " on the straight lowering, " + d->expected + " in its encoding";
    f.evidence = {{"reference", "smt"},
                  {"expected", outputsToJson(ev->outputs)},
                  {"known", ev->known},
                  {"actual", outputsToJson(straight)}};
  } else {
    return std::nullopt;
  }
  f.finding.signature = {Kind::RefDisagreement,
                         std::string(kProgramReference) + "~smt", "",
                         "smt:" + detail};
  f.finding.message =
      "reference-disagreement: @" + c.program->name + ": " + what;
  return f;
}

// A seed program undefined on a case's inputs: what a run computes there
// (outputs, a trap while executing) is no finding; what a compiler does to
// the program before running it (a crash in a pass) still is.
void dropWhatUndefinedExplains(ConsensusResult &r, const std::string &why) {
  std::erase_if(r.findings, [](const FindingRecord &f) {
    const Signature &s = f.finding.signature;
    return s.kind == Kind::Miscompile || s.stage == "execute" ||
           s.stage == "teardown";
  });
  if (r.findings.empty()) {
    r.skipped = true;
    r.skipReason = "undefined on these inputs (a seed program): " + why;
  }
}

// The straight lowering disagrees with the encoding on case k: the
// reference is wrong there (a bug every lowering may share), so a
// compiler's miscompile stays only where the compiler differs from the
// encoding's value too; on inputs where the encoding finds the program
// undefined, none stays. Crashes and failures stay.
void keepWhatTheEncodingConfirms(
    ConsensusResult &r, const TestCase &c, const std::vector<Backend *> &cuts,
    const std::vector<std::vector<Expected<Outputs>>> &actual, size_t k,
    const Expected<smt::Evaluation> &ev) {
  if (!ev)
    return;
  auto confirmed = [&](const FindingRecord &f) {
    if (f.finding.signature.kind != Kind::Miscompile)
      return true;
    if (!ev->undefined.empty())
      return false;
    for (size_t b = 0; b < cuts.size(); ++b)
      if (cuts[b]->name() == f.testCase.cut && actual[b][k])
        return firstDifference(ev->outputs, *actual[b][k],
                               zeroSignOpen(*c.program), &ev->known)
            .has_value();
    return true;
  };
  std::erase_if(r.findings,
                [&](const FindingRecord &f) { return !confirmed(f); });
}
#endif

bool isFinding(const Error &e) {
  return e.code() == ErrorCode::CompilerFailure ||
         e.code() == ErrorCode::Timeout;
}

// A seed program (MLIR's lit tests, a user's suite) may use what the
// straight lowering does not cover, or loop for long: only its crash is a
// finding. A generated program stays within the lowering by construction.
bool cannotRunSeed(const TestCase &c, const Error &e) {
  const CompilerFault *f = e.detail<CompilerFault>();
  return !c.program->source.empty() &&
         !(f && f->kind == CompilerFault::Kind::Crashed);
}

// One case: each compiler's outputs against the straight lowering's.
Expected<ConsensusResult>
judgeOne(const TestCase &c, Expected<Outputs> &expected,
         const std::vector<Backend *> &cuts,
         std::vector<std::vector<Expected<Outputs>>> &actual, size_t k) {
  ConsensusResult r;
  if (!expected) {
    const Error &e = expected.error();
    if (!isFinding(e))
      return e.withContext("the straight lowering");
    if (cannotRunSeed(c, e)) {
      r.skipped = true;
      r.skipReason =
          "the straight lowering cannot run this seed program: " + e.message();
      return r;
    }
    r.findings.push_back(failure(c, kProgramReference, e));
    return r;
  }
  size_t unsupported = 0;
  for (size_t b = 0; b < cuts.size(); ++b) {
    const std::string name = cuts[b]->name();
    Expected<Outputs> &out = actual[b][k];
    if (out) {
      if (auto d = firstDifference(*expected, *out, zeroSignOpen(*c.program)))
        r.findings.push_back(miscompile(c, name, *d, *expected, *out));
      continue;
    }
    const Error &e = out.error();
    if (e.code() == ErrorCode::Unsupported) {
      r.unsupported.push_back({name, e.message()});
      if (++unsupported == cuts.size()) {
        r.skipped = true;
        r.skipReason = "unsupported: " + name + ": " + e.message();
      }
    } else if (isFinding(e)) {
      r.findings.push_back(failure(c, name, e));
    } else {
      return e.withContext(name);
    }
  }
  return r;
}

} // namespace

// Whether the program leaves the sign of a zero result open: arith's
// maxnumf and minnumf (and the vector reductions of those kinds) "If the
// arguments are -0.0 and +0.0, then the result is either of them".
bool zeroSignOpen(const MlirProgram &p) {
  return p.mlir.find("maxnumf") != std::string::npos ||
         p.mlir.find("minnumf") != std::string::npos;
}

std::string programUndefined(const TestCase &c) {
#ifdef CC_HAVE_SMT
  if (!c.program)
    return "";
  auto ev = std::move(smt::evaluateProgram(*c.program, {&c.inputs}).front());
  return ev ? ev->undefined : "";
#else
  (void)c;
  return "";
#endif
}

std::vector<Expected<ConsensusResult>>
judgeProgramSets(const std::vector<TestCase> &cases,
                 const std::vector<Backend *> &cuts,
                 const ConsensusOptions &options) {
  using Results = std::vector<Expected<ConsensusResult>>;
  InputSets sets;
  for (const TestCase &c : cases)
    sets.push_back(&c.inputs);
  const MlirProgram &program = *cases.front().program;
  StageTimes times;
  RunOptions run = options.runOptions(&times);
  auto reference = makeMlirBackend(kProgramReference);
  if (!reference)
    return Results(cases.size(), reference.error());
  auto start = std::chrono::steady_clock::now();
  auto expected = (*reference)->runProgramSets(program, sets, run);
  addStageTime(&times, "reference", start);
#ifdef CC_HAVE_SMT
  // A seed program is not free of undefined behaviour by construction: its
  // encoding judges each input set.
  const bool seeded = !program.source.empty();
  std::vector<Expected<smt::Evaluation>> evaluated;
  if (options.smtReference || seeded) {
    start = std::chrono::steady_clock::now();
    evaluated = smt::evaluateProgram(program, sets);
    addStageTime(&times, "smt", start);
  }
#endif
  std::vector<std::vector<Expected<Outputs>>> actual;
  for (Backend *b : cuts)
    actual.push_back(b->runProgramSets(program, sets, run));

  Results results;
  for (size_t k = 0; k < cases.size(); ++k) {
    auto r = judgeOne(cases[k], expected[k], cuts, actual, k);
#ifdef CC_HAVE_SMT
    if (r && seeded && evaluated[k] && !evaluated[k]->undefined.empty())
      dropWhatUndefinedExplains(*r, evaluated[k]->undefined);
    else if (r && options.smtReference && expected[k])
      if (auto f = againstEncoding(cases[k], *expected[k], evaluated[k])) {
        keepWhatTheEncodingConfirms(*r, cases[k], cuts, actual, k,
                                    evaluated[k]);
        r->findings.push_back(std::move(*f));
      }
#endif
    if (r)
      for (auto &[stage, s] : times)
        r->times[stage] = s / double(cases.size());
    results.push_back(std::move(r));
  }
  return results;
}

} // namespace cc
