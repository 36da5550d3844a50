// The differential check of one test case: the compiler under test against
// the reference interpreter (in f64, and in target precision to calibrate
// the tolerance), judged by the numeric oracle. Compiler crashes, hangs and
// verifier failures reported by the backend become findings too.
#pragma once

#include "backends/Backend.h"
#include "oracles/Numeric.h"
#include "oracles/Verdict.h"

#include <optional>

namespace cc {

struct DifferentialOptions {
  RunLimits limits; // of the compiler under test
  NumericOptions numeric;
};

struct CaseResult {
  Verdict verdict = Verdict::pass();
  // Present when the compiler produced outputs that were judged.
  std::optional<NumericReport> report;
  // Stage times of the compiler under test plus "reference" (both
  // precisions) and "oracle", in seconds.
  StageTimes times;
};

// An error means the case itself could not be checked: the reference found
// undefined behaviour (ErrorCode::Undefined), the backend does not support
// the graph (ErrorCode::Unsupported), or the inputs do not fit the graph.
Expected<CaseResult> runDifferential(const Graph &g, const Inputs &inputs,
                                     Backend &cut,
                                     const DifferentialOptions &options = {});

} // namespace cc
