// summary.txt: a campaign's numbers, then its root causes, new ones first.
#include "reports/CiOutputs.h"

#include <cstdio>

namespace cc {

namespace {
// A reduced case that a campaign's triage left: reduced, but not to the end.
bool triaged(const FindingRecord &reduced) {
  return reduced.reduction && !reduced.reduction->whole();
}

// One root cause of the summary: what it is, then each signature it
// covers, new or known, with its reproducer.
std::string rootCauseText(const CiRun &run, const CiRootCause &c, size_t n,
                          const CompilerLegend &legend) {
  std::string text;
  if (c.knownBug)
    text += "known bug " + c.knownBug->name + ": " + c.knownBug->title +
            "\n  " +
            (c.knownBug->upstream.empty()
                 ? c.knownBug->status
                 : c.knownBug->upstream + " (" + c.knownBug->status + ")");
  else
    text +=
        "root cause " + std::to_string(n) + (c.known ? " (known)" : " (new)");
  if (!c.culprit.empty())
    text += (c.knownBug ? "\n  culprit: " : ": culprit ") + c.culprit;
  text += "\n";
  for (size_t i : c.findings) {
    const CiFinding &f = run.findings[i];
    text +=
        std::string(f.known ? "  known " : "  NEW   ") +
        std::to_string(f.count) + "x " +
        legend.shorten(f.record.finding.signature.str()) + "\n        " +
        legend.shorten(f.record.finding.message).substr(0, 300) + "\n        " +
        f.file +
        (f.reducedFile.empty()
             ? ""
             : std::string("\n        reduced ") +
                   (triaged(*f.reduced) ? "(triage) " : "") + "to " +
                   std::to_string(f.reducedOps) + " ops: " + f.reducedFile) +
        "\n";
  }
  return text;
}

// The cases each compiler could not run, with its most common reasons:
// what a campaign did not test is as much its result as what it found.
std::string skipsText(const std::vector<CiTotals::Skips> &skips) {
  constexpr size_t kReasons = 5;
  std::string text;
  for (size_t i = 0; i < skips.size();) {
    size_t end = i;
    int64_t cases = 0;
    while (end < skips.size() && skips[end].backend == skips[i].backend)
      cases += skips[end++].cases;
    text += "  " + skips[i].backend + ": " + std::to_string(cases) +
            " cases not run\n";
    for (size_t k = i; k < end && k < i + kReasons; ++k)
      text += "    " + std::to_string(skips[k].cases) + "x " + skips[k].reason +
              "\n";
    if (end - i > kReasons)
      text += "    and " + std::to_string(end - i - kReasons) + " more " +
              (end - i - kReasons == 1 ? "reason\n" : "reasons\n");
    i = end;
  }
  return text.empty() ? ""
                      : "cases each compiler could not run, by reason (in "
                        "the store):\n" +
                            text;
}

} // namespace

std::string summaryText(const CiRun &run, const CiTotals &s) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%llu cases (%llu skipped) in %.1f s, %.2f cases/s, %llu "
                "graphs, %.2f graphs/s; %llu cases in the store\n",
                (unsigned long long)s.cases, (unsigned long long)s.skipped,
                run.seconds,
                run.seconds > 0 ? double(s.cases) / run.seconds : 0.0,
                (unsigned long long)s.graphs,
                run.seconds > 0 ? double(s.graphs) / run.seconds : 0.0,
                (unsigned long long)s.totalCases);
  std::string text = line;
  if (!s.tvChecks.empty()) {
    int64_t all = 0;
    std::string parts;
    for (const auto &[verdict, n] : s.tvChecks) {
      all += n;
      parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + verdict;
    }
    text += "translation validation: " + std::to_string(all) +
            " pass checks (" + parts + ")\n";
  }
  text += skipsText(s.skips);
  size_t fresh = 0;
  for (const CiFinding &f : run.findings)
    fresh += !f.known;
  size_t causes = run.rootCauses.size(), newCauses = 0;
  for (const CiRootCause &c : run.rootCauses)
    newCauses += !c.known;
  text += std::to_string(run.findings.size()) + " distinct findings, " +
          std::to_string(fresh) + " new, " +
          std::to_string(run.findings.size() - fresh) + " known\n";
  text += std::to_string(causes) + " root causes, " +
          std::to_string(newCauses) + " new, " +
          std::to_string(causes - newCauses) + " known\n";
  std::vector<Signature> signatures;
  for (const CiFinding &f : run.findings)
    signatures.push_back(f.record.finding.signature);
  CompilerLegend legend(signatures);
  if (!legend.empty())
    text += "compilers:\n" + legend.lines("  ");
  // New root causes first: they are what a nightly run is read for.
  for (bool known : {false, true})
    for (size_t i = 0; i < run.rootCauses.size(); ++i)
      if (run.rootCauses[i].known == known)
        text += rootCauseText(run, run.rootCauses[i], i + 1, legend);
  return text;
}

} // namespace cc
