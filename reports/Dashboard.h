// The campaign dashboard: one self-contained HTML page (inline CSS and SVG,
// no network) with cases over time, cases/s, findings over time (new versus
// known), the op x dtype coverage heat map, pass and pattern coverage and
// the table of findings; and a Markdown summary for a CI job summary. The
// caller reads the campaign store into DashboardData (reports does not
// depend on the harness).
#pragma once

#include "oracles/Verdict.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cc {

struct DashboardData {
  std::string title;    // "crosscheck campaign DIR"
  std::string identity; // the campaign's options, one line
  uint64_t totalCases = 0;
  uint64_t skippedCases = 0;
  std::vector<double> caseTimes; // unix seconds, ascending
  struct Finding {
    Signature signature;
    std::string message;
    uint64_t count = 0;
    bool known = false;
    double firstSeen = 0, lastSeen = 0; // unix seconds
    int reducedOps = -1;
    std::string bundle; // link relative to the report dir, or empty
    std::string culprit;
    // The root cause it belongs to: "known bug NAME" or "#k" (see
    // reports/RootCause.h); empty when the campaign did not group.
    std::string rootCause;
  };
  std::vector<Finding> findings;
  // Root causes, all and new (not known): the count a nightly run is
  // judged by.
  size_t rootCauses = 0, newRootCauses = 0;
  struct Coverage {
    std::string op, dtype;
    int64_t count = 0;
  };
  std::vector<Coverage> coverage;
  struct PassCoverage {
    std::string kind, name; // "pass" | "pattern"
    int64_t count = 0;
    uint64_t firstCase = 0;
    double firstSeen = 0; // unix seconds; 0: not known
  };
  std::vector<PassCoverage> passCoverage;
};

std::string dashboardHtml(const DashboardData &d);
std::string summaryMarkdown(const DashboardData &d);

} // namespace cc
