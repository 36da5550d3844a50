// reduce_bench: the graph reducer on injected failures, as one JSON object.
// Each failure is a 20-op generated graph (generators/Topology.h) run
// through tosa-O0 preceded by one mutant pass (tests/mutants) that breaks an
// op the graph has, which the mutated pipeline miscompiles and plain tosa-O0
// does not. Reported: ops before and after (median), the share of ops
// removed, oracle calls and seconds per reduction, and slippage (a reduced
// case whose signature, re-judged from scratch, differs from the original).
//
//   reduce_bench [--failures N] [--jobs N] [--budget S] [--pipeline]
#include "backends/mlir/MlirBackend.h"
#include "generators/Inputs.h"
#include "generators/Topology.h"
#include "reducers/Reduce.h"
#include "tests/mutants/Mutants.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

using namespace cc;

namespace {

// Mutants with the op each one breaks, so that generated graphs favour it.
struct Injection {
  const char *mutant, *op;
};
const Injection kInjections[] = {
    {"cc-mutant-sub-swap", "sub"},
    {"cc-mutant-clamp-drop", "clamp"},
    {"cc-mutant-slice-off-by-one", "slice"},
    {"cc-mutant-transpose-invert", "transpose"},
    {"cc-mutant-cast-trunc", "cast"},
};

std::string mutated(const std::string &mutant) {
  const std::string &o0 = namedPipelines().front().pipeline;
  const std::string prefix = "builtin.module(";
  return "mlir:pipeline=" + prefix + "func.func(" + mutant + ")," +
         o0.substr(prefix.size());
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool same(const Signature &a, const Signature &b) {
  return a.kind == b.kind && a.stage == b.stage && a.detail == b.detail;
}

// An injected miscompile: the mutant's finding on the seed's graph, which
// plain tosa-O0 gets right. `tried` counts the graphs holding the op.
std::optional<FindingRecord> injectedFailure(uint64_t seed,
                                             const Injection &inj, int &tried) {
  GenOptions gen;
  gen.minOps = gen.maxOps = 20;
  gen.weights[inj.op] = 6;
  auto g = generateGraph(gen, seed);
  if (!g || std::none_of(g->nodes.begin(), g->nodes.end(),
                         [&](const Node &n) { return opName(n.op) == inj.op; }))
    return std::nullopt;
  ++tried;
  TestCase c;
  c.graph = *g;
  c.inputs = makeInputs(*g, seed);
  c.cut = mutated(inj.mutant);
  auto finding = judgeCase(c);
  if (!finding || finding->finding.signature.kind != Kind::Miscompile)
    return std::nullopt;
  TestCase plain = c;
  plain.cut = "mlir:tosa-O0";
  if (judgeCase(plain))
    return std::nullopt;
  return *finding;
}

double maxOf(const std::vector<double> &v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// The reductions so far and their summary.
struct Tally {
  std::vector<double> before, after, ratio, calls, seconds;
  int slipped = 0, atMost3 = 0;

  void add(const ReduceStats &s, bool slip) {
    slipped += slip;
    atMost3 += s.opsAfter <= 3;
    before.push_back(s.opsBefore);
    after.push_back(s.opsAfter);
    ratio.push_back(1.0 - double(s.opsAfter) / std::max(1, s.opsBefore));
    calls.push_back(double(s.oracleCalls));
    seconds.push_back(s.seconds);
  }

  void summarize(nlohmann::json &j) const {
    j["failures"] = before.size();
    j["median_ops_before"] = median(before);
    j["median_ops_after"] = median(after);
    j["max_ops_after"] = maxOf(after);
    j["at_most_3_ops"] = atMost3;
    j["median_reduction_ratio"] = median(ratio);
    j["min_reduction_ratio"] =
        ratio.empty() ? 0 : *std::min_element(ratio.begin(), ratio.end());
    j["median_oracle_calls"] = median(calls);
    j["max_oracle_calls"] = maxOf(calls);
    j["median_seconds"] = median(seconds);
    double total = 0;
    for (double x : seconds)
      total += x;
    j["total_seconds"] = total;
    j["slippage"] = slipped;
  }
};

bool parseArgs(int argc, char **argv, int &wanted, ReduceOptions &options) {
  for (int i = 1; i < argc; ++i) {
    bool value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--failures") && value)
      wanted = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--jobs") && value)
      options.jobs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--budget") && value)
      options.budgetSeconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--pipeline"))
      options.reducePipeline = true;
    else
      return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int wanted = 30;
  ReduceOptions options;
  options.budgetSeconds = 120;
  options.reducePipeline = false;
  if (!parseArgs(argc, argv, wanted, options)) {
    std::cerr << "usage: reduce_bench [--failures N] [--jobs N] "
                 "[--budget S] [--pipeline]\n";
    return 2;
  }
  registerMutantPasses();

  nlohmann::json cases = nlohmann::json::array();
  Tally tally;
  int tried = 0, errors = 0;
  for (uint64_t seed = 1; int(cases.size()) < wanted && seed < 2000; ++seed) {
    const Injection &inj = kInjections[seed % std::size(kInjections)];
    std::optional<FindingRecord> finding = injectedFailure(seed, inj, tried);
    if (!finding)
      continue;
    auto r = reduceFinding(*finding, options);
    nlohmann::json one = {{"seed", seed},
                          {"mutant", inj.mutant},
                          {"signature", finding->finding.signature.str()}};
    if (!r) {
      ++errors;
      one["error"] = r.error().message();
      cases.push_back(one);
      continue;
    }
    const ReduceStats &s = r->stats;
    auto again = judgeCase(r->reduced.testCase);
    bool slip =
        !again || !same(again->finding.signature, finding->finding.signature);
    tally.add(s, slip);
    one.update({{"ops_before", s.opsBefore},
                {"ops_after", s.opsAfter},
                {"elements_before", s.elementsBefore},
                {"elements_after", s.elementsAfter},
                {"oracle_calls", s.oracleCalls},
                {"cache_hits", s.cacheHits},
                {"seconds", s.seconds},
                {"budget_exhausted", s.budgetExhausted},
                {"slipped", slip}});
    cases.push_back(one);
    std::cerr << "reduce_bench: " << cases.size() << "/" << wanted << " "
              << inj.mutant << " ops " << s.opsBefore << " -> " << s.opsAfter
              << ", " << s.oracleCalls << " calls, " << s.seconds << " s\n";
  }
  nlohmann::json j;
  tally.summarize(j);
  j["graphs_tried"] = tried;
  j["errors"] = errors;
  j["jobs"] = options.jobs;
  j["cases"] = cases;
  std::cout << j.dump(2) << "\n";
  return 0;
}
