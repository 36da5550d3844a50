// Internal interface of cc_smt between the refinement check (Refine.cpp:
// MLIR + Z3), the drivers (Driver.cpp: parsing, pass instrumentation) and
// the replay of counterexamples (Replay.cpp). Includes
// MLIR headers: only cc_smt's own translation units may include it.
#pragma once

#include "smt/Validate.h"

#include "backends/mlir/Internal.h"
#include "backends/mlir/MlirBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>

namespace cc::smt {
namespace detail {
using mlirbackend::str; // MLIR's text of a type
} // namespace detail

// Checks that `tgt` refines `src` (same signature). Never fails: problems
// become `unknown` with a reason. Both functions stay unchanged.
FunctionCheck checkFunctionPair(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
                                const TvOptions &options);

// A context with every dialect and pass registered, single-threaded.
std::unique_ptr<mlir::MLIRContext> makeContext();

// Parses MLIR text; diagnostics, located in `file`, become the error
// message ("<what> is not valid MLIR: ...").
Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &ctx, const std::string &text,
            const std::string &what, const std::string &file);

// A copy of `f` in its own module (with the functions it may call) whose
// named linalg ops are generalized: their generic form is their definition.
mlir::OwningOpRef<mlir::ModuleOp> generalizedCopy(mlir::func::FuncOp f);

// "" when the signatures agree, else what differs.
std::string signatureMismatch(mlir::func::FuncOp src, mlir::func::FuncOp tgt);

} // namespace cc::smt
