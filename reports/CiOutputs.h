// Campaign results in the formats CI systems read: JUnit XML (one testcase
// per signature), SARIF 2.1.0 (one result per signature, a stable ruleId
// per kind, partialFingerprints from the signature) and a findings.json
// that a later campaign takes as its --baseline.
#pragma once

#include "core/Error.h"
#include "oracles/FindingFile.h"

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
};

struct CiRun {
  std::string name; // "crosscheck fuzz"
  uint64_t cases = 0;
  double seconds = 0;
  std::vector<CiFinding> findings;
};

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

private:
  std::vector<std::string> names; // [n] is names[n - 1]
};

std::string junitXml(const CiRun &run);
std::string sarifJson(const CiRun &run);
std::string findingsJson(const CiRun &run);
// Text escaped for XML and HTML (control characters become spaces).
std::string xmlEscape(const std::string &s);
// One sentence that says what a finding of this kind means.
std::string kindDescription(Kind kind);
// "crosscheck/miscompile": the SARIF ruleId of a kind.
std::string sarifRuleId(Kind kind);
// A stable hex fingerprint of a signature.
std::string signatureFingerprint(const Signature &s);

} // namespace cc
