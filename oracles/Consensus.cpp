#include "oracles/Consensus.h"

#include "backends/ref/Interpreter.h"
#include "core/Json.h"

#include <chrono>
#include <memory>
#include <optional>

namespace cc {

using nlohmann::json;

namespace {
using Clock = std::chrono::steady_clock;

// What one backend produced on the case.
struct Result {
  Backend *backend;
  std::optional<Outputs> outputs; // when it ran
  std::optional<NumericReport> vsReference;
};

// Outputs widened to f64 where float, so that they can stand in for the
// reference when two results are compared with each other.
Outputs asReference(const Outputs &outs) {
  Outputs r;
  for (const Tensor &t : outs)
    r.push_back(isFloat(t.dtype()) ? t.convertTo(DType::f64) : t);
  return r;
}

bool agree(const Graph &g, const Outputs &a, const Outputs &b,
           const Outputs &refTarget, const NumericOptions &o,
           const Outputs &magnitudes) {
  return judgeNumeric(g, a, asReference(b), refTarget, o, &magnitudes).ok;
}

// A backend's results on every input set, computed at once, handed out
// by run() one set at a time (the set `current`).
class Prerun : public Backend {
public:
  Prerun(Backend &inner, const Graph &g, const InputSets &sets,
         const RunOptions &options)
      : inner(inner), support(inner.supports(g)) {
    if (support.ok)
      results = inner.runSets(g, sets, options);
  }
  std::string name() const override { return inner.name(); }
  Support supports(const Graph &) const override { return support; }
  Expected<Outputs> run(const Graph &, const Inputs &,
                        const RunOptions &) override {
    return std::move(results.at(current));
  }
  size_t current = 0;

private:
  Backend &inner;
  Support support;
  std::vector<Expected<Outputs>> results;
};

std::string join(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += (s.empty() ? "" : ", ") + x;
  return s;
}

// "cut: why, ref: why": the backends that could not run the case.
std::string join(const std::vector<BackendSkip> &v) {
  std::string s;
  for (const BackendSkip &x : v)
    s += (s.empty() ? "" : ", ") + x.backend + ": " + x.reason;
  return s;
}
} // namespace

Expected<ConsensusResult> judgeConsensus(const TestCase &c,
                                         const std::vector<Backend *> &cuts,
                                         const std::vector<Backend *> &refs,
                                         const ConsensusOptions &options) {
  ConsensusResult out;
  const Graph &g = c.graph;
  auto start = Clock::now();
  Outputs magnitudes;
  Latitude latitude;
  latitude.permittedError = permittedErrors(g, options.numeric);
  auto ref = interpret(g, c.inputs, Precision::F64, &magnitudes, &latitude);
  if (!ref && ref.error().code() == ErrorCode::Undefined) {
    out.skipped = true;
    out.skipReason = "undefined behaviour: " + ref.error().message();
    return out;
  }
  if (!ref)
    return ref.error().withContext("reference");
  auto refTarget = interpret(g, c.inputs, Precision::Target);
  if (!refTarget)
    return refTarget.error().withContext("reference (target precision)");
  addStageTime(&out.times, "reference", start);

  RunOptions run;
  run.limits = options.limits;
  run.isolate = options.isolate;
  run.times = &out.times;

  auto record = [&](Backend &b, Finding f, json evidence, std::string log) {
    FindingRecord r;
    r.finding = std::move(f);
    r.testCase = c;
    r.testCase.cut = b.name();
    r.testCase.limits = options.limits;
    r.evidence = std::move(evidence);
    r.log = std::move(log);
    out.findings.push_back(std::move(r));
  };

  // Every backend runs; failures to compile are findings at once.
  std::vector<Result> compilers, references;
  for (auto [list, results] :
       {std::pair{&cuts, &compilers}, std::pair{&refs, &references}}) {
    for (Backend *b : *list) {
      Support s = b->supports(g);
      if (!s.ok) {
        out.unsupported.push_back({b->name(), s.reason});
        continue;
      }
      Result r{b, std::nullopt, std::nullopt};
      auto actual = b->run(g, c.inputs, run);
      if (actual) {
        r.outputs = std::move(*actual);
        auto t = Clock::now();
        r.vsReference = judgeNumeric(g, *r.outputs, *ref, *refTarget,
                                     options.numeric, &magnitudes, &latitude);
        addStageTime(&out.times, "oracle", t);
      } else {
        const Error &e = actual.error();
        // A backend that finds out only while running that it cannot
        // (the GPU backend without a GPU, after compiling) is unsupported.
        if (e.code() == ErrorCode::Unsupported) {
          out.unsupported.push_back({b->name(), e.message()});
          continue;
        }
        if (e.code() != ErrorCode::CompilerFailure &&
            e.code() != ErrorCode::Timeout)
          return e.message().starts_with(b->name()) ? e
                                                    : e.withContext(b->name());
        record(*b, compilerFailureFinding(b->name(), e), json::object(),
               e.message());
      }
      results->push_back(std::move(r));
    }
  }
  if (compilers.empty() && !cuts.empty()) {
    out.skipped = true;
    out.skipReason = "unsupported: " + join(out.unsupported);
    return out;
  }

  // A second reference that disagrees with the first: the compilers that
  // ran vote on which reference is right.
  for (Result &r : references) {
    if (!r.outputs || r.vsReference->ok)
      continue;
    std::vector<std::string> withFirst, withSecond;
    for (const Result &cr : compilers) {
      if (!cr.outputs)
        continue;
      if (cr.vsReference->ok)
        withFirst.push_back(cr.backend->name());
      else if (agree(g, *cr.outputs, *r.outputs, *refTarget, options.numeric,
                     magnitudes))
        withSecond.push_back(cr.backend->name());
    }
    std::string verdict =
        withFirst.size() > withSecond.size()
            ? "the compilers under test side with our interpreter: " +
                  r.backend->name() + " is likely wrong"
        : withSecond.size() > withFirst.size()
            ? "the compilers under test side with " + r.backend->name() +
                  ": our interpreter is likely wrong"
            : "no compiler under test settles which reference is right";
    Finding f = miscompileFinding(g, *r.vsReference, r.backend->name());
    f.signature.kind = Kind::RefDisagreement;
    f.signature.backend = "ref~" + r.backend->name();
    f.message = "reference-disagreement: " + r.vsReference->summary() + " (" +
                verdict + ")";
    record(*r.backend, f,
           {{"report", r.vsReference->toJson()},
            {"blame",
             {{"agree_with_interpreter", withFirst},
              {"agree_with_" + r.backend->name(), withSecond},
              {"verdict", verdict}}},
            {"outputs",
             {{"ref", outputsToJson(*ref)},
              {r.backend->name(), outputsToJson(*r.outputs)}}}},
           "");
  }

  // Compilers that disagree with the reference: settle the blame from
  // every other result.
  for (Result &r : compilers) {
    if (!r.outputs || r.vsReference->ok)
      continue;
    std::vector<std::string> rightCompilers, sameAsThis, otherWrong;
    for (const Result &o : compilers) {
      if (&o == &r || !o.outputs)
        continue;
      if (o.vsReference->ok)
        rightCompilers.push_back(o.backend->name());
      else if (agree(g, *r.outputs, *o.outputs, *refTarget, options.numeric,
                     magnitudes))
        sameAsThis.push_back(o.backend->name());
      else
        otherWrong.push_back(o.backend->name());
    }
    std::vector<std::string> refsAgreeingWithRef, refsAgreeingWithThis;
    for (const Result &o : references) {
      if (!o.outputs)
        continue;
      if (o.vsReference->ok)
        refsAgreeingWithRef.push_back(o.backend->name());
      else if (agree(g, *r.outputs, *o.outputs, *refTarget, options.numeric,
                     magnitudes))
        refsAgreeingWithThis.push_back(o.backend->name());
    }
    std::string name = r.backend->name();
    std::string verdict;
    if (!rightCompilers.empty())
      verdict = join(rightCompilers) + " agree" +
                (rightCompilers.size() == 1 ? "s" : "") +
                " with the reference: the fault is in " + name;
    else if (!refsAgreeingWithThis.empty())
      verdict = join(refsAgreeingWithThis) + " computes what " + name +
                " computes: the interpreter may be wrong";
    else if (!sameAsThis.empty())
      verdict =
          "every compiler under test (" + name + ", " + join(sameAsThis) +
          ") computes the same result against the reference" +
          (refsAgreeingWithRef.empty() ? ""
                                       : " and " + join(refsAgreeingWithRef)) +
          ": the fault is in a lowering step they share";
    else
      verdict = refsAgreeingWithRef.empty()
                    ? "the fault is in " + name + " (judged by the reference)"
                    : join(refsAgreeingWithRef) +
                          " agrees with the reference: the fault is in " + name;
    Finding f = miscompileFinding(g, *r.vsReference, name);
    f.message += " (" + verdict + ")";
    json outputs = {{"ref", outputsToJson(*ref)},
                    {name, outputsToJson(*r.outputs)}};
    record(*r.backend, f,
           {{"report", r.vsReference->toJson()},
            {"blame",
             {{"wrong", name},
              {"agree_with_reference", rightCompilers},
              {"same_as_wrong", sameAsThis},
              {"other_wrong", otherWrong},
              {"references_agreeing", refsAgreeingWithRef},
              {"verdict", verdict}}},
            {"outputs", outputs}},
           "");
  }
  return out;
}

std::vector<Expected<ConsensusResult>> judgeConsensusSets(
    const std::vector<TestCase> &cases, const std::vector<Backend *> &cuts,
    const std::vector<Backend *> &refs, const ConsensusOptions &options) {
  InputSets sets;
  for (const TestCase &c : cases)
    sets.push_back(&c.inputs);
  StageTimes shared;
  RunOptions run = options.runOptions(&shared);
  std::vector<std::unique_ptr<Prerun>> owned;
  auto prerun = [&](const std::vector<Backend *> &list) {
    std::vector<Backend *> out;
    for (Backend *b : list)
      out.push_back(owned
                        .emplace_back(std::make_unique<Prerun>(
                            *b, cases.at(0).graph, sets, run))
                        .get());
    return out;
  };
  std::vector<Backend *> preCuts = prerun(cuts), preRefs = prerun(refs);
  std::vector<Expected<ConsensusResult>> results;
  for (size_t k = 0; k < cases.size(); ++k) {
    for (auto &p : owned)
      p->current = k;
    auto r = judgeConsensus(cases[k], preCuts, preRefs, options);
    if (r)
      for (const auto &[stage, seconds] : shared)
        r->times[stage] += seconds / double(cases.size());
    results.push_back(std::move(r));
  }
  return results;
}

} // namespace cc
