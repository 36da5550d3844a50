// The one translation unit of cc_reports that includes MLIR headers.
#include "reports/Trace.h"

#include "backends/mlir/Internal.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace cc {

namespace {

std::string printTop(mlir::Operation *op) {
  while (mlir::Operation *parent = op->getParentOp())
    op = parent;
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

class Recorder : public mlir::PassInstrumentation {
public:
  explicit Recorder(std::vector<PassStep> &steps) : steps(steps) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    // Adaptors (func.func(...)) have no argument; their passes report.
    if (!pass->getArgument().empty())
      before = printTop(op);
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    if (!pass->getArgument().empty())
      steps.push_back({pass->getArgument().str(), before, printTop(op)});
  }

private:
  std::vector<PassStep> &steps;
  std::string before;
};

} // namespace

Expected<std::vector<PassStep>> tracePipeline(const std::string &module,
                                              const std::string &pipeline) {
  mlirbackend::initializeMlir();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diags += (diags.empty() ? "" : "; ") + d.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> m =
      mlir::parseSourceString<mlir::ModuleOp>(module, &ctx);
  if (!m)
    return makeError("the module does not parse: " + diags);
  std::string text = pipeline.starts_with("builtin.module(")
                         ? pipeline
                         : "builtin.module(" + pipeline + ")";
  std::string err;
  llvm::raw_string_ostream os(err);
  mlir::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline(text, os);
  if (mlir::failed(parsed))
    return makeError("invalid pass pipeline '" + pipeline + "': " + err);
  mlir::PassManager pm(&ctx);
  static_cast<mlir::OpPassManager &>(pm) = *parsed;
  std::vector<PassStep> steps;
  pm.addInstrumentation(std::make_unique<Recorder>(steps));
  if (mlir::failed(pm.run(*m)))
    return makeError("the pipeline failed" +
                     (steps.empty() ? "" : " after pass " + steps.back().pass) +
                     ": " + diags);
  return steps;
}

} // namespace cc
