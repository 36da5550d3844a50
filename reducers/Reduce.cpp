// reduceFinding: the driver over the graph and pipeline reducers.
#include "reducers/Internal.h"

#include "backends/Registry.h"
#include "oracles/Differential.h"

namespace cc {

using namespace reduce;

Expected<FindingRecord> judgeCase(const TestCase &c, bool smtReference) {
  CC_ASSIGN(backend, makeBackend(c.cut));
  if (c.program) {
    CC_ASSIGN(f, programFinding(c, *backend, smtReference));
    if (!f)
      return Error::failure("the case passes on " + c.cut +
                                ": there is no failure to reduce",
                            ErrorCode::NotReproduced);
    return std::move(*f);
  }
  DifferentialOptions o;
  o.limits = c.limits;
  CC_ASSIGN(r, runDifferential(c.graph, c.inputs, *backend, o));
  const std::optional<Finding> &f = r.verdict.finding();
  if (!f)
    return Error::failure("the case passes on " + c.cut +
                              ": there is no failure to reduce",
                          ErrorCode::NotReproduced);
  FindingRecord out;
  out.finding = *f;
  out.testCase = c;
  if (r.report)
    out.evidence["numeric"] = r.report->toJson();
  return out;
}

Expected<ReduceResult> reduceFinding(const FindingRecord &finding,
                                     const ReduceOptions &options) {
  ReduceResult result;
  ReduceStats &stats = result.stats;
  const TestCase &original = finding.testCase;
  stats.opsBefore = countOps(original.graph);
  stats.elementsBefore = leafElements(original.graph);
  CaseOracle oracle(finding.finding.signature, options, stats);
  BestSoFar best(finding, options);
  CC_TRY(best.update(original));

  auto now = reduce::judgeLike(original, finding.finding.signature);
  ++stats.oracleCalls;
  if (!now)
    return Error::failure("the finding does not reproduce: " +
                              now.error().message(),
                          ErrorCode::NotReproduced);
  if (!sameFailure(now->finding.signature, finding.finding.signature))
    return Error::failure("the finding does not reproduce: expected " +
                              finding.finding.signature.str() + ", got " +
                              now->finding.signature.str(),
                          ErrorCode::NotReproduced);
  if (options.reduceGraph)
    CC_TRY(original.program ? reduceProgram(oracle, best, stats, options)
                            : reduceGraph(oracle, best, stats, options));
  if (options.reducePipeline)
    CC_TRY(reducePipeline(oracle, best, result, options));

  // The reduced case judged once more, for its message and evidence.
  auto last = reduce::judgeLike(best.current(), finding.finding.signature);
  ++stats.oracleCalls;
  if (!last || !sameFailure(last->finding.signature, finding.finding.signature))
    return makeError("internal error: the reduced case no longer fails the "
                     "same way (a flaky failure?)");
  result.reduced = finding;
  result.reduced.testCase = best.current();
  result.reduced.finding = last->finding;
  if (result.reduced.finding.signature.stage.empty()) // a bisected culprit
    result.reduced.finding.signature.stage = finding.finding.signature.stage;
  result.reduced.evidence = last->evidence;
  Reduction &r = result.reduced.reduction.emplace();
  r.opsBefore = stats.opsBefore;
  r.opsAfter =
      original.program ? stats.opsAfter : countOps(best.current().graph);
  r.oracleCalls = stats.oracleCalls;
  r.budgetExhausted = stats.budgetExhausted;
  r.quick = options.quick;
  r.bisected = result.bisected;
  r.culprit = result.firstFailingPass;
  if (!original.program) {
    stats.opsAfter = countOps(result.reduced.testCase.graph);
    stats.elementsAfter = leafElements(result.reduced.testCase.graph);
  }
  stats.seconds = oracle.elapsed();
  BestSoFar done(result.reduced, options);
  CC_TRY(done.update(result.reduced.testCase));
  return result;
}

Expected<std::string> bisectCulprit(const FindingRecord &finding,
                                    ReduceOptions options) {
  options.reduceGraph = false;
  options.reducePipeline = true;
  options.quick = true;
  options.outDir.clear();
  CC_ASSIGN(r, reduceFinding(finding, options));
  return r.firstFailingPass;
}

} // namespace cc
