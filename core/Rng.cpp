#include "core/Rng.h"

namespace cc {

namespace {
uint64_t splitmix64(uint64_t &x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
} // namespace

Rng::Rng(uint64_t seed) {
  for (uint64_t &w : s)
    w = splitmix64(seed);
}

uint64_t Rng::next() {
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

int64_t Rng::uniformInt(int64_t lo, int64_t hi) {
  uint64_t range = uint64_t(hi) - uint64_t(lo) + 1;
  if (range == 0) // full 64-bit range
    return int64_t(next());
  uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do
    x = next();
  while (x >= limit);
  return int64_t(uint64_t(lo) + x % range);
}

double Rng::uniform01() { return double(next() >> 11) * 0x1.0p-53; }

size_t Rng::weighted(const std::vector<double> &weights) {
  double total = 0;
  for (double w : weights)
    total += w;
  double r = uniform01() * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (r < weights[i])
      return i;
    r -= weights[i];
  }
  return weights.size() - 1;
}

Rng Rng::forStream(uint64_t seed, uint64_t stream) {
  uint64_t mix = seed;
  uint64_t a = splitmix64(mix);
  uint64_t b = stream;
  return Rng(a ^ splitmix64(b));
}

} // namespace cc
