// Solver limits for the tests: Z3's resource limit decides when a query
// gives up, the same on a loaded machine as on a quiet one; the wall-clock
// timeout is only a safety net far above what any check here needs.
#pragma once

#include "smt/Validate.h"

namespace cc::smt {

inline TvOptions deterministicOptions() {
  TvOptions o;
  o.rlimit = 100'000'000;
  o.timeoutMs = 600'000;
  return o;
}

} // namespace cc::smt
