// End-to-end campaign throughput: 10-op generated graphs through one
// in-process MLIR compiler under test and the reference interpreter, on 1
// and 2 workers, with the share of time per stage. With --input-sets K each
// graph is compiled once and judged on K input sets (K cases): graphs/s and
// cases/s are reported apart. Prints one JSON object.
//   campaign_bench [--cases N] [--cut SPEC] [--input-sets K]
#include "harness/Campaign.h"
#include "harness/Store.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace cc;

int main(int argc, char **argv) {
  uint64_t cases = 60;
  uint64_t inputSets = CampaignOptions().inputSets;
  std::string cut = "mlir:tosa-O0";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases"))
      cases = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cut"))
      cut = argv[i + 1];
    else if (!std::strcmp(argv[i], "--input-sets"))
      inputSets = std::stoull(argv[i + 1]);
  }
  nlohmann::json runs = nlohmann::json::array();
  for (int jobs : {1, 2}) {
    std::string dir = (std::filesystem::temp_directory_path() /
                       ("cc-campaign-bench-" + std::to_string(getpid()) + "-" +
                        std::to_string(jobs)))
                          .string();
    std::filesystem::remove_all(dir);
    CampaignOptions o;
    o.cuts = {cut};
    o.outDir = dir;
    o.maxCases = cases;
    o.timeBudgetSeconds = 3600;
    o.jobs = jobs;
    o.seed = 2026;
    o.gen.minOps = o.gen.maxOps = 10;
    o.inputSets = inputSets;
    auto s = runCampaign(o);
    if (!s) {
      std::cerr << "campaign_bench: " << s.error().message() << "\n";
      return 2;
    }
    auto store = Store::open(Store::dbPath(dir));
    auto times = (*store)->stageTimes();
    if (!times) {
      std::cerr << "campaign_bench: " << times.error().message() << "\n";
      return 2;
    }
    // Shares of the workers' time; "other" is generation, inputs,
    // serialization: the case wall time not inside a named stage.
    double caseTotal = (*times)["case"], named = 0;
    nlohmann::json share = nlohmann::json::object(),
                   seconds = nlohmann::json::object();
    for (const auto &[stage, t] : *times) {
      if (stage == "case")
        continue;
      named += t;
      seconds[stage] = t;
      share[stage] = caseTotal > 0 ? t / caseTotal : 0;
    }
    share["other"] =
        caseTotal > 0 ? std::max(0.0, caseTotal - named) / caseTotal : 0;
    runs.push_back(
        {{"jobs", jobs},
         {"cases", s->cases},
         {"skipped", s->skipped},
         {"seconds", s->seconds},
         {"cases_per_second", double(s->cases) / s->seconds},
         {"graphs_per_second",
          double(s->cases) / double(inputSets) / s->seconds},
         {"cases_per_second_per_worker", double(s->cases) / s->seconds / jobs},
         {"findings", s->signatures.size()},
         {"stage_seconds", seconds},
         {"stage_share", share}});
    std::filesystem::remove_all(dir);
  }
  nlohmann::json out = {{"benchmark", "campaign"},
                        {"cut", cut},
                        {"ops_per_graph", 10},
                        {"input_sets", inputSets},
                        {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
                        {"runs", runs}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
