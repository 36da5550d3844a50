// Semantic coverage of the in-process MLIR pipeline: which passes changed
// the IR and which rewrite patterns fired. Debian's MLIR is not built with
// coverage instrumentation, so this is what a coverage-guided fuzzer (and a
// campaign's pass/pattern coverage) can see of the compiler under test.
//
// Passes: pass instrumentation fingerprints the operation a pass runs on
// before and after it. Patterns: every pattern application, greedy or
// dialect conversion, goes through MLIRContext's action framework as an
// ApplyPatternAction; a handler hashes the IR around the matched op before
// and after the attempt, so only attempts that rewrote something count (a
// failed conversion pattern rolls its changes back before returning).
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
class PassManager;
namespace tracing {
class Action;
} // namespace tracing
} // namespace mlir

namespace cc::mlirbackend {

// Records into *out while alive: passes of `pm` that changed the IR
// ("pass", argument), patterns that fired in `ctx` ("pattern", debug name),
// and on destruction the lowering path ("path", a hash of the sequence of
// passes that changed the IR). Install before pm.run; threading must be
// disabled on ctx (it is for our contexts).
class CoverageRecorder {
public:
  CoverageRecorder(mlir::MLIRContext &ctx, mlir::PassManager &pm,
                   PassCoverage *out);
  ~CoverageRecorder();
  CoverageRecorder(const CoverageRecorder &) = delete;
  CoverageRecorder &operator=(const CoverageRecorder &) = delete;

  struct State;

private:
  mlir::MLIRContext &ctx;
  std::shared_ptr<State> state;
};

// The debug name of the pattern an ApplyPatternAction applies, read from its
// printed form (the action keeps the pattern private); "(unnamed pattern)"
// when it has none.
std::string patternName(const mlir::tracing::Action &action);

} // namespace cc::mlirbackend
