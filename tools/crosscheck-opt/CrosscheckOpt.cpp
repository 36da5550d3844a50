// crosscheck-opt: an mlir-opt (same flags, all upstream dialects and passes)
// whose --crosscheck-verify-each validates every pass with Z3 and fails on
// an `incorrect` verdict, so it can stand in for mlir-opt in a lit suite.
#include "backends/mlir/MlirBackend.h"
#include "smt/OptHook.h"
#ifdef CC_HAVE_MUTANTS
#include "tests/mutants/Mutants.h"
#endif

#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

static llvm::cl::opt<bool> verifyEach(
    "crosscheck-verify-each",
    llvm::cl::desc("validate every pass with Z3; exit 1 on an incorrect pass"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> perRewrite(
    "crosscheck-per-rewrite",
    llvm::cl::desc("with --crosscheck-verify-each, also validate every "
                   "canonicalize rewrite"),
    llvm::cl::init(false));
static llvm::cl::opt<unsigned>
    timeoutMs("crosscheck-timeout-ms",
              llvm::cl::desc("solver timeout per query"),
              llvm::cl::init(10000));
#ifdef CC_HAVE_MUTANTS
static llvm::cl::opt<bool> loadMutants(
    "crosscheck-load-mutants",
    llvm::cl::desc("register crosscheck's deliberately wrong test passes"),
    llvm::cl::init(false));
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  // Mutant passes are registered only when asked; the flag is read before
  // the command line is parsed, so they can appear in the pipeline.
#ifdef CC_HAVE_MUTANTS
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--crosscheck-load-mutants")
      cc::registerMutantPasses();
#endif
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "crosscheck-opt: mlir-opt with translation validation",
      registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  int incorrect = 0;
  if (verifyEach) {
    cc::smt::TvOptions opts;
    opts.timeoutMs = timeoutMs;
    mlir::MlirOptMainConfig base = config;
    config.setPassPipelineSetupFn(
        [base, opts, &incorrect](mlir::PassManager &pm) {
          if (mlir::failed(base.setupPassPipeline(pm)))
            return mlir::failure();
          cc::smt::addVerifyEachInstrumentation(
              pm, opts, perRewrite, [&incorrect](const cc::smt::StepCheck &s) {
                if (s.verdict != cc::smt::TvVerdict::Incorrect)
                  return;
                ++incorrect;
                llvm::errs()
                    << "crosscheck-opt: error: pass '" << s.pass << "'"
                    << (s.pattern.empty() ? "" : " pattern '" + s.pattern + "'")
                    << " is incorrect on @" << s.function << ": " << s.reason
                    << "\n"
                    << s.counterexample;
              });
          return mlir::success();
        });
  }
  std::string err;
  auto in = mlir::openInputFile(inputFile, &err);
  if (!in) {
    llvm::errs() << "crosscheck-opt: error: " << err << "\n";
    return 2;
  }
  if (cc::Error e =
          cc::checkMlirNesting(in->getBuffer().str(), "'" + inputFile + "'")) {
    llvm::errs() << "crosscheck-opt: error: " << e.message() << "\n";
    return 2;
  }
  auto out = mlir::openOutputFile(outputFile, &err);
  if (!out) {
    llvm::errs() << "crosscheck-opt: error: " << err << "\n";
    return 2;
  }
  if (mlir::failed(
          mlir::MlirOptMain(out->os(), std::move(in), registry, config)))
    return 1;
  out->keep();
  return incorrect ? 1 : 0;
}
