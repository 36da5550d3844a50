// The SMT oracle adapter: fuzz cases through smt::verifyPipelineBounded.
#include "oracles/Tv.h"

#include "backends/mlir/MlirBackend.h"
#include "smt/Validate.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

namespace cc {

std::string tvPipelineOf(const std::string &spec) {
  std::optional<NamedPipeline> p = pipelineOfSpec(spec);
  return p ? p->pipeline : "";
}

// A word `dialect.op` after the start, `=` or a space and before a space or
// one of `({<"`, scanned by hand: the text may be a huge program from anyone.
std::map<std::string, int> irOpCounts(const std::string &ir) {
  auto lower = [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; };
  auto after = [](char c) {
    return c && (std::isspace(uint8_t(c)) || std::strchr("({<\"", c));
  };
  std::map<std::string, int> out;
  for (size_t i = 0; i < ir.size(); ++i) {
    if (!lower(ir[i]) ||
        (i > 0 && ir[i - 1] != '=' && !std::isspace(uint8_t(ir[i - 1]))))
      continue;
    size_t dot = i;
    while (dot < ir.size() && lower(ir[dot]))
      ++dot;
    size_t end = dot;
    if (dot < ir.size() && ir[dot] == '.')
      while (++end < ir.size() && (lower(ir[end]) || ir[end] == '.' ||
                                   (ir[end] >= '0' && ir[end] <= '9'))) {
      }
    if (end > dot + 1 && end < ir.size() && after(ir[end]))
      ++out[ir.substr(i, end - i)];
    i = end - 1; // the word's characters start no op name
  }
  return out;
}

namespace {
// "fold:tosa.mul": a rewrite's pattern and the op kinds it removed.
std::string rewriteDetail(const smt::StepCheck &s) {
  if (s.pattern.empty())
    return "";
  std::map<std::string, int> after = irOpCounts(s.after);
  std::string removed;
  for (const auto &[name, n] : irOpCounts(s.before))
    if (n > after[name] && name.rfind("func.", 0) != 0)
      removed += (removed.empty() ? "" : "+") + name;
  return s.pattern + (removed.empty() ? "" : ":" + removed);
}
} // namespace

std::vector<FindingRecord> tvFindings(const TestCase &c,
                                      const TvCaseOptions &options,
                                      TvChecks *checks, double *seconds) {
  std::vector<FindingRecord> out;
  std::string pipeline = tvPipelineOf(c.cut);
  // A program is validated as generated; a graph as its TOSA module.
  auto module =
      c.program ? Expected<std::string>(c.program->mlir) : emitModule(c.graph);
  if (pipeline.empty() || !module)
    return out; // the compiler run itself reports what does not emit
  smt::TvOptions tv;
  tv.timeoutMs = options.timeoutMs;
  smt::BoundedCheck r = smt::verifyPipelineBounded(
      *module, pipeline, tv, options.perRewrite, options.budgetSeconds);
  if (seconds)
    *seconds += r.seconds;
  std::set<std::string> seen;
  for (const smt::StepCheck &s : r.steps) {
    if (s.cached)
      continue;
    if (checks) {
      TvTally &t = (*checks)[s.pass];
      switch (s.verdict) {
      case smt::TvVerdict::Correct:
        ++t.correct;
        break;
      case smt::TvVerdict::Incorrect:
        ++t.incorrect;
        break;
      case smt::TvVerdict::Unknown:
      case smt::TvVerdict::Approximate: // not proved
        ++t.unknown;
        break;
      case smt::TvVerdict::Timeout:
        ++t.timeout;
        break;
      }
    }
    if (s.verdict != smt::TvVerdict::Incorrect)
      continue;
    FindingRecord f;
    f.finding.signature = {Kind::TvIncorrect, c.cut, s.pass, rewriteDetail(s)};
    if (!seen.insert(f.finding.signature.str()).second)
      continue;
    f.finding.message =
        "tv-incorrect: " +
        (s.pattern.empty() ? "pass " + s.pass
                           : "rewrite " + s.pattern + " of pass " + s.pass) +
        " on @" + s.function +
        " is not a refinement (counterexample confirmed by running both "
        "sides)";
    f.testCase = c;
    f.log = s.counterexample;
    f.evidence["tv"] = {
        {"pass", s.pass},         {"pattern", s.pattern},
        {"function", s.function}, {"before", s.before},
        {"after", s.after},       {"counterexample", s.counterexample},
        {"reason", s.reason},     {"seconds", s.seconds}};
    out.push_back(std::move(f));
  }
  return out;
}

std::string mlirTvFailure(const std::string &module,
                          const std::string &pipeline,
                          const TvCaseOptions &options) {
  smt::TvOptions tv;
  tv.timeoutMs = options.timeoutMs;
  smt::BoundedCheck r = smt::verifyPipelineBounded(
      module, pipeline, tv, options.perRewrite, options.budgetSeconds);
  for (const smt::StepCheck &s : r.steps)
    if (s.verdict == smt::TvVerdict::Incorrect)
      return "tv-incorrect " + s.pass +
             (s.pattern.empty() ? "" : "/" + s.pattern);
  std::string first = r.error.substr(0, r.error.find('\n'));
  switch (r.end) {
  case smt::BoundedCheck::End::Failed:
    return "pipeline fails: " + first;
  case smt::BoundedCheck::End::Crashed:
    return "pipeline crashes: " + first;
  default:
    return "";
  }
}

} // namespace cc
