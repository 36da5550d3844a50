// Translation-validation benchmark: per pass and per canonicalize rewrite of
// the TOSA canonicalization, tosa-to-linalg and linalg passes, over the seed
// corpus and generated graphs: median and p95 seconds per check and the
// share decided (correct or incorrect) vs unknown/timeout. Prints one JSON
// object, with the graph, pass and pattern of every `incorrect` verdict,
// the most frequent reasons of the undecided checks and every undecided
// check (to rerun it with verify-pass).
//   tv_bench [--graphs N=200] [--timeout-ms MS=2000] [--budget-s S=10]
// Each (graph, pipeline) check runs under smt::verifyPipelineBounded, killed
// after S seconds; the steps checked before the kill still count.
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "generators/Topology.h"
#include "smt/Validate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
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

struct Args {
  int graphs = 200;
  unsigned timeoutMs = 2000;
  double budgetS = 10;
};

bool parseArgs(int argc, char **argv, Args &a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (i + 1 >= argc)
      return false;
    std::string v = argv[++i];
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end || d < 0)
      return false;
    if (k == "--graphs")
      a.graphs = int(d);
    else if (k == "--timeout-ms")
      a.timeoutMs = unsigned(d);
    else if (k == "--budget-s")
      a.budgetS = d;
    else
      return false;
  }
  return a.budgetS > 0 && a.timeoutMs > 0;
}
} // namespace

// An undecided check's reason without its specifics (value names,
// numbers), so that checks group by cause.
std::string reasonClass(const cc::smt::StepCheck &s) {
  std::string r = s.reason.empty() ? cc::smt::verdictName(s.verdict) : s.reason;
  r = r.substr(0, r.find('\n'));
  std::string out;
  for (char c : r) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (out.empty() || out.back() != '#')
        out += '#';
    } else
      out += c;
  }
  return out.substr(0, 120);
}

// The seed corpus, then `generated` generated graphs.
std::vector<cc::Graph> benchGraphs(int generated, size_t &seeds) {
  std::vector<cc::Graph> graphs;
  std::vector<std::filesystem::path> seedPaths;
  for (const auto &e : std::filesystem::directory_iterator(CC_SEEDS_DIR))
    if (e.path().extension() == ".json")
      seedPaths.push_back(e.path());
  std::sort(seedPaths.begin(), seedPaths.end());
  for (const auto &p : seedPaths)
    if (auto g = cc::loadGraph(p.string()))
      graphs.push_back(std::move(*g));
  seeds = graphs.size();
  for (int i = 0; i < generated; ++i) {
    cc::GenOptions go;
    if (auto g = cc::generateGraph(go, uint64_t(i)))
      graphs.push_back(std::move(*g));
  }
  return graphs;
}

// The checks of one pipeline over all graphs.
struct PipelineTally {
  std::map<std::string, std::vector<double>> times;
  std::map<std::string, int> total, decided, verdicts, status;
  std::map<std::string, int> undecided; // why: unknown and timeout
  nlohmann::json incorrect = nlohmann::json::array();
  // Every undecided check, to reproduce it with verify-pass.
  nlohmann::json undecidedChecks = nlohmann::json::array();

  void add(const cc::Graph &g, const cc::smt::StepCheck &s) {
    if (s.cached)
      return;
    std::string kind = s.pattern.empty() ? "pass" : "rewrite";
    times[kind].push_back(s.seconds);
    ++total[kind];
    decided[kind] += s.verdict == cc::smt::TvVerdict::Correct ||
                     s.verdict == cc::smt::TvVerdict::Incorrect;
    ++verdicts[kind + ":" + cc::smt::verdictName(s.verdict)];
    if (s.verdict == cc::smt::TvVerdict::Unknown ||
        s.verdict == cc::smt::TvVerdict::Timeout) {
      ++undecided[reasonClass(s)];
      undecidedChecks.push_back({{"graph", g.name},
                                 {"pass", s.pass},
                                 {"pattern", s.pattern},
                                 {"function", s.function},
                                 {"seconds", s.seconds},
                                 {"reason", reasonClass(s)}});
    }
    if (s.verdict == cc::smt::TvVerdict::Incorrect)
      incorrect.push_back(
          {{"graph", g.name}, {"pass", s.pass}, {"pattern", s.pattern}});
  }

  nlohmann::json summary() {
    nlohmann::json j;
    for (const char *kind : {"pass", "rewrite"}) {
      j[kind] = {{"checks", total[kind]},
                 {"median_s", quantile(times[kind], 0.5)},
                 {"p95_s", quantile(times[kind], 0.95)},
                 {"decided_share",
                  total[kind] ? double(decided[kind]) / total[kind] : 0.0}};
    }
    j["verdicts"] = verdicts;
    // The most frequent reasons first: what to encode next.
    std::vector<std::pair<int, std::string>> why;
    for (const auto &[reason, n] : undecided)
      why.push_back({-n, reason});
    std::sort(why.begin(), why.end());
    nlohmann::json reasons = nlohmann::json::array();
    for (size_t i = 0; i < why.size() && i < 15; ++i)
      reasons.push_back({{"reason", why[i].second}, {"checks", -why[i].first}});
    j["undecided_reasons"] = reasons;
    j["incorrect"] = incorrect;
    j["undecided_checks"] = undecidedChecks;
    // Per graph: ok, error (emit or pipeline failed), timeout (killed after
    // the budget; the steps before it count), crash.
    j["graphs"] = status;
    return j;
  }
};

int main(int argc, char **argv) {
  Args args;
  if (!parseArgs(argc, argv, args)) {
    std::cerr << "usage: tv_bench [--graphs N=200] [--timeout-ms MS=2000] "
                 "[--budget-s S=10]\n";
    return 2;
  }
  size_t seeds = 0;
  std::vector<cc::Graph> graphs = benchGraphs(args.graphs, seeds);
  const std::pair<const char *, const char *> pipelines[] = {
      {"tosa-canonicalize", "func.func(canonicalize)"},
      // The decompositions first, as tosa-O0 has them: tosa-to-linalg-named
      // cannot lower transpose_conv2d.
      {"tosa-to-linalg", "func.func(tosa-optional-decompositions,"
                         "tosa-to-linalg-named,tosa-to-linalg,"
                         "tosa-to-tensor,tosa-to-arith)"},
      {"linalg", "func.func(tosa-optional-decompositions,tosa-to-linalg-named,"
                 "tosa-to-linalg,tosa-to-tensor,"
                 "tosa-to-arith,linalg-generalize-named-ops,"
                 "linalg-fuse-elementwise-ops)"},
  };
  auto start = std::chrono::steady_clock::now();
  nlohmann::json out;
  out["graphs"] = {{"seeds", seeds}, {"generated", graphs.size() - seeds}};
  out["timeout_ms"] = args.timeoutMs;
  out["graph_budget_s"] = args.budgetS;
  for (auto [name, pipeline] : pipelines) {
    PipelineTally tally;
    for (const cc::Graph &g : graphs) {
      auto m = cc::emitModule(g);
      if (!m) {
        ++tally.status["error"];
        continue;
      }
      cc::smt::TvOptions o;
      o.timeoutMs = args.timeoutMs;
      auto r =
          cc::smt::verifyPipelineBounded(*m, pipeline, o, true, args.budgetS);
      static const char *const endNames[] = {"ok", "timeout", "crash", "error"};
      ++tally.status[endNames[int(r.end)]];
      for (const cc::smt::StepCheck &s : r.steps)
        tally.add(g, s);
    }
    out[name] = tally.summary();
  }
  out["wall_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::cout << out.dump(2) << "\n";
}
