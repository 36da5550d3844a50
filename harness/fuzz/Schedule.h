// How the custom mutator makes a mutant, and an adaptive choice between
// those ways: a multi-armed bandit over the mutator's strategies, as MOpt
// schedules AFL's mutation operators. Each strategy keeps a recent rate of
// mutants whose execution brought semantic coverage that no execution had
// before (a pass, pattern or lowering path); the shares follow those rates
// from the mutator's fixed tuning (baseShares). Early on, edits of the
// seeds find new patterns quickly; later, fresh graphs and splices reach
// what the corpus's neighbourhood no longer does, and the shares move there.
// Deterministic: the choice depends only on the Rng and on the credits.
#pragma once

#include "core/Rng.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace cc::fuzz {

enum class Strategy : uint8_t {
  InputSeed, // new input tensors, same graph
  Cut,       // another compiler under test
  Fresh,     // a graph drawn as the generator campaign draws one
  Splice,    // a window of a freshly generated graph spliced in
  Edit,      // a few structural edits (insert, remove, replace, retype, ...)
  CrossOver, // a window of another corpus input spliced in
};
inline constexpr size_t kStrategies = 6;
const char *strategyName(Strategy s);

class Schedule {
public:
  using Shares = std::array<double, kStrategies>;
  // The shares without feedback: the mutator's fixed tuning. CrossOver
  // applies only when libFuzzer asks for a cross-over.
  static Shares baseShares(bool crossOver);

  // Current shares (sum 1; CrossOver 0 unless crossOver).
  Shares shares(bool crossOver) const;
  Strategy pick(Rng &rng, bool crossOver) const;

  // The strategy that made the mutant libFuzzer runs next; credit() then
  // says whether its execution found new coverage. (libFuzzer runs every
  // mutant right after making it, in the same process.)
  void chose(Strategy s) { pending = s; }
  void credit(bool newCoverage);

  // "fresh 0.31 edit 0.40 ..." for the fuzzer's log.
  std::string describe(bool crossOver) const;

private:
  // Decayed counts per strategy: recent executions weigh more.
  Shares uses{}, hits{};
  std::optional<Strategy> pending;
};

} // namespace cc::fuzz
