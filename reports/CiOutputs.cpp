#include "reports/CiOutputs.h"

#include "core/Format.h"
#include "core/Json.h"
#include "core/Quote.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace cc {

using nlohmann::json;

namespace {
constexpr Kind kAllKinds[] = {Kind::Crash,          Kind::Timeout,
                              Kind::Verifier,       Kind::PassFailure,
                              Kind::Miscompile,     Kind::TvIncorrect,
                              Kind::RefDisagreement};
} // namespace

std::string kindDescription(Kind k) {
  switch (k) {
  case Kind::Crash:
    return "The compiler under test crashed.";
  case Kind::Timeout:
    return "The compiler under test hung past its time limit.";
  case Kind::Verifier:
    return "The compiler produced IR that fails the MLIR verifier.";
  case Kind::PassFailure:
    return "A pass rejected valid input.";
  case Kind::Miscompile:
    return "The compiled program computes wrong results.";
  case Kind::TvIncorrect:
    return "Translation validation proved a pass or rewrite wrong.";
  case Kind::RefDisagreement:
    return "The two reference interpreters disagree.";
  }
  return "";
}

std::string sarifRuleId(Kind kind) {
  return "crosscheck/" + std::string(kindName(kind));
}

std::string signatureFingerprint(const Signature &s) {
  // FNV-1a, 64 bits: stable across platforms and releases.
  uint64_t h = 1469598103934665603ull;
  for (char c : s.str()) {
    h ^= uint8_t(c);
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  return hex;
}

CompilerLegend::CompilerLegend(const std::vector<Signature> &signatures) {
  constexpr size_t kLongName = 40;
  for (const Signature &s : signatures)
    if (s.backend.size() > kLongName &&
        std::find(names.begin(), names.end(), s.backend) == names.end())
      names.push_back(s.backend);
}

std::string CompilerLegend::shorten(std::string text) const {
  // Longest first: one pipeline may begin with another's text.
  std::vector<size_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return names[a].size() > names[b].size();
  });
  for (size_t i : order) {
    std::string ref = "[" + std::to_string(i + 1) + "]";
    for (size_t at = text.find(names[i]); at != std::string::npos;
         at = text.find(names[i], at + ref.size()))
      text.replace(at, names[i].size(), ref);
  }
  return text;
}

std::string CompilerLegend::lines(const std::string &indent) const {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += indent + "[" + std::to_string(i + 1) + "] " + names[i] + "\n";
  return out;
}

void groupFindings(CiRun &run, const std::vector<KnownBug> &known) {
  std::vector<FindingForGrouping> in;
  for (const CiFinding &f : run.findings)
    in.push_back({&f.record, f.reduced ? &*f.reduced : nullptr});
  run.rootCauses.clear();
  for (const RootCause &r : groupRootCauses(in, known)) {
    CiRootCause c{r.key, r.culprit, std::nullopt, true, r.members};
    if (r.known)
      c.knownBug = *r.known;
    for (size_t i : r.members) {
      run.findings[i].known |= bool(r.known);
      c.known &= run.findings[i].known;
    }
    run.rootCauses.push_back(std::move(c));
  }
}

namespace {

// How a root cause is named: its known bug, or its first signature.
std::string rootName(const CiRun &run, const CiRootCause &c) {
  if (c.knownBug)
    return "known bug " + c.knownBug->name;
  return run.findings.at(c.findings.front()).record.finding.signature.str();
}

// Every signature a root cause covers, one per line, with its cases and
// reproducer.
std::string rootDetails(const CiRun &run, const CiRootCause &c) {
  std::string text;
  if (c.knownBug)
    text += c.knownBug->title + "\nupstream: " +
            (c.knownBug->upstream.empty() ? "none" : c.knownBug->upstream) +
            " (" + c.knownBug->status + ")\n";
  if (!c.culprit.empty())
    text += "culprit: " + c.culprit + "\n";
  text += std::to_string(c.findings.size()) + " signature(s):\n";
  for (size_t i : c.findings) {
    const CiFinding &f = run.findings[i];
    text += "  " + f.record.finding.signature.str() + " (" +
            std::to_string(f.count) +
            " cases): " + (f.reducedFile.empty() ? f.file : f.reducedFile) +
            "\n";
  }
  return text;
}

// The run with its root causes: as given, or grouped here into `holder`
// (no known bugs) when the caller did not.
const CiRun &grouped(const CiRun &run, CiRun &holder) {
  if (!run.rootCauses.empty() || run.findings.empty())
    return run;
  holder = run;
  groupFindings(holder, {});
  return holder;
}

uint64_t rootCount(const CiRun &run, const CiRootCause &c) {
  uint64_t n = 0;
  for (size_t i : c.findings)
    n += run.findings[i].count;
  return n;
}

} // namespace

std::string junitXml(const CiRun &ungrouped) {
  CiRun holder;
  const CiRun &run = grouped(ungrouped, holder);
  size_t failures = 0, skipped = 0;
  for (const CiRootCause &c : run.rootCauses)
    (c.known ? skipped : failures)++;
  std::string time = formatDouble("%.3f", run.seconds);
  std::string tests = std::to_string(run.rootCauses.size() + 1);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"" + xmlText(run.name) + "\" tests=\"" + tests +
       "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" time=\"" +
       time + "\">\n";
  x += "  <testsuite name=\"" + xmlText(run.name) + "\" tests=\"" + tests +
       "\" failures=\"" + std::to_string(failures) +
       "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" +
       time + "\">\n";
  x += "    <properties>\n      <property name=\"cases\" value=\"" +
       std::to_string(run.cases) + "\"/>\n    </properties>\n";
  // The campaign itself: passes when it ran to the end.
  x += "    <testcase classname=\"crosscheck\" name=\"campaign: " +
       std::to_string(run.cases) + " cases\" time=\"" + time + "\"/>\n";
  for (const CiRootCause &c : run.rootCauses) {
    const CiFinding &first = run.findings.at(c.findings.front());
    const Signature &s = first.record.finding.signature;
    x += "    <testcase classname=\"" + xmlText(s.backend) + "\" name=\"" +
         xmlText(rootName(run, c)) + "\" time=\"0\">\n";
    if (c.known)
      x += "      <skipped message=\"" +
           xmlText(c.knownBug ? "known bug " + c.knownBug->name
                              : std::string("known (in the baseline)")) +
           "\"/>\n";
    else
      x += "      <failure message=\"" +
           xmlText(first.record.finding.message.substr(0, 500)) + "\" type=\"" +
           std::string(kindName(s.kind)) + "\">" +
           xmlText(first.record.finding.message + "\n" + rootDetails(run, c)) +
           "</failure>\n";
    x += "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

std::string sarifJson(const CiRun &ungrouped) {
  CiRun holder;
  const CiRun &run = grouped(ungrouped, holder);
  json rules = json::array();
  for (Kind k : kAllKinds)
    rules.push_back({{"id", sarifRuleId(k)},
                     {"name", std::string(kindName(k))},
                     {"shortDescription", {{"text", kindDescription(k)}}},
                     {"defaultConfiguration", {{"level", "error"}}}});
  json results = json::array();
  for (const CiRootCause &c : run.rootCauses) {
    const CiFinding &f = run.findings.at(c.findings.front());
    const Signature &s = f.record.finding.signature;
    json signatures = json::array();
    for (size_t i : c.findings)
      signatures.push_back(run.findings[i].record.finding.signature.str());
    json result = {
        {"ruleId", sarifRuleId(s.kind)},
        {"level", c.known ? "note" : "error"},
        {"message", {{"text", f.record.finding.message}}},
        {"baselineState", c.known ? "unchanged" : "new"},
        {"occurrenceCount", std::max<uint64_t>(rootCount(run, c), 1)},
        {"partialFingerprints",
         {{"crosscheckRootCause/v1",
           signatureFingerprint(Signature{s.kind, "", "", c.key})},
          {"crosscheckSignature/v1", signatureFingerprint(s)}}},
        {"properties",
         {{"root_cause", c.key},
          {"culprit", c.culprit},
          {"known_bug", c.knownBug ? c.knownBug->name : ""},
          {"upstream", c.knownBug ? c.knownBug->upstream : ""},
          {"signatures", signatures},
          {"count", rootCount(run, c)},
          {"graph", caseName(f.record.testCase)},
          {"seed", f.record.testCase.seed},
          {"case", f.record.testCase.index}}}};
    // The reduced case, when there is one, is what to look at first.
    std::string where = f.reducedFile.empty() ? f.file : f.reducedFile;
    if (!where.empty())
      result["locations"] = json::array(
          {{{"physicalLocation", {{"artifactLocation", {{"uri", where}}}}}}});
    results.push_back(result);
  }
  json sarif = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::array(
           {{{"tool", {{"driver", {{"name", "crosscheck"}, {"rules", rules}}}}},
             {"results", results},
             {"properties", {{"cases", run.cases}}}}})}};
  return jsonText(sarif, 2) + "\n";
}

std::string findingsJson(const CiRun &ungrouped) {
  CiRun holder;
  const CiRun &run = grouped(ungrouped, holder);
  json list = json::array();
  for (const CiFinding &f : run.findings)
    list.push_back({{"signature", signatureToJson(f.record.finding.signature)},
                    {"message", f.record.finding.message},
                    {"count", f.count},
                    {"known", f.known},
                    {"file", f.file},
                    {"reduced", f.reducedFile}});
  json roots = json::array();
  for (const CiRootCause &c : run.rootCauses)
    roots.push_back({{"key", c.key},
                     {"culprit", c.culprit},
                     {"known", c.known},
                     {"known_bug", c.knownBug ? c.knownBug->name : ""},
                     {"upstream", c.knownBug ? c.knownBug->upstream : ""},
                     {"findings", c.findings}});
  return jsonText({{"format", "crosscheck-findings"},
                   {"version", 1},
                   {"cases", run.cases},
                   {"findings", list},
                   {"root_causes", roots}},
                  2) +
         "\n";
}

} // namespace cc
