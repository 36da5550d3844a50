// Deterministic random numbers: the same seed gives the same sequence on
// every platform (no std::uniform_*_distribution, whose output is
// implementation-defined).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cc {

class Rng {
public:
  explicit Rng(uint64_t seed);
  uint64_t next(); // xoshiro256**
  // Uniform integer in [lo, hi] (inclusive), without modulo bias.
  int64_t uniformInt(int64_t lo, int64_t hi);
  // Uniform double in [0, 1) with 53 random bits.
  double uniform01();
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  bool chance(double p) { return uniform01() < p; }
  // Index drawn with probability proportional to weights (all >= 0, sum > 0).
  size_t weighted(const std::vector<double> &weights);
  template <typename T> const T &pick(const std::vector<T> &v) {
    return v[size_t(uniformInt(0, int64_t(v.size()) - 1))];
  }
  // An independent stream for sub-task `stream` (e.g. test index), so that
  // case i is reproducible from (seed, i) alone.
  static Rng forStream(uint64_t seed, uint64_t stream);

private:
  uint64_t s[4];
};

} // namespace cc
