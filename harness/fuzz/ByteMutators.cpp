// libFuzzer's custom mutator and cross-over on bytes (see FuzzCase.h): the
// case decoded, mutated or crossed over, and encoded within libFuzzer's
// size limit.
#include "harness/fuzz/FuzzCase.h"

#include <cstring>

namespace cc::fuzz {

size_t mutateBytes(uint8_t *data, size_t size, size_t maxSize, uint64_t seed,
                   Schedule *schedule, const MutationOptions &options) {
  FuzzCase c = decodeCase(data, size);
  Rng rng(seed);
  Strategy s = (schedule ? *schedule : Schedule()).pick(rng, false);
  for (int attempt = 0; attempt < 4; ++attempt) {
    Strategy used = s;
    std::string bytes =
        encodeCase(mutateCase(c, seed + uint64_t(attempt), s, &used, options));
    if (bytes.size() <= maxSize) {
      if (schedule)
        schedule->chose(used);
      std::memcpy(data, bytes.data(), bytes.size());
      return bytes.size();
    }
  }
  // Too large for libFuzzer's limit: a graph generated from the bytes.
  if (schedule)
    schedule->chose(Strategy::Fresh);
  std::string bytes = encodeCase(decodeCase(nullptr, 0));
  bytes = bytes.size() <= maxSize ? bytes : std::string();
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

size_t crossOverBytes(const uint8_t *a, size_t sizeA, const uint8_t *b,
                      size_t sizeB, uint8_t *out, size_t maxOut, uint64_t seed,
                      Schedule *schedule, const MutationOptions &options) {
  FuzzCase ca = decodeCase(a, sizeA), cb = decodeCase(b, sizeB);
  Rng rng(seed);
  Strategy s = schedule ? schedule->pick(rng, true) : Strategy::CrossOver;
  FuzzCase x = ca;
  if (s == Strategy::CrossOver)
    x = crossOver(ca, cb, seed);
  // No room for a splice (a is at the growth limit), or the schedule
  // prefers a mutation: libFuzzer would run a again, so mutate it.
  if (s != Strategy::CrossOver || x.graph == ca.graph)
    x = mutateCase(ca, seed, s == Strategy::CrossOver ? Strategy::Edit : s, &s,
                   options);
  if (schedule)
    schedule->chose(s);
  std::string bytes = encodeCase(x);
  if (bytes.size() > maxOut)
    bytes = encodeCase(sizeA <= sizeB ? ca : cb);
  if (bytes.size() > maxOut)
    return 0;
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}

} // namespace cc::fuzz
