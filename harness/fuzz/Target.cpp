// One fuzz execution: decode, run, judge, count (see Target.h).
#include "harness/fuzz/Target.h"

#include "backends/mlir/MlirBackend.h"
#include "core/File.h"
#include "generators/Inputs.h"
#include "oracles/Consensus.h"

#include <algorithm>
#include <cstdio>

#include <cstdlib>
#include <filesystem>

namespace cc::fuzz {

namespace {
std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= s.size()) {
    size_t end = s.find(sep, begin);
    if (end == std::string::npos)
      end = s.size();
    if (end > begin)
      parts.push_back(s.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

uint64_t fnv1a(const std::string &s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}
} // namespace

Expected<TargetConfig> configFromEnv() {
  TargetConfig c;
  c.cuts = split(env("CC_FUZZ_CUTS"), ';');
  if (c.cuts.empty())
    for (const NamedPipeline &p : namedPipelines())
      c.cuts.push_back("mlir:" + p.name);
  c.findingsDir = env("CC_FUZZ_FINDINGS_DIR");
  std::string isolate = env("CC_FUZZ_ISOLATE");
  if (!isolate.empty() && isolate != "0" && isolate != "1")
    return makeError("CC_FUZZ_ISOLATE must be 0 or 1, got '" + isolate + "'");
  c.isolate = isolate != "0";
  std::string timeout = env("CC_FUZZ_TIMEOUT");
  if (!timeout.empty()) {
    char *end = nullptr;
    c.limits.timeoutSeconds = std::strtod(timeout.c_str(), &end);
    if (*end || c.limits.timeoutSeconds <= 0)
      return makeError("CC_FUZZ_TIMEOUT must be a positive number of "
                       "seconds, got '" +
                       timeout + "'");
  }
  return c;
}

Expected<std::unique_ptr<Target>> Target::make(const TargetConfig &config) {
  if (config.cuts.empty())
    return makeError("the fuzz target needs a compiler under test");
  auto t = std::make_unique<Target>();
  t->cfg = config;
  for (const std::string &spec : config.cuts) {
    CC_ASSIGN(b, makeMlirBackend(spec));
    t->cuts.push_back(std::move(b));
  }
  return t;
}

Execution Target::run(const uint8_t *data, size_t size) {
  return run(decodeCase(data, size));
}

Execution Target::run(const FuzzCase &c) {
  Execution e;
  e.fuzzCase = c;
  Backend &cut = *cuts[c.cut % cuts.size()];
  e.cut = cut.name();
  for (const Node &n : c.graph.nodes) {
    DType d = n.operands.empty() ? c.graph.typeOf(n.results.at(0)).dtype
                                 : c.graph.typeOf(n.operands[0]).dtype;
    e.opCoverage[{std::string(opName(n.op)), std::string(dtypeName(d))}]++;
    for (ValueId v : n.operands) {
      int32_t p = c.graph.values[size_t(v)].producer;
      e.edgeCoverage.insert(
          (p < 0 ? std::string("input")
                 : std::string(opName(c.graph.nodes[size_t(p)].op))) +
          ":" + std::string(dtypeName(c.graph.typeOf(v).dtype)) + ">" +
          std::string(opName(n.op)));
    }
  }
  TestCase tc;
  tc.graph = c.graph;
  tc.cut = e.cut;
  tc.limits = cfg.limits;
  tc.seed = c.inputSeed;
  InputReport report;
  tc.inputs = makeInputs(c.graph, c.inputSeed, {}, &report);
  if (report.undefined) {
    e.skipped = true;
    e.skipReason = "undefined inputs: " + report.undefinedReason;
    return e;
  }
  ConsensusOptions co;
  co.limits = cfg.limits;
  co.isolate = cfg.isolate;
  CoverageTap tap(cut, e.passCoverage);
  auto r = judgeConsensus(tc, {&tap}, {}, co);
  if (!r) {
    // crosscheck could not judge the case: not the compiler's fault.
    e.skipped = true;
    e.skipReason = r.error().message();
    return e;
  }
  e.skipped = r->skipped;
  e.skipReason = r->skipReason;
  e.findings = std::move(r->findings);
  return e;
}

Expected<std::vector<std::string>>
Target::saveFindings(const Execution &e) const {
  std::vector<std::string> paths;
  if (cfg.findingsDir.empty())
    return paths;
  CC_TRY(makeDirectory(cfg.findingsDir));
  std::error_code ec;
  for (const FindingRecord &f : e.findings) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  (unsigned long long)fnv1a(f.finding.signature.str()));
    std::string path = cfg.findingsDir + "/" +
                       std::string(kindName(f.finding.signature.kind)) + "-" +
                       hex + ".json";
    if (std::filesystem::exists(path, ec))
      continue;
    CC_TRY(saveFinding(path, f));
    paths.push_back(path);
  }
  return paths;
}

size_t counterSlot(const std::string &kind, const std::string &name, size_t n) {
  return size_t(fnv1a(name, fnv1a(kind + '\0')) % n);
}

void fillCounters(const Execution &e, uint8_t *counters, size_t n) {
  std::fill(counters, counters + n, uint8_t(0));
  auto add = [&](const std::string &kind, const std::string &name) {
    uint8_t &c = counters[counterSlot(kind, name, n)];
    c = uint8_t(std::min(int(c) + 1, 255)); // features may share a slot
  };
  // Which passes changed the IR and which patterns fired, not how often:
  // with counts, libFuzzer's count buckets kept every input that fired a
  // pattern once more, that is larger graphs, which run slower.
  for (const auto &[key, count] : e.passCoverage)
    add(key.first, key.second);
  // Which (op, dtype) pairs ran, likewise.
  for (const auto &[key, count] : e.opCoverage)
    add("op", key.first + ":" + key.second);
  // Which def-use pairs the graph has: most rewrite patterns match a
  // producer and its consumer (slice of pad, reshape of reshape, mul of
  // negates), so a new pair is a step towards a pattern not fired yet.
  for (const std::string &edge : e.edgeCoverage)
    add("edge", edge);
  add("cut", e.cut);
  if (e.skipped)
    add("skipped", "");
}

} // namespace cc::fuzz
