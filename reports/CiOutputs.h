// Campaign results in the formats CI systems read: JUnit XML (one testcase
// per root cause), SARIF 2.1.0 (one result per root cause, a stable ruleId
// per kind, partialFingerprints from the root cause) and a findings.json
// (every signature, and the root causes) that a later campaign takes as
// its --baseline.
#pragma once

#include "core/Error.h"
#include "oracles/FindingFile.h"
#include "reports/RootCause.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cc {

// One deduplicated finding of a campaign.
struct CiFinding {
  FindingRecord record;    // its first occurrence
  uint64_t count = 0;      // cases that showed it
  bool known = false;      // in the baseline: reported, but not as new
  std::string file;        // the finding's JSON, relative to the campaign dir
  std::string reducedFile; // its reduced case, when reduced (same format)
  int reducedOps = -1;
  std::optional<FindingRecord> reduced;
};

// The findings that one bug explains (see RootCause).
struct CiRootCause {
  std::string key, culprit;
  std::optional<KnownBug> knownBug; // the known bug it is, if any
  bool known = false;           // a known bug, or every finding in the baseline
  std::vector<size_t> findings; // indices into CiRun::findings
};

struct CiRun {
  std::string name; // "crosscheck fuzz"
  uint64_t cases = 0;
  double seconds = 0;
  std::vector<CiFinding> findings;
  std::vector<CiRootCause> rootCauses; // see groupFindings
};

// Fills run.rootCauses from run.findings; a finding of a known bug
// becomes known.
void groupFindings(CiRun &run, const std::vector<KnownBug> &known);

// Compilers with long names (a whole pass pipeline) listed once and
// numbered, so that a summary of many findings names each by its number.
class CompilerLegend {
public:
  explicit CompilerLegend(const std::vector<Signature> &signatures);
  // `text` with each listed compiler's name replaced by "[n]".
  std::string shorten(std::string text) const;
  // One "[n] NAME" line per listed compiler, after `indent`.
  std::string lines(const std::string &indent) const;
  bool empty() const { return names.empty(); }
  const std::vector<std::string> &listed() const { return names; }

private:
  std::vector<std::string> names; // [n] is names[n - 1]
};

// What summary.txt counts beside the findings.
struct CiTotals {
  uint64_t cases = 0, skipped = 0, graphs = 0; // of this invocation
  uint64_t totalCases = 0;                     // in the store
  std::map<std::string, int64_t> tvChecks;     // pass checks by verdict
  // The cases each compiler could not run, by reason, most first (in the
  // store).
  struct Skips {
    std::string backend, reason;
    int64_t cases = 0;
  };
  std::vector<Skips> skips;
};

std::string junitXml(const CiRun &run);
// summary.txt: the numbers, the compilers' legend and every root cause with
// its signatures (new ones first), as a nightly run is read.
std::string summaryText(const CiRun &run, const CiTotals &totals);
std::string sarifJson(const CiRun &run);
std::string findingsJson(const CiRun &run);
// One sentence that says what a finding of this kind means.
std::string kindDescription(Kind kind);
// "crosscheck/miscompile": the SARIF ruleId of a kind.
std::string sarifRuleId(Kind kind);
// A stable hex fingerprint of a signature.
std::string signatureFingerprint(const Signature &s);

} // namespace cc
