// The mutator's adaptive schedule: shares follow which strategies find new
// coverage, no strategy starves, and the byte mutators report the strategy
// that made their result.
#include "harness/fuzz/Schedule.h"
#include "harness/fuzz/FuzzCase.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cc::fuzz {
namespace {

double sum(const Schedule::Shares &s) {
  double t = 0;
  for (double x : s)
    t += x;
  return t;
}

double share(const Schedule &s, Strategy k, bool crossOver = false) {
  return s.shares(crossOver)[size_t(k)];
}

TEST(ScheduleTest, WithoutFeedbackTheSharesAreTheFixedTuning) {
  Schedule s;
  for (bool crossOver : {false, true}) {
    Schedule::Shares base = Schedule::baseShares(crossOver);
    EXPECT_NEAR(sum(s.shares(crossOver)), 1.0, 1e-12);
    for (size_t i = 0; i < kStrategies; ++i)
      EXPECT_NEAR(s.shares(crossOver)[i], base[i], 1e-12);
  }
  EXPECT_EQ(share(s, Strategy::CrossOver), 0.0);
  EXPECT_GT(share(s, Strategy::CrossOver, true), 0.5);
  // Picks follow the shares.
  Rng rng(1);
  std::vector<int> picked(kStrategies, 0);
  for (int i = 0; i < 10000; ++i)
    ++picked[size_t(s.pick(rng, false))];
  EXPECT_EQ(picked[size_t(Strategy::CrossOver)], 0);
  EXPECT_NEAR(picked[size_t(Strategy::Edit)] / 10000.0,
              share(s, Strategy::Edit), 0.02);
}

TEST(ScheduleTest, SharesMoveToTheStrategyThatFindsCoverage) {
  Schedule s;
  double freshBefore = share(s, Strategy::Fresh);
  double editBefore = share(s, Strategy::Edit);
  for (int i = 0; i < 300; ++i) {
    s.chose(Strategy::Fresh);
    s.credit(i % 4 == 0); // a quarter of fresh graphs bring new coverage
    s.chose(Strategy::Edit);
    s.credit(false);
  }
  EXPECT_GT(share(s, Strategy::Fresh), 2 * freshBefore);
  EXPECT_LT(share(s, Strategy::Edit), editBefore / 2);
  EXPECT_NEAR(sum(s.shares(false)), 1.0, 1e-12);
  // No strategy starves: a floor of the fixed tuning stays.
  for (size_t i = 0; i + 1 < kStrategies; ++i)
    EXPECT_GT(s.shares(false)[i], 0.1 * Schedule::baseShares(false)[i]);
  // When edits find coverage again, the shares come back.
  for (int i = 0; i < 3000; ++i) {
    s.chose(Strategy::Fresh);
    s.credit(false);
    s.chose(Strategy::Edit);
    s.credit(i % 4 == 0);
  }
  EXPECT_GT(share(s, Strategy::Edit), editBefore);
}

TEST(ScheduleTest, InputsNotFromTheMutatorAreNotCredited) {
  Schedule s;
  Schedule::Shares before = s.shares(false);
  for (int i = 0; i < 100; ++i)
    s.credit(true); // corpus inputs: nothing chose them
  EXPECT_EQ(s.shares(false), before);
}

TEST(ScheduleTest, ByteMutatorsReportTheStrategyThatRan) {
  std::string bytes =
      encodeCase(decodeCase(reinterpret_cast<const uint8_t *>("schedule"), 8));
  // Credit whatever the mutator says it did, many times: only the
  // strategies it ran gain, and a cross-over call may cross over.
  Schedule s;
  std::vector<uint8_t> buf(bytes.size() + 65536);
  for (uint64_t seed = 0; seed < 60; ++seed) {
    std::copy(bytes.begin(), bytes.end(), buf.begin());
    size_t n = mutateBytes(buf.data(), bytes.size(), buf.size(), seed, &s);
    ASSERT_TRUE(acceptableGraph(decodeCase(buf.data(), n).graph));
    s.credit(true);
    size_t m = crossOverBytes(reinterpret_cast<const uint8_t *>(bytes.data()),
                              bytes.size(), buf.data(), n, buf.data() + n,
                              buf.size() - n, seed, &s);
    ASSERT_GT(m, 0u);
    ASSERT_TRUE(acceptableGraph(decodeCase(buf.data() + n, m).graph));
    s.credit(false);
  }
  // Every mutation was credited with new coverage, every cross-over call
  // without: mutations gained against cross-overs.
  EXPECT_LT(share(s, Strategy::CrossOver, true),
            Schedule::baseShares(true)[size_t(Strategy::CrossOver)]);
}

TEST(ScheduleTest, ChosenStrategiesDoWhatTheySay) {
  FuzzCase c = decodeCase(reinterpret_cast<const uint8_t *>("strategies"), 10);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Strategy used;
    FuzzCase m = mutateCase(c, seed, Strategy::InputSeed, &used);
    EXPECT_EQ(used, Strategy::InputSeed);
    EXPECT_TRUE(m.graph == c.graph);
    EXPECT_NE(m.inputSeed, c.inputSeed);
    m = mutateCase(c, seed, Strategy::Fresh, &used);
    ASSERT_TRUE(acceptableGraph(m.graph));
    EXPECT_FALSE(m.graph == c.graph);
    m = mutateCase(c, seed, Strategy::Edit, &used);
    ASSERT_TRUE(acceptableGraph(m.graph));
    EXPECT_TRUE(used == Strategy::Edit || used == Strategy::InputSeed);
    EXPECT_EQ(used == Strategy::Edit, !(m.graph == c.graph));
  }
}

} // namespace
} // namespace cc::fuzz
