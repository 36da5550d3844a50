// The mutator's table (harness/fuzz/Mutations.h): every entry has a name of
// its own and changes some seed graph into an acceptable one, so that no
// mutation is dead weight in the draw.
#include "harness/fuzz/Mutations.h"

#include "core/Json.h"
#include "harness/fuzz/FuzzCase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

namespace cc::fuzz {
namespace {

std::vector<Graph> seedGraphs() {
  std::vector<std::string> paths;
  for (const auto &entry :
       std::filesystem::directory_iterator(CC_SOURCE_DIR "/corpus/seeds"))
    if (entry.path().extension() == ".json")
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<Graph> graphs;
  for (const std::string &p : paths)
    if (auto g = loadGraph(p); g && acceptableGraph(*g))
      graphs.push_back(*g);
  return graphs;
}

TEST(MutationsTest, EveryMutationHasANameAndApplies) {
  const std::vector<Graph> seeds = seedGraphs();
  ASSERT_GE(seeds.size(), 10u);
  std::set<std::string> names;
  for (const Mutation &m : mutations()) {
    EXPECT_TRUE(names.insert(m.name).second) << "twice: " << m.name;
    EXPECT_GT(m.weight, 0) << m.name;
    int changed = 0;
    for (size_t i = 0; i < seeds.size(); ++i) {
      Rng rng(i);
      if (auto g = applyMutation(m, seeds[i], rng)) {
        std::string why;
        EXPECT_TRUE(acceptableGraph(*g, &why)) << m.name << ": " << why;
        changed += !(*g == seeds[i]);
      }
    }
    EXPECT_GT(changed, 0) << m.name << " changed no seed graph";
  }
}

} // namespace
} // namespace cc::fuzz
