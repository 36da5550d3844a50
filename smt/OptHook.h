// The per-pass validation hook of crosscheck-opt and verify-pass: a pass
// instrumentation that checks every pass (and, if asked, every canonicalize
// rewrite) that changed a function.
#pragma once

#include "smt/Validate.h"

#include <functional>

namespace mlir {
class PassManager;
}

namespace cc::smt {

// Adds the instrumentation to `pm`; each finished check goes to `onCheck`.
void addVerifyEachInstrumentation(
    mlir::PassManager &pm, const TvOptions &o, bool perRewrite,
    std::function<void(const StepCheck &)> onCheck);

} // namespace cc::smt
