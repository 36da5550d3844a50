// Translation-validation benchmark: per pass and per canonicalize rewrite of
// the TOSA canonicalization, tosa-to-linalg and linalg passes, over the seed
// corpus and generated graphs: median and p95 seconds per check and the
// share decided (correct or incorrect). Prints one JSON object.
//   tv_bench [GENERATED_COUNT=200] [TIMEOUT_MS=2000]
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "generators/Topology.h"
#include "smt/Validate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

namespace {
double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}
} // namespace

int main(int argc, char **argv) {
  int generated = argc > 1 ? std::atoi(argv[1]) : 200;
  unsigned timeoutMs = argc > 2 ? unsigned(std::atoi(argv[2])) : 2000;
  std::vector<std::string> modules;
  for (const auto &e : std::filesystem::directory_iterator(CC_SEEDS_DIR)) {
    if (e.path().extension() != ".json")
      continue;
    auto g = cc::loadGraph(e.path().string());
    if (!g)
      continue;
    if (auto m = cc::emitModule(*g))
      modules.push_back(*m);
  }
  size_t seeds = modules.size();
  for (int i = 0; i < generated; ++i) {
    cc::GenOptions go;
    auto g = cc::generateGraph(go, uint64_t(i));
    if (!g)
      continue;
    if (auto m = cc::emitModule(*g))
      modules.push_back(*m);
  }
  const std::pair<const char *, const char *> pipelines[] = {
      {"tosa-canonicalize", "func.func(canonicalize)"},
      {"tosa-to-linalg", "func.func(tosa-to-linalg-named,tosa-to-linalg,"
                         "tosa-to-tensor,tosa-to-arith)"},
      {"linalg", "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,"
                 "tosa-to-arith,linalg-generalize-named-ops,"
                 "linalg-fuse-elementwise-ops)"},
  };
  nlohmann::json out;
  out["modules"] = {{"seeds", seeds}, {"generated", modules.size() - seeds}};
  out["timeout_ms"] = timeoutMs;
  for (auto [name, pipeline] : pipelines) {
    std::map<std::string, std::vector<double>> times;
    std::map<std::string, int> total, decided, verdicts;
    int errors = 0;
    for (const std::string &m : modules) {
      cc::smt::TvOptions o;
      o.timeoutMs = timeoutMs;
      auto steps = cc::smt::verifyPipeline(m, pipeline, o, true);
      if (!steps) {
        ++errors;
        continue;
      }
      for (const auto &s : *steps) {
        if (s.cached)
          continue;
        std::string kind = s.pattern.empty() ? "pass" : "rewrite";
        times[kind].push_back(s.seconds);
        ++total[kind];
        decided[kind] += s.verdict == cc::smt::TvVerdict::Correct ||
                         s.verdict == cc::smt::TvVerdict::Incorrect;
        ++verdicts[std::string(kind) + ":" + cc::smt::verdictName(s.verdict)];
      }
    }
    nlohmann::json j;
    for (const char *kind : {"pass", "rewrite"}) {
      j[kind] = {{"checks", total[kind]},
                 {"median_s", quantile(times[kind], 0.5)},
                 {"p95_s", quantile(times[kind], 0.95)},
                 {"decided_share",
                  total[kind] ? double(decided[kind]) / total[kind] : 0.0}};
    }
    j["verdicts"] = verdicts;
    j["pipeline_errors"] = errors;
    out[name] = j;
  }
  std::cout << out.dump(2) << "\n";
}
