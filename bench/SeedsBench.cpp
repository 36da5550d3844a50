// seeds_bench: runs the seed corpus through tosa-O0 and tosa-O3 and prints
// one JSON object with the time of every stage (emit, lower, jit, execute,
// reference, oracle) per graph and pipeline, and their totals.
//
//   seeds_bench [CORPUS_DIR] [--seed N]
//
// Each (graph, pipeline) runs in a child process (seeds_bench --one FILE
// PIPELINE), so that a compiler that crashes in the JIT costs one entry,
// not the whole benchmark.
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "core/Quote.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <sys/wait.h>

using namespace cc;

namespace {
const char *const kPipelines[] = {"tosa-O0", "tosa-O3"};

std::vector<std::string> graphFiles(const std::string &dir) {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Runs one graph through one pipeline (in the child process).
nlohmann::json runOne(const std::string &file, const std::string &pipeline,
                      uint64_t seed) {
  nlohmann::json j = {{"file", file}, {"pipeline", pipeline}};
  auto g = loadGraph(file);
  if (!g) {
    j["error"] = g.error().message();
    return j;
  }
  j["graph"] = g->name;
  Inputs inputs = makeInputs(*g, seed);
  auto backend = makeMlirBackend("mlir:" + pipeline);
  auto r = backend ? runDifferential(*g, inputs, **backend)
                   : Expected<CaseResult>(backend.error());
  if (!r) {
    j["error"] = r.error().message();
    return j;
  }
  const auto &f = r->verdict.finding();
  j["verdict"] = f ? "finding" : "pass";
  if (f)
    j["finding"] = f->message;
  for (const auto &[stage, seconds] : r->times)
    j["times"][stage] = seconds;
  return j;
}

// Runs `self --one FILE PIPELINE` and reads its JSON line; a child that
// crashes or prints no JSON becomes an entry with an error.
nlohmann::json runIsolated(const std::string &self, const std::string &file,
                           const std::string &pipeline, uint64_t seed) {
  std::string cmd = shellWord(self) + " --one " + shellWord(file) + " " +
                    pipeline + " --seed " + std::to_string(seed);
  std::string out;
  if (FILE *p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p))
      out.append(buf, n);
    int status = pclose(p);
    nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (status == 0 && j.is_object())
      return j;
    return {{"file", file},
            {"pipeline", pipeline},
            {"error",
             "the run crashed (wait status " + std::to_string(status) + ")"}};
  }
  return {{"file", file}, {"pipeline", pipeline}, {"error", "cannot start"}};
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = CC_SEEDS_DIR, one, onePipeline;
  uint64_t seed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" && i + 1 < argc)
      seed = std::stoull(argv[++i]);
    else if (a == "--one" && i + 2 < argc)
      one = argv[i + 1], onePipeline = argv[i + 2], i += 2;
    else if (!a.starts_with("-"))
      dir = a;
    else
      return std::cerr << "usage: seeds_bench [CORPUS_DIR] [--seed N]\n", 2;
  }
  if (!one.empty())
    return std::cout << runOne(one, onePipeline, seed).dump() << "\n", 0;
  if (!std::filesystem::is_directory(dir))
    return std::cerr << "seeds_bench: error: no directory '" << dir << "'\n", 2;

  nlohmann::json runs = nlohmann::json::array();
  nlohmann::json totals = nlohmann::json::object();
  int notPassing = 0;
  for (const std::string &file : graphFiles(dir)) {
    for (const char *p : kPipelines) {
      nlohmann::json r = runIsolated(argv[0], file, p, seed);
      notPassing += r.value("verdict", "") != "pass";
      if (r.contains("times")) {
        double sum = 0;
        for (const auto &[stage, seconds] : r["times"].items()) {
          nlohmann::json &slot = totals[p][stage];
          slot = (slot.is_null() ? 0.0 : slot.get<double>()) +
                 seconds.get<double>();
          sum += seconds.get<double>();
        }
        r["times"]["total"] = sum;
      }
      runs.push_back(std::move(r));
    }
  }
  nlohmann::json out = {{"benchmark", "seeds"}, {"corpus", dir},
                        {"seed", seed},         {"runs", runs},
                        {"totals", totals},     {"not_passing", notPassing}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
