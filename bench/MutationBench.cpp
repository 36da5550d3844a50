// mutation_bench: how far the libFuzzer target's structure-aware mutator
// reaches from the seed corpus, next to the generator, as one JSON object.
// Without any feedback (every mutant joins the pool, as in unguided
// mutation fuzzing), after N mutations and for N generated graphs: the
// distinct def-use edges (producer op, constant or input -> consumer op and
// operand; most rewrite patterns match such a pair), the distinct
// (op, dtype) pairs, the share of mutations that changed the graph,
// mutations per second and the mean op count (executions slow down with
// size). Half of the steps are cross-overs, as libFuzzer calls them.
//
//   mutation_bench [--steps N] [--seed S] [--seeds-dir DIR]
#include "core/Json.h"
#include "core/OpTable.h"
#include "core/Rng.h"
#include "generators/Topology.h"
#include "harness/fuzz/FuzzCase.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

using namespace cc;

namespace {
struct Reach {
  std::set<std::string> edges, opDTypes;
  void add(const Graph &g) {
    for (const Node &n : g.nodes) {
      const ValueId first = n.operands.empty() ? n.results[0] : n.operands[0];
      opDTypes.insert(std::string(opName(n.op)) + ":" +
                      std::string(dtypeName(g.typeOf(first).dtype)));
      for (size_t i = 0; i < n.operands.size(); ++i) {
        int32_t p = g.values[size_t(n.operands[i])].producer;
        std::string from = p < 0 ? "input" : opDef(g.nodes[size_t(p)].op).name;
        edges.insert(from + ">" + opDef(n.op).name + "#" + std::to_string(i));
      }
    }
  }
  nlohmann::json json() const {
    return {{"edges", edges.size()}, {"op_dtypes", opDTypes.size()}};
  }
};

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
      .count();
}

struct Flags {
  int steps = 2000;
  uint64_t seed = 1;
  std::string seedsDir = CC_SEEDS_DIR;
};

// False (after saying why) on a flag it does not know or without a value.
bool parseFlags(int argc, char **argv, Flags &f) {
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) {
      std::cerr << "mutation_bench: " << argv[i] << " needs a value\n";
      return false;
    } else if (!std::strcmp(argv[i], "--steps"))
      f.steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed"))
      f.seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--seeds-dir"))
      f.seedsDir = argv[i + 1];
    else {
      std::cerr << "mutation_bench: unknown flag " << argv[i] << "\n";
      return false;
    }
  }
  return true;
}

// The seed graphs within the fuzzer's limits.
std::vector<fuzz::FuzzCase> loadSeeds(const std::string &dir) {
  std::vector<fuzz::FuzzCase> pool;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json")
      continue;
    auto g = loadGraph(entry.path().string());
    if (g && fuzz::acceptableGraph(*g))
      pool.push_back({*g, 1, 0});
  }
  return pool;
}

// `steps` mutations and cross-overs of the pool's cases; every child joins
// the pool.
nlohmann::json mutate(std::vector<fuzz::FuzzCase> pool, int steps,
                      uint64_t seed) {
  const size_t seeds = pool.size();
  Reach mutated;
  for (const fuzz::FuzzCase &c : pool)
    mutated.add(c.graph);
  Rng rng(seed);
  int changed = 0;
  auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    auto any = [&]() -> const fuzz::FuzzCase & {
      return pool[size_t(rng.uniformInt(0, int64_t(pool.size()) - 1))];
    };
    const fuzz::FuzzCase &parent = any();
    // libFuzzer calls the custom cross-over as often as the mutator.
    fuzz::FuzzCase child = rng.chance(0.5)
                               ? fuzz::crossOver(parent, any(), rng.next())
                               : fuzz::mutateCase(parent, rng.next());
    if (!(child.graph == parent.graph)) {
      ++changed;
      mutated.add(child.graph);
    }
    pool.push_back(std::move(child));
  }
  double mutationSeconds = secondsSince(start);
  double ops = 0;
  for (size_t i = seeds; i < pool.size(); ++i)
    for (const Node &n : pool[i].graph.nodes)
      ops += n.op != OpId::Const;
  nlohmann::json j = mutated.json();
  j["changed_share"] = double(changed) / steps;
  j["mutations_per_s"] = steps / mutationSeconds;
  j["mean_ops"] = ops / double(std::max(steps, 1));
  return j;
}

// `steps` graphs from the generator, for comparison.
nlohmann::json generate(int steps, uint64_t seed) {
  Reach generated;
  GenOptions o;
  o.minOps = 3;
  o.maxOps = 12;
  int accepted = 0;
  double generatedOps = 0;
  for (int s = 0; s < steps; ++s) {
    auto g = generateGraph(o, seed + uint64_t(s));
    if (g && fuzz::acceptableGraph(*g)) {
      ++accepted;
      generated.add(*g);
      for (const Node &n : g->nodes)
        generatedOps += n.op != OpId::Const;
    }
  }
  nlohmann::json j = generated.json();
  j["accepted_share"] = double(accepted) / steps;
  j["mean_ops"] = generatedOps / double(std::max(accepted, 1));
  return j;
}
} // namespace

int main(int argc, char **argv) {
  Flags f;
  if (!parseFlags(argc, argv, f))
    return 2;
  std::vector<fuzz::FuzzCase> pool = loadSeeds(f.seedsDir);
  if (pool.empty()) {
    std::cerr << "mutation_bench: no seed graph within the fuzzer's limits in "
              << f.seedsDir << "\n";
    return 2;
  }
  nlohmann::json j;
  j["bench"] = "mutation";
  j["seed_graphs"] = pool.size();
  j["steps"] = f.steps;
  j["mutated"] = mutate(std::move(pool), f.steps, f.seed);
  j["generated"] = generate(f.steps, f.seed);
  std::cout << j.dump(1) << "\n";
}
