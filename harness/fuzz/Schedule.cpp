#include "harness/fuzz/Schedule.h"

#include <cstdio>
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
} // namespace

const char *strategyName(Strategy s) {
  switch (s) {
  case Strategy::InputSeed:
    return "input-seed";
  case Strategy::Cut:
    return "cut";
  case Strategy::Fresh:
    return "fresh";
  case Strategy::Splice:
    return "splice";
  case Strategy::Edit:
    return "edit";
  case Strategy::CrossOver:
    return "cross-over";
  }
  return "?";
}

Schedule::Shares Schedule::baseShares(bool crossOver) {
  // The mutator's tuning before the schedule: input seed 10%, cut 4.5%, a
  // fresh graph 21%, a splice 13%, edits the rest.
  Shares s = {0.10,  0.045, 0.214,
              0.128, 0.513, crossOver ? kCrossOverWeight : 0.0};
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
