// Internal interface of cc_smt between the encoder (Encode.cpp: MLIR + Z3)
// and the drivers (Driver.cpp: parsing, pass instrumentation). Includes MLIR
// headers: only cc_smt's own translation units may include it.
#pragma once

#include "smt/Validate.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace cc::smt {

// Checks that `tgt` refines `src` (same signature). Never fails: problems
// become `unknown` with a reason. Both functions stay unchanged.
FunctionCheck checkFunctionPair(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
                                const TvOptions &options);

// "" when the signatures agree, else what differs.
std::string signatureMismatch(mlir::func::FuncOp src, mlir::func::FuncOp tgt);

} // namespace cc::smt
