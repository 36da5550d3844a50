// What a campaign worker does with a request: runs a graph's cases through
// every compiler under test and the references, or triages a finding.
#include "harness/CampaignSteps.h"

#include "backends/mlir/MlirBackend.h"
#include "harness/CaseStream.h"
#ifdef CC_HAVE_SMT
#include "oracles/Tv.h"
#endif
#include "oracles/Consensus.h"
#include "oracles/Program.h"
#include "reducers/Reduce.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace cc {

namespace {

using Clock = std::chrono::steady_clock;

// Counts the case's ops by (op, dtype).
void countOps(const Graph &g, CaseOutcome &o) {
  for (const Node &n : g.nodes) {
    if (n.op == OpId::Const)
      continue;
    ++o.ops;
    DType d = n.operands.empty() ? g.typeOf(n.results.at(0)).dtype
                                 : g.typeOf(n.operands[0]).dtype;
    o.coverage[{std::string(opName(n.op)), std::string(dtypeName(d))}]++;
  }
}

// Counts a program's ops by name, as printed (generators/Program.h), under
// the dtype "mlir".
void countOps(const MlirProgram &p, CaseOutcome &o) {
  for (const auto &[name, n] : countProgramOps(p.mlir)) {
    o.ops += n;
    o.coverage[{name, "mlir"}] += n;
  }
}

// fuzz --tv: every pass of each in-process compiler, validated on the
// case's graph; a pass proved wrong is a finding of `o`.
void validatePasses(const TestCase &c, const CampaignOptions &options,
                    CaseOutcome &o) {
#ifdef CC_HAVE_SMT
  TvCaseOptions tv{options.tvPerRewrite, options.tvTimeoutMs,
                   options.tvBudgetSeconds};
  for (const std::string &spec : options.cuts) {
    TestCase tc = c;
    tc.cut = spec;
    for (FindingRecord &f : tvFindings(tc, tv, &o.tvChecks, &o.times["tv"]))
      o.findings.push_back(std::move(f));
  }
#else
  (void)c, (void)options, (void)o; // checkOptions refuses --tv
#endif
}

// The cases of `request` built from the stream: the ones that cannot be
// built are skipped in `outcomes`, the others come back with the outcome
// each will fill.
std::vector<TestCase> buildCases(const CaseStream &stream,
                                 const CasesRequest &request,
                                 const CampaignOptions &options,
                                 std::vector<CaseOutcome> &outcomes,
                                 std::vector<CaseOutcome *> &judged) {
  std::vector<TestCase> cases;
  for (uint64_t k = 0; k < request.count; ++k) {
    CaseOutcome &o = outcomes[k];
    o.index = request.first + k;
    auto c = stream.at(o.index);
    if (!c) {
      o.skipped = true;
      o.skipReason = c.error().message();
      continue;
    }
    if (c->program) {
      o.graphName = "program_" + std::to_string(o.index / options.inputSets);
      countOps(*c->program, o);
    } else {
      o.graphName = c->graph.name;
      countOps(c->graph, o);
    }
    cases.push_back(std::move(*c));
    judged.push_back(&o);
  }
  return cases;
}

// A program miscompile's signature says only the dtype and kind of its
// first wrong element, so the first bug of a cut would absorb every later
// one: on a pipeline cut its stage becomes the culprit pass, bisected once
// per program, cut and signature (the triage's budget; none without
// triage).
void nameProgramCulprits(const std::vector<CaseOutcome *> &judged,
                         const CampaignOptions &options) {
  if (options.triageCalls <= 0)
    return;
  std::map<std::string, std::string> culprit; // by signature
  for (CaseOutcome *o : judged)
    for (FindingRecord &f : o->findings) {
      Signature &s = f.finding.signature;
      if (s.kind != Kind::Miscompile || !pipelineOfSpec(s.backend))
        continue;
      auto [it, fresh] = culprit.try_emplace(s.str());
      if (fresh) {
        ReduceOptions ro;
        ro.maxCalls = options.triageCalls;
        ro.budgetSeconds = options.triageSeconds;
        auto c = bisectCulprit(f, ro);
        it->second = c ? *c : "";
      }
      s.stage = it->second;
    }
}

// The outcomes of a request's cases, one graph on as many input sets
// (CaseStream): each compiler compiles the graph once. The compilers'
// coverage and translation validation are the graph's, recorded with its
// first case.
std::vector<CaseOutcome> runCases(const CaseStream &stream,
                                  const CasesRequest &request,
                                  const CampaignBackends &backends,
                                  const CampaignOptions &options) {
  auto start = Clock::now();
  std::vector<CaseOutcome> outcomes(request.count);
  std::vector<CaseOutcome *> judged; // the outcome of each case in `cases`
  std::vector<TestCase> cases =
      buildCases(stream, request, options, outcomes, judged);
  if (cases.empty())
    return outcomes;
  ConsensusOptions co;
  co.smtReference = usesSmtReference(options);
  co.limits = options.caseLimits;
  CaseOutcome &head = *judged.front();
  // The compilers' pass and pattern coverage (backends that observe it).
  std::vector<std::unique_ptr<CoverageTap>> taps;
  std::vector<Backend *> tapped;
  for (Backend *b : backends.cuts)
    tapped.push_back(
        taps.emplace_back(std::make_unique<CoverageTap>(*b, head.passCoverage))
            .get());
  auto results = cases.front().program
                     ? judgeProgramSets(cases, tapped, co)
                     : judgeConsensusSets(cases, tapped, backends.refs, co);
  for (size_t j = 0; j < cases.size(); ++j) {
    CaseOutcome &o = *judged[j];
    if (!results[j]) {
      // Not a compiler's fault: crosscheck could not judge the case.
      o.skipped = true;
      o.skipReason = results[j].error().message();
      continue;
    }
    o.skipped = results[j]->skipped;
    o.skipReason = results[j]->skipReason;
    o.unsupported = std::move(results[j]->unsupported);
    o.findings = std::move(results[j]->findings);
    o.times = std::move(results[j]->times);
  }
  if (cases.front().program)
    nameProgramCulprits(judged, options);
  if (options.tv && !head.skipped)
    validatePasses(cases.front(), options, head);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (CaseOutcome &o : outcomes)
    o.seconds = seconds / double(request.count);
  return outcomes;
}
} // namespace

bool usesSmtReference(const CampaignOptions &options) {
  return std::find(options.refs.begin(), options.refs.end(), kSmtReference) !=
         options.refs.end();
}

std::string serveRequest(const std::string &bytes, const CaseStream &stream,
                         const CampaignBackends &backends,
                         const CampaignOptions &options) {
  auto request = decodeRequest(bytes);
  if (!request) // the coordinator sees a malformed reply: a worker failure
    return "";
  if (auto *triage = std::get_if<TriageRequest>(&*request))
    return encodeTriage(triageFinding(triage->finding, options));
  return encodeOutcomes(
      runCases(stream, std::get<CasesRequest>(*request), backends, options));
}

} // namespace cc
