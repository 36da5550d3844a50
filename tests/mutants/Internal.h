// What the mutant passes' files share (internal to tests/mutants/).
#pragma once

#include "tests/mutants/Mutants.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace cc {

// One deliberately wrong pass: its name, what it breaks, and the rewrite.
struct Mutant {
  const char *name;
  const char *description;
  void (*apply)(mlir::Operation *);
};

// ProgramMutants.cpp: registers the mutants of mid-level programs.
void registerProgramMutantPasses();

// Rewrite.cpp: TOSA ops matched and rebuilt by name (no TOSA headers).
namespace mutants {
mlir::Operation *definedBy(mlir::Value v, llvm::StringRef opName);
// The elements of a tosa.const / tosa.const_shape operand, or null.
mlir::DenseElementsAttr constantOf(mlir::Value v,
                                   llvm::StringRef opName = "tosa.const");
mlir::Value build(mlir::OpBuilder &b, mlir::Location loc,
                  llvm::StringRef opName, mlir::ValueRange operands,
                  mlir::Type type, mlir::DenseElementsAttr values = {});
mlir::Value build(mlir::OpBuilder &b, mlir::Location loc,
                  llvm::StringRef opName, mlir::ValueRange operands,
                  mlir::Type type, llvm::ArrayRef<mlir::NamedAttribute> attrs);
mlir::Value constant(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::DenseElementsAttr values);
// A splat of zero in `type` (float or integer elements).
mlir::DenseElementsAttr zeros(mlir::ShapedType type);
llvm::SmallVector<mlir::Operation *> opsNamed(mlir::Operation *root,
                                              llvm::StringRef opName);
mlir::RankedTensorType floatTensor(mlir::Value v);
void replace(mlir::Operation *op, mlir::Value with);
} // namespace mutants

} // namespace cc
