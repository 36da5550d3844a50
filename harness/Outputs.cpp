// A campaign's files, from its store: one JSON per finding (and its reduced
// case) under DIR/findings/, and the CI outputs (JUnit, SARIF,
// findings.json, summary.txt), its findings grouped by root cause.
#include "harness/CampaignSteps.h"

#include "core/File.h"
#include "core/Json.h"
#include "reports/CiOutputs.h"

#include <filesystem>

namespace cc {

namespace {
std::string fileName(const FindingRecord &f, size_t n) {
  std::string name = std::to_string(n) + "-" +
                     std::string(kindName(f.finding.signature.kind)) + "-" +
                     signatureFingerprint(f.finding.signature);
  return "findings/" + name + ".json";
}

// The store's translation validation, by verdict.
std::map<std::string, int64_t> byVerdict(const TvChecks &checks) {
  std::map<std::string, int64_t> out;
  for (const auto &[pass, t] : checks)
    for (auto [verdict, n] :
         {std::pair<const char *, int64_t>{"correct", t.correct},
          {"incorrect", t.incorrect},
          {"unknown", t.unknown},
          {"timeout", t.timeout}})
      if (n)
        out[verdict] += n;
  return out;
}
} // namespace

Expected<std::vector<KnownBug>> loadKnownBugsIfAny(const std::string &path) {
  if (path.empty())
    return std::vector<KnownBug>{};
  return loadKnownBugs(path);
}

Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary,
                                       const std::string &knownBugs) {
  CC_ASSIGN(known, loadKnownBugsIfAny(knownBugs));
  CC_ASSIGN(all, store.findings());
  CC_ASSIGN(total, store.caseCount());
  summary.totalCases = total;
  CC_ASSIGN(tv, store.tvChecks());
  summary.tvChecks = byVerdict(tv);
  CC_TRY(makeDirectory(dir + "/findings"));
  CiRun run{"crosscheck fuzz", total, summary.seconds, {}, {}};
  summary.signatures.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    Store::Stored &f = all[i];
    std::string file = fileName(f.record, i + 1);
    CC_TRY(writeAtomically(dir + "/" + file,
                           jsonText(findingToJson(f.record), 1) + "\n"));
    CiFinding ci{f.record, f.summary.count, f.summary.known, file, "",
                 -1,       f.reduced};
    if (f.reduced) {
      ci.reducedFile = file.substr(0, file.size() - 5) + ".reduced.json";
      ci.reducedOps = f.summary.reducedOps;
      CC_TRY(writeAtomically(dir + "/" + ci.reducedFile,
                             jsonText(findingToJson(*f.reduced), 1) + "\n"));
    }
    run.findings.push_back(std::move(ci));
    summary.signatures.push_back(f.summary);
  }
  groupFindings(run, known);
  for (size_t i = 0; i < run.findings.size(); ++i)
    summary.signatures[i].known = run.findings[i].known;
  summary.rootCauses = run.rootCauses.size();
  summary.newRootCauses = 0;
  for (const CiRootCause &c : run.rootCauses)
    summary.newRootCauses += !c.known;
  CiTotals totals{summary.cases,      summary.skipped,  summary.graphs,
                  summary.totalCases, summary.tvChecks, {}};
  CC_ASSIGN(skips, store.backendSkips());
  for (const Store::BackendSkips &k : skips)
    totals.skips.push_back({k.backend, k.reason, k.cases});
  CC_TRY(writeAtomically(dir + "/junit.xml", junitXml(run)));
  CC_TRY(writeAtomically(dir + "/findings.sarif", sarifJson(run)));
  CC_TRY(writeAtomically(dir + "/findings.json", findingsJson(run)));
  CC_TRY(writeAtomically(dir + "/summary.txt", summaryText(run, totals)));
  return summary;
}

} // namespace cc
