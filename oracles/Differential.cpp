#include "oracles/Differential.h"

#include "backends/ref/Interpreter.h"

#include <chrono>

namespace cc {

using Clock = std::chrono::steady_clock;

Expected<CaseResult> runDifferential(const Graph &g, const Inputs &inputs,
                                     Backend &cut,
                                     const DifferentialOptions &options) {
  CaseResult result;
  Support support = cut.supports(g);
  if (!support.ok)
    return Error::failure(cut.name() + " does not support graph '" + g.name +
                              "': " + support.reason,
                          ErrorCode::Unsupported);

  // The reference first: undefined behaviour makes the case meaningless
  // whatever the compiler does.
  auto start = Clock::now();
  Outputs magnitudes;
  Latitude latitude;
  latitude.permittedError = permittedErrors(g, options.numeric);
  auto ref = interpret(g, inputs, Precision::F64, &magnitudes, &latitude);
  if (!ref)
    return ref.error().withContext("reference");
  auto refTarget = interpret(g, inputs, Precision::Target);
  if (!refTarget)
    return refTarget.error().withContext("reference (target precision)");
  addStageTime(&result.times, "reference", start);

  RunOptions run;
  run.limits = options.limits;
  run.times = &result.times;
  auto actual = cut.run(g, inputs, run);
  if (!actual) {
    const Error &e = actual.error();
    if (e.code() == ErrorCode::CompilerFailure ||
        e.code() == ErrorCode::Timeout) {
      result.verdict = Verdict::fail(compilerFailureFinding(cut.name(), e));
      return result;
    }
    // Name the backend once, whether or not its message already does.
    return e.message().starts_with(cut.name()) ? e : e.withContext(cut.name());
  }

  start = Clock::now();
  result.report = judgeNumeric(g, *actual, *ref, *refTarget, options.numeric,
                               &magnitudes, &latitude);
  addStageTime(&result.times, "oracle", start);
  if (!result.report->ok)
    result.verdict =
        Verdict::fail(miscompileFinding(g, *result.report, cut.name()));
  return result;
}

} // namespace cc
