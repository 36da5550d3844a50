// The lowering that replays a counterexample through the JIT. It is tosa-O0
// with its TOSA-to-linalg passes replaced by one that never folds TOSA ops:
// upstream's tosa-optional-decompositions (a greedy driver) and
// tosa-to-linalg(-named) (dialect conversions, which fold illegal ops before
// their patterns) would apply the very folders under validation to the
// source too, so a wrong fold would make both sides agree.
#include "smt/Internal.h"

#include "backends/mlir/MlirBackend.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

using namespace mlir;

namespace cc::smt {

namespace {
const char *const kNoFoldPass = "cc-tosa-to-linalg-nofold";
// What the pass replaces in tosa-O0, in that order.
const char *const kFoldingPasses =
    "tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,";

// Converts the ops that `patterns` are rooted at, without folding; every
// other op is legal. Upstream's passes list those ops by hand (tosa-to-linalg
// marks all of TOSA illegal but for the ops later passes lower); the root
// kinds stay in step with the MLIR version linked. A TOSA op that no pattern
// handles is left for the later passes to reject.
LogicalResult convertWithoutFolding(Operation *op, RewritePatternSet patterns) {
  ConversionTarget target(*op->getContext());
  for (const auto &pattern : patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      target.addIllegalOp(*root);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyFullConversion(op, target, std::move(patterns), config);
}

// tosa-optional-decompositions, tosa-to-linalg-named and tosa-to-linalg
// (default options, as in tosa-O0) with folding off.
class TosaToLinalgNoFoldPass
    : public PassWrapper<TosaToLinalgNoFoldPass,
                         OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TosaToLinalgNoFoldPass)
  StringRef getArgument() const override { return kNoFoldPass; }
  StringRef getDescription() const override {
    return "TOSA decompositions and TOSA to linalg without folding TOSA ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, index::IndexDialect,
                    linalg::LinalgDialect, math::MathDialect, scf::SCFDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    func::FuncOp func = getOperation();

    RewritePatternSet decompositions(ctx);
    tosa::populateTosaDecomposeTransposeConv(ctx, decompositions);
    tosa::populateTosaDecomposeDepthwise(ctx, decompositions);
    GreedyRewriteConfig greedy;
    greedy.enableFolding(false);
    if (failed(applyPatternsGreedily(func, std::move(decompositions), greedy)))
      return signalPassFailure();

    TypeConverter converter;
    tosa::populateTosaTypeConversion(converter);
    RewritePatternSet named(ctx);
    tosa::populateTosaToLinalgNamedConversionPatterns(
        converter, &named, TosaToLinalgNamedOptions());
    if (failed(convertWithoutFolding(func, std::move(named))))
      return signalPassFailure();

    RewritePatternSet elementwise(ctx);
    tosa::populateTosaToLinalgConversionPatterns(converter, &elementwise);
    if (failed(convertWithoutFolding(func, std::move(elementwise))))
      signalPassFailure();
  }
};
} // namespace

Expected<NamedPipeline> replayPipeline() {
  static const bool registered = [] {
    PassRegistration<TosaToLinalgNoFoldPass>();
    return true;
  }();
  (void)registered;
  // Derived from tosa-O0 so that the rest of the lowering stays the same.
  // tosa-to-arith and tosa-to-tensor, which it keeps, still fold their own
  // ops (constants, apply_scale, reshape, slice, concat, pad).
  NamedPipeline p = namedPipelines()[0];
  size_t at = p.pipeline.find(kFoldingPasses);
  if (at == std::string::npos)
    return makeError(p.name + " no longer runs " + kFoldingPasses +
                     " the replay lowering needs updating");
  p.pipeline.replace(at, strlen(kFoldingPasses), std::string(kNoFoldPass) + ",");
  p.name += "-nofold";
  return p;
}

} // namespace cc::smt
