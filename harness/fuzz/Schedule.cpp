#include "harness/fuzz/Schedule.h"

#include <cstdio>
#include <iterator>
#include <vector>

namespace cc::fuzz {
namespace {
// Tuning (measured with bench/libfuzzer_coverage.sh).
// A strategy's rate starts at kPriorHits / kPriorUses, so that a few
// executions do not swing the shares.
constexpr double kPriorHits = 1, kPriorUses = 20;
// Per use of a strategy, its older counts fade: about the last 500 uses
// count. New coverage gets rare as a run goes on, so the window is long.
constexpr double kDecay = 0.998;
// This much of each share stays the fixed tuning, so that no strategy
// starves (input seeds rarely fire a new pattern, but find numeric bugs).
constexpr double kFloor = 0.2;
// In a cross-over call, a cross-over is this many times as likely as all
// the mutations together before feedback.
constexpr double kCrossOverWeight = 4;

struct StrategyInfo {
  Strategy strategy;
  const char *name;
  double share; // the mutator's tuning before the schedule
};
// One row per strategy, in the enum's order (checked below).
constexpr StrategyInfo kStrategyTable[] = {
    {Strategy::InputSeed, "input-seed", 0.10},
    {Strategy::Cut, "cut", 0.045},
    {Strategy::Fresh, "fresh", 0.214},
    {Strategy::Splice, "splice", 0.128},
    {Strategy::Edit, "edit", 0.513},
    // Only in a cross-over call.
    {Strategy::CrossOver, "cross-over", kCrossOverWeight},
};

constexpr bool rowsFollowTheEnum() {
  for (size_t i = 0; i < std::size(kStrategyTable); ++i)
    if (size_t(kStrategyTable[i].strategy) != i)
      return false;
  return std::size(kStrategyTable) == kStrategies;
}
static_assert(rowsFollowTheEnum(), "one row per Strategy, in its order");
} // namespace

const char *strategyName(Strategy s) {
  return size_t(s) < std::size(kStrategyTable) ? kStrategyTable[size_t(s)].name
                                               : "?";
}

Schedule::Shares Schedule::baseShares(bool crossOver) {
  Shares s{};
  for (const StrategyInfo &row : kStrategyTable)
    s[size_t(row.strategy)] =
        row.strategy != Strategy::CrossOver || crossOver ? row.share : 0.0;
  double sum = 0;
  for (double x : s)
    sum += x;
  for (double &x : s)
    x /= sum;
  return s;
}

Schedule::Shares Schedule::shares(bool crossOver) const {
  Shares base = baseShares(crossOver), learned{};
  double sum = 0;
  for (size_t i = 0; i < kStrategies; ++i) {
    double rate = (hits[i] + kPriorHits) / (uses[i] + kPriorUses);
    learned[i] = base[i] * rate;
    sum += learned[i];
  }
  Shares out{};
  for (size_t i = 0; i < kStrategies; ++i)
    out[i] = kFloor * base[i] + (1 - kFloor) * learned[i] / sum;
  return out;
}

Strategy Schedule::pick(Rng &rng, bool crossOver) const {
  Shares s = shares(crossOver);
  return Strategy(rng.weighted(std::vector<double>(s.begin(), s.end())));
}

void Schedule::credit(bool newCoverage) {
  if (!pending)
    return; // an input libFuzzer did not get from the mutator (the corpus)
  size_t i = size_t(*pending);
  uses[i] = uses[i] * kDecay + 1;
  hits[i] = hits[i] * kDecay + (newCoverage ? 1 : 0);
  pending.reset();
}

std::string Schedule::describe(bool crossOver) const {
  Shares s = shares(crossOver);
  std::string out;
  for (size_t i = 0; i < kStrategies; ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.2f", i ? " " : "",
                  strategyName(Strategy(i)), s[i]);
    out += buf;
  }
  return out;
}

} // namespace cc::fuzz
