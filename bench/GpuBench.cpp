// gpu_bench: GPU code generation without a GPU, as one JSON object per
// GPU pipeline: over N generated graphs (with precision variants), the
// share that lowers to PTX that ptxas accepts for every architecture, the
// compiler failures and ptxas rejections (first few messages), kernels per
// graph, and the median and p95 seconds of lowering and of ptxas.
//
//   gpu_bench [--graphs N]
#include "backends/cuda/Cuda.h"
#include "backends/mlir/MlirBackend.h"
#include "generators/Precision.h"
#include "generators/Topology.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace cc;

namespace {
using Clock = std::chrono::steady_clock;

double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[size_t(q * double(v.size() - 1))];
}

// Graph i: generated from seed i; every other one a precision variant.
std::vector<Graph> graphs(uint64_t count) {
  const std::vector<PrecisionKind> &kinds = allPrecisionKinds();
  std::vector<Graph> out;
  for (uint64_t seed = 0; out.size() < count; ++seed) {
    auto g = generateGraph(GenOptions{}, seed);
    if (!g)
      continue;
    if (seed % 2) {
      auto v = makePrecisionVariant(*g, kinds[(seed / 2) % kinds.size()], seed);
      if (v)
        g = std::move(v);
    }
    out.push_back(std::move(*g));
  }
  return out;
}
} // namespace

int main(int argc, char **argv) {
  uint64_t count = 40;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--graphs"))
      count = std::strtoull(argv[i + 1], nullptr, 10);
  std::vector<Graph> gs = graphs(count);
  nlohmann::json out;
  out["graphs"] = gs.size();
  out["architectures"] = gpuArchitectures();
  for (const GpuPipeline &p : gpuPipelines()) {
    std::vector<double> lower, ptxas, kernels;
    int accepted = 0, compileFailures = 0, rejections = 0, unsupported = 0;
    nlohmann::json messages = nlohmann::json::array();
    for (const Graph &g : gs) {
      auto text = emitModule(g);
      if (!text) {
        ++unsupported;
        continue;
      }
      StageTimes times;
      auto plan = compileForGpu(*text, g.name, p.pipeline, &times);
      if (!plan) {
        bool failure = plan.error().code() == ErrorCode::CompilerFailure;
        (failure ? compileFailures : unsupported) += 1;
        if (messages.size() < 5)
          messages.push_back(g.name + ": " +
                             plan.error().message().substr(0, 300));
        continue;
      }
      lower.push_back(times["lower"]);
      kernels.push_back(double(plan->modules.size()));
      auto start = Clock::now();
      Error e = assembleWithPtxas(plan->modules);
      bool ok = !e;
      if (e && messages.size() < 5)
        messages.push_back(g.name + ": " + e.message().substr(0, 300));
      ptxas.push_back(
          std::chrono::duration<double>(Clock::now() - start).count());
      ok ? ++accepted : ++rejections;
    }
    double meanKernels = 0;
    for (double k : kernels)
      meanKernels += k / double(std::max<size_t>(kernels.size(), 1));
    out[p.name] = {
        {"accepted_by_ptxas", accepted},
        {"compiler_failures", compileFailures},
        {"ptxas_rejections", rejections},
        {"unsupported", unsupported},
        {"kernels_per_graph", meanKernels},
        {"lower_s_median", quantile(lower, 0.5)},
        {"lower_s_p95", quantile(lower, 0.95)},
        {"ptxas_s_median", quantile(ptxas, 0.5)},
        {"ptxas_s_p95", quantile(ptxas, 0.95)},
        {"messages", messages},
    };
  }
  std::cout << out.dump(2) << "\n";
}
