// The store's read-only views that crosscheck report draws: cases over time,
// op x dtype coverage, when each finding was first and last seen.
#include "harness/Store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

using namespace cc;
namespace fs = std::filesystem;

namespace {

CaseOutcome outcome(uint64_t index, bool skipped, const std::string &detail) {
  CaseOutcome o;
  o.index = index;
  o.graphName = "g" + std::to_string(index);
  o.skipped = skipped;
  o.coverage[{"add", "f32"}] = 2;
  o.coverage[{"sub", "i8"}] = int64_t(index);
  if (!detail.empty()) {
    FindingRecord f;
    f.finding.signature = {Kind::Miscompile, "mlir:tosa-O0", "", detail};
    f.finding.message = "wrong";
    f.testCase.graph.name = o.graphName;
    o.findings.push_back(f);
  }
  return o;
}

std::string freshDir(const std::string &name) {
  std::string dir = (fs::temp_directory_path() /
                     ("cc-report-" + name + "-" + std::to_string(getpid())))
                        .string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(StoreQueries, TimelineCoverageAndFindingTimes) {
  std::string dir = freshDir("store");
  auto store = Store::create(dir, {{"seed", 1}});
  ASSERT_TRUE(bool(store)) << store.error().message();
  ASSERT_FALSE((*store)->record(outcome(0, false, "add:f32:value"), 0));
  ASSERT_FALSE((*store)->record(outcome(1, true, ""), 0));
  ASSERT_FALSE((*store)->record(outcome(2, false, "add:f32:value"), 0));

  auto times = (*store)->caseTimeline();
  ASSERT_TRUE(bool(times)) << times.error().message();
  ASSERT_EQ(times->size(), 3u);
  EXPECT_FALSE((*times)[0].skipped);
  EXPECT_TRUE((*times)[1].skipped);
  EXPECT_LE((*times)[0].at, (*times)[2].at);
  EXPECT_GT((*times)[0].at, 1.6e9); // unix seconds

  auto cov = (*store)->opCoverage();
  ASSERT_TRUE(bool(cov));
  ASSERT_EQ(cov->size(), 2u);
  EXPECT_EQ((*cov)[0].op, "add");
  EXPECT_EQ((*cov)[0].count, 6); // two per case, three cases
  EXPECT_EQ((*cov)[1].op, "sub");
  EXPECT_EQ((*cov)[1].dtype, "i8");
  EXPECT_EQ((*cov)[1].count, 3); // 0 + 1 + 2

  auto seen = (*store)->findingTimes();
  ASSERT_TRUE(bool(seen));
  ASSERT_EQ(seen->size(), 1u);
  const auto &[sig, t] = *seen->begin();
  EXPECT_EQ(sig, "miscompile|mlir:tosa-O0||add:f32:value");
  EXPECT_EQ(t.firstSeen, (*times)[0].at);
  EXPECT_EQ(t.lastSeen, (*times)[2].at);
  fs::remove_all(dir);
}

// Coverage is dated by the case that first showed it; a case may carry its
// own date (the libFuzzer engine dates corpus inputs by when they joined).
TEST(StoreQueries, PassCoverageIsDatedByItsFirstCase) {
  std::string dir = freshDir("passcov");
  auto store = Store::create(dir, {{"seed", 1}});
  ASSERT_TRUE(bool(store)) << store.error().message();
  CaseOutcome a = outcome(4, false, ""), b = outcome(7, false, "");
  a.recordedAt = 1.8e9;
  a.passCoverage[{"pass", "canonicalize"}] = 1;
  b.recordedAt = 1.8e9 + 30;
  b.passCoverage[{"pass", "canonicalize"}] = 1;
  b.passCoverage[{"pattern", "FoldAddZero"}] = 2;
  // Recorded out of order: the lowest case index still dates a pass.
  ASSERT_FALSE((*store)->record(b, 0));
  ASSERT_FALSE((*store)->record(a, 0));
  auto rows = (*store)->passCoverage();
  ASSERT_TRUE(bool(rows)) << rows.error().message();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].name, "canonicalize");
  EXPECT_EQ((*rows)[0].count, 2);
  EXPECT_EQ((*rows)[0].firstCase, 4u);
  EXPECT_EQ((*rows)[0].firstSeen, 1.8e9);
  EXPECT_EQ((*rows)[1].name, "FoldAddZero");
  EXPECT_EQ((*rows)[1].firstSeen, 1.8e9 + 30);
  auto times = (*store)->caseTimeline();
  ASSERT_TRUE(bool(times));
  EXPECT_EQ((*times)[0].at, 1.8e9);
  fs::remove_all(dir);
}

} // namespace
