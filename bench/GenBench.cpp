// gen_bench: speed and validity of the topology generator, as one JSON
// object: graphs per second on one core for 10-op and 30-op graphs, and the
// share of 10,000 seeds whose graph passes cc::verify, MLIR's verifier on
// its TOSA module and the reference interpreter (no undefined behaviour).
//
//   gen_bench [--seeds N]
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "generators/Inputs.h"
#include "generators/Topology.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace cc;

namespace {
double graphsPerSecond(int ops) {
  GenOptions o;
  o.minOps = o.maxOps = ops;
  auto start = std::chrono::steady_clock::now();
  uint64_t n = 0;
  double elapsed = 0;
  while (elapsed < 2.0) {
    for (int i = 0; i < 200; ++i, ++n)
      if (!generateGraph(o, n))
        return 0;
    elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  return double(n) / elapsed;
}
} // namespace

int main(int argc, char **argv) {
  uint64_t seeds = 10000;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--seeds"))
      seeds = std::strtoull(argv[i + 1], nullptr, 10);
  nlohmann::json j;
  j["graphs_per_s_10_ops"] = graphsPerSecond(10);
  j["graphs_per_s_30_ops"] = graphsPerSecond(30);
  GenOptions o;
  o.minOps = 3;
  o.maxOps = 30;
  uint64_t valid = 0;
  nlohmann::json failures = nlohmann::json::array();
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    auto g = generateGraph(o, seed);
    Error e = g ? verify(*g) : g.error();
    if (!e) {
      auto text = emitModule(*g);
      e = text ? verifyMlir(*text) : text.error();
    }
    if (!e) {
      auto out = interpret(*g, makeInputs(*g, seed));
      e = out ? Error() : out.error();
    }
    if (!e)
      ++valid;
    else if (failures.size() < 10)
      failures.push_back({{"seed", seed}, {"error", e.message()}});
  }
  j["validity_seeds"] = seeds;
  j["valid"] = valid;
  j["validity"] = double(valid) / double(seeds);
  j["failures"] = failures;
  std::cout << j.dump(2) << "\n";
  return valid == seeds ? 0 : 1;
}
