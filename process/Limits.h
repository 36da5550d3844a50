// The limits every child crosscheck starts runs under: a compiler under
// test, an isolated worker, a solver, a replayed bundle. The one home of
// their defaults, so that a finding re-run anywhere runs as it was found.
#pragma once

#include <cstdint>

namespace cc {

// The words a message uses for a run past RunLimits::memoryBytes
// (CompilerFault::outOfMemory says so to the oracles).
inline constexpr const char *kOutOfMemory = "ran out of memory";

struct RunLimits {
  double timeoutSeconds = 30; // wall clock of one run
  // Address space of the child (RLIMIT_AS), in bytes; 0: no limit. Running
  // past it is the compiler's finding ("ran out of memory"), not a crash of
  // crosscheck.
  uint64_t memoryBytes = uint64_t(4) << 30;

  // A bound on time alone: for children that must map more than any
  // sensible limit (a CUDA driver maps the device's whole memory).
  static RunLimits timeOnly(double seconds) { return {seconds, 0}; }
  bool operator==(const RunLimits &) const = default;
};

} // namespace cc
