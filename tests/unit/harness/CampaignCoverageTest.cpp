// The generator campaign records the compilers' pass and pattern coverage
// in its store (harness/CaseWorker.cpp fills CaseOutcome::passCoverage from
// the isolated MLIR runs).
#include "harness/Campaign.h"
#include "harness/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <unistd.h>

namespace cc {
namespace {

TEST(CampaignCoverageTest, StoreHoldsPassAndPatternCoverage) {
  std::string dir =
      testing::TempDir() + "/cc-fuzz-campaign-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  CampaignOptions o;
  o.cuts = {"mlir:tosa-O3"};
  o.maxCases = 3;
  o.timeBudgetSeconds = 600;
  o.seed = 5;
  o.outDir = dir;
  auto s = runCampaign(o);
  ASSERT_TRUE(bool(s)) << s.error().message();
  ASSERT_EQ(s->cases, 3u);
  auto store = Store::open(Store::dbPath(dir));
  ASSERT_TRUE(bool(store)) << store.error().message();
  auto cov = (*store)->passCoverage();
  ASSERT_TRUE(bool(cov)) << cov.error().message();
  std::set<std::string> kinds;
  bool lowered = false;
  for (const Store::PassCoverage &c : *cov) {
    kinds.insert(c.kind);
    EXPECT_GT(c.count, 0);
    EXPECT_LT(c.firstCase, 3u);
    lowered |= c.kind == "pass" && c.name == "tosa-to-linalg";
  }
  EXPECT_TRUE(kinds.count("pass"));
  EXPECT_TRUE(kinds.count("pattern"));
  EXPECT_TRUE(lowered);
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace cc
