// MLIR plumbing shared by the translation units that run MLIR pipelines in
// process (the CPU JIT here, the GPU backend in backends/cuda): contexts,
// diagnostics, pipeline parsing and running. Includes MLIR headers: only for
// those translation units.
#pragma once

#include "backends/mlir/Internal.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include <memory>
#include <string>
#include <vector>

namespace cc::mlirbackend {

// A context with every upstream dialect and extension and the LLVM IR
// translations of the builtin and LLVM dialects; `extend` may register more
// (the GPU backend adds the GPU and NVVM translations). Threading disabled.
std::unique_ptr<mlir::MLIRContext>
makeContext(void (*extend)(mlir::DialectRegistry &) = nullptr);

// Collects MLIR diagnostics into a string instead of printing them.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &d) {
          append(d);
          return mlir::success();
        }) {}
  std::string take() {
    std::string s = std::move(text);
    text.clear();
    // Keep messages bounded: a failing pass can dump whole functions.
    if (s.size() > 4000)
      s = s.substr(0, 4000) + "...";
    while (!s.empty() && s.back() == '\n')
      s.pop_back();
    return s;
  }

private:
  void append(mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(text);
    const char *sev =
        d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
        : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
        : d.getSeverity() == mlir::DiagnosticSeverity::Note    ? "note"
                                                               : "remark";
    os << d.getLocation() << ": " << sev << ": " << d.str() << "\n";
    for (mlir::Diagnostic &note : d.getNotes())
      os << "  note: " << note.str() << "\n";
  }

  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};

// Parses a textual pipeline (it may omit the outer builtin.module(...)) into
// pm; an invalid one is an error that points at the column.
Error parsePipelineInto(const std::string &pipeline, mlir::PassManager &pm);

// Runs req.pipeline on module, telling req.onStage each pass and recording
// coverage (Coverage.h) when non-null. A failing pass is
// ErrorCode::CompilerFailure naming it with the diagnostics: a
// CompilerFault of kind VerifierFailed when it left IR that fails the
// verifier, else PassFailed.
Error runPipeline(mlir::ModuleOp module, const LowerRequest &req,
                  DiagnosticCapture &diags, PassCoverage *coverage);

// Parses (without verifying) MLIR text into a module; `what` names it in
// the error ("emitted module").
Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &ctx, DiagnosticCapture &diags,
            const std::string &text, const std::string &what);

// Tensor-typed arguments and results of the function `op` must match the
// inputs passed and the result types read back.
Error checkTypes(mlir::Operation *op, const Inputs &inputs,
                 const std::vector<TensorType> &resultTypes);

// An error with ErrorCode::CompilerFailure: a CompilerFault of kind Failed.
Error compilerFailure(const std::string &msg);

} // namespace cc::mlirbackend
