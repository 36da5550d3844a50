// The straight lowering: the reference lowering of mid-level programs and
// the lowering that replays a counterexample through the JIT. It must not
// run the passes under validation or test, or a wrong rewrite would be
// applied to the reference too and both sides would agree: no canonicalize,
// cse, folding, arith-expand, math-expand-ops or integer-range pass. Every step
// is a direct conversion:
//   cc-tosa-to-linalg-nofold  TOSA's decompositions and TOSA to linalg,
//                             arith and tensor, with folding off (upstream's
//                             passes fold first, and tosa-to-arith and
//                             tosa-to-tensor fold the non-TOSA ops too);
//   one-shot-bufferize, buffer-results-to-out-params,
//   convert-bufferization-to-memref (clone as alloc + copy)
//                             storage only; no deallocation pipeline (it
//                             runs canonicalize and cse): a replay leaks;
//   convert-linalg-to-loops   loops over the op's body as written;
//   cc-replay-expand          ceildivsi, floordivsi, ceildivui and bf16
//                             conversions, written here (arith-to-llvm has
//                             no lowering for them; arith-expand may be the
//                             pass under test), and vector.multi_reduction
//                             by upstream's lowering patterns, folding off;
//   convert-vector-to-scf     vector transfers as loops of loads and stores;
//   convert-math-to-funcs{convert-ctlz}, math-extend-to-supported-types,
//   convert-math-to-llvm, convert-math-to-libm
//                             each math op to one intrinsic or libm call
//                             (f16/bf16 widened to f32 around it);
//   expand-strided-metadata, lower-affine (its loops are scf),
//   convert-scf-to-cf, convert-vector-to-llvm, convert-to-llvm,
//   reconcile-unrealized-casts
//                             structural lowering to the LLVM dialect, with
//                             LLVM at -O0.
// A mid-level pipeline under test (Pipelines.cpp) is this lowering with its
// passes inserted at three levels (StraightInserts), so that a difference
// from the straight lowering is theirs.
// Where the source's encoding is exact, the target's execution is also
// compared with the source's Z3 value (Counterexample.cpp), which no
// lowering shares.
#include "backends/mlir/Internal.h"
#include "backends/mlir/MlirBackend.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace cc {

namespace {
const char *const kNoFoldPass = "cc-tosa-to-linalg-nofold";

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
    : public PassWrapper<TosaToLinalgNoFoldPass, OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TosaToLinalgNoFoldPass)
  StringRef getArgument() const override { return kNoFoldPass; }
  StringRef getDescription() const override {
    return "TOSA decompositions and TOSA to linalg without folding TOSA ops";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<arith::ArithDialect, index::IndexDialect, linalg::LinalgDialect,
                math::MathDialect, scf::SCFDialect, tensor::TensorDialect>();
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
      return signalPassFailure();

    // tosa-to-arith{include-apply-rescale} and tosa-to-tensor: upstream's
    // passes fold every op they leave legal (tensor.insert_slice of a whole
    // tensor, a transfer_write of a whole transfer_read) on the way.
    RewritePatternSet scalars(ctx);
    tosa::populateTosaToArithConversionPatterns(&scalars);
    tosa::populateTosaRescaleToArithConversionPatterns(&scalars);
    if (failed(convertWithoutFolding(func, std::move(scalars))))
      return signalPassFailure();
    RewritePatternSet shapes(ctx);
    tosa::populateTosaToTensorConversionPatterns(converter, &shapes);
    if (failed(convertWithoutFolding(func, std::move(shapes))))
      signalPassFailure();
  }
};
// ---- cc-replay-expand ------------------------------------------------------

const char *const kExpandPass = "cc-replay-expand";

// An integer or float constant of `t`'s element type, splat for vectors.
Value constLike(OpBuilder &b, Location loc, Type t, int64_t v) {
  Type elt = getElementTypeOrSelf(t);
  TypedAttr a = isa<FloatType>(elt) ? TypedAttr(b.getFloatAttr(elt, double(v)))
                                    : TypedAttr(b.getIntegerAttr(elt, v));
  if (auto vt = dyn_cast<VectorType>(t))
    a = DenseElementsAttr::get(vt, a);
  return arith::ConstantOp::create(b, loc, t, a);
}

// `t` with its element type replaced.
Type withElement(Type t, Type elt) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.clone(elt);
  return elt;
}

// ceil/floor division: the truncated quotient, moved by one where a
// remainder is left and the exact quotient lies on that side.
Value roundedDivision(OpBuilder &b, Location loc, Value a, Value d, bool ceil) {
  Type t = a.getType();
  Value zero = constLike(b, loc, t, 0), one = constLike(b, loc, t, 1);
  Value q = arith::DivSIOp::create(b, loc, a, d);
  Value back = arith::MulIOp::create(b, loc, q, d);
  Value inexact =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, a, back);
  Value aNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a, zero);
  Value dNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, d, zero);
  Value side = arith::CmpIOp::create(
      b, loc, ceil ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne, aNeg,
      dNeg);
  Value moves = arith::AndIOp::create(b, loc, inexact, side);
  Value moved = ceil ? arith::AddIOp::create(b, loc, q, one).getResult()
                     : arith::SubIOp::create(b, loc, q, one).getResult();
  return arith::SelectOp::create(b, loc, moves, moved, q);
}

// a == 0 ? 0 : (a - 1) / d + 1.
Value ceilDivUnsigned(OpBuilder &b, Location loc, Value a, Value d) {
  Type t = a.getType();
  Value zero = constLike(b, loc, t, 0), one = constLike(b, loc, t, 1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, zero);
  Value q =
      arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, a, one), d);
  return arith::SelectOp::create(b, loc, isZero, zero,
                                 arith::AddIOp::create(b, loc, q, one));
}

// bf16 -> f32: the bits shifted into the high half.
Value bf16ToF32(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value bits =
      arith::BitcastOp::create(b, loc, withElement(t, b.getIntegerType(16)), x);
  Value wide = arith::ExtUIOp::create(
      b, loc, withElement(t, b.getIntegerType(32)), bits);
  Value high = arith::ShLIOp::create(b, loc, wide,
                                     constLike(b, loc, wide.getType(), 16));
  return arith::BitcastOp::create(b, loc, withElement(t, b.getF32Type()), high);
}

// f32 -> bf16, rounding to nearest even; NaN becomes the quiet NaN 0x7fc0.
Value f32ToBf16(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Type i32 = withElement(t, b.getIntegerType(32));
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, constLike(b, loc, i32, 16)),
      constLike(b, loc, i32, 1));
  Value bias =
      arith::AddIOp::create(b, loc, constLike(b, loc, i32, 0x7fff), lsb);
  Value rounded =
      arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, bits, bias),
                             constLike(b, loc, i32, 16));
  Type i16 = withElement(t, b.getIntegerType(16));
  Value narrow = arith::TruncIOp::create(b, loc, i16, rounded);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value out = arith::SelectOp::create(b, loc, nan,
                                      constLike(b, loc, i16, 0x7fc0), narrow);
  return arith::BitcastOp::create(b, loc, withElement(t, b.getBF16Type()), out);
}

// The expansion of one op, or nothing when it needs none.
Value expandOne(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto operand = [&](unsigned i) { return op->getOperand(i); };
  auto eltOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  if (isa<arith::CeilDivSIOp, arith::FloorDivSIOp>(op))
    return roundedDivision(b, loc, operand(0), operand(1),
                           isa<arith::CeilDivSIOp>(op));
  if (isa<arith::CeilDivUIOp>(op))
    return ceilDivUnsigned(b, loc, operand(0), operand(1));
  if (isa<arith::ExtFOp>(op) && eltOf(operand(0)).isBF16()) {
    Value f = bf16ToF32(b, loc, operand(0));
    Type to = op->getResult(0).getType();
    return f.getType() == to ? f : arith::ExtFOp::create(b, loc, to, f);
  }
  if (isa<arith::TruncFOp>(op) && eltOf(op->getResult(0)).isBF16() &&
      eltOf(operand(0)).isF32())
    return f32ToBf16(b, loc, operand(0));
  return {};
}

// Expands, without folding anything, the arith ops that arith-to-llvm
// cannot lower.
class ReplayExpandPass
    : public PassWrapper<ReplayExpandPass, OperationPass<func::FuncOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReplayExpandPass)
  StringRef getArgument() const override { return kExpandPass; }
  StringRef getDescription() const override {
    return "ceil/floor divisions and bf16 conversions as plain arith, "
           "vector.multi_reduction as reductions";
  }
  void runOnOperation() override {
    std::vector<Operation *> ops;
    getOperation().walk([&](Operation *op) { ops.push_back(op); });
    OpBuilder b(&getContext());
    for (Operation *op : ops) {
      b.setInsertionPoint(op);
      if (Value v = expandOne(b, op)) {
        op->getResult(0).replaceAllUsesWith(v);
        op->erase();
      }
    }
    RewritePatternSet multi(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        multi, vector::VectorMultiReductionLowering::InnerReduction);
    GreedyRewriteConfig greedy;
    greedy.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(multi), greedy)))
      signalPassFailure();
  }
};
// ---- cc-math-to-libm --------------------------------------------------------

// libm's function for `op` of element type `elt`, or "" where libm is not
// the better reference (convert-math-to-llvm computes expm1 as exp(x) - 1
// and log1p by a formula of its own).
std::string libmName(Operation *op, Type elt) {
  const char *base = isa<math::ExpM1Op>(op)   ? "expm1"
                     : isa<math::Log1pOp>(op) ? "log1p"
                                              : nullptr;
  if (!base || !(elt.isF32() || elt.isF64()))
    return "";
  return std::string(base) + (elt.isF32() ? "f" : "");
}

// One call of `fn` per element of `x` (a scalar or a fixed vector).
Value callPerElement(OpBuilder &b, Location loc, func::FuncOp fn, Value x) {
  auto vt = dyn_cast<VectorType>(x.getType());
  if (!vt)
    return func::CallOp::create(b, loc, fn, ValueRange{x}).getResult(0);
  Value out = x;
  for (int64_t k = 0; k < vt.getNumElements(); ++k) {
    SmallVector<int64_t> at = delinearize(k, computeStrides(vt.getShape()));
    Value e = vector::ExtractOp::create(b, loc, x, at);
    Value r = func::CallOp::create(b, loc, fn, ValueRange{e}).getResult(0);
    out = vector::InsertOp::create(b, loc, r, out, at);
  }
  return out;
}

// math.expm1 and math.log1p as calls of libm's: the reference a formula's
// accuracy is measured against (smt/Approximate.cpp).
class MathToLibmPass
    : public PassWrapper<MathToLibmPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToLibmPass)
  StringRef getArgument() const override { return kLibmPass; }
  StringRef getDescription() const override {
    return "math.expm1 and math.log1p as calls of libm's";
  }
  void runOnOperation() override {
    ModuleOp m = getOperation();
    std::vector<Operation *> ops;
    m.walk([&](Operation *op) { ops.push_back(op); });
    OpBuilder b(&getContext());
    for (Operation *op : ops) {
      Type t = op->getNumResults() ? op->getResult(0).getType() : Type();
      auto vt = dyn_cast_or_null<VectorType>(t);
      std::string name = t ? libmName(op, getElementTypeOrSelf(t)) : "";
      if (name.empty() || (vt && vt.isScalable()) || !(isa<FloatType>(t) || vt))
        continue;
      auto fn = m.lookupSymbol<func::FuncOp>(name);
      if (!fn) {
        b.setInsertionPointToStart(m.getBody());
        Type elt = getElementTypeOrSelf(t);
        fn = func::FuncOp::create(b, m.getLoc(), name,
                                  b.getFunctionType({elt}, {elt}));
        fn.setPrivate();
      }
      b.setInsertionPoint(op);
      Value r = callPerElement(b, op->getLoc(), fn, op->getOperand(0));
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};
} // namespace

const char *const kLibmPass = "cc-math-to-libm";

namespace mlirbackend {
void registerStraightPasses() {
  static const bool registered = [] {
    PassRegistration<TosaToLinalgNoFoldPass>();
    PassRegistration<ReplayExpandPass>();
    PassRegistration<MathToLibmPass>();
    return true;
  }();
  (void)registered;
}
} // namespace mlirbackend

NamedPipeline straightLowering(const StraightInserts &at, int llvmOptLevel) {
  mlirbackend::registerStraightPasses();
  auto then = [](const std::string &passes) {
    return passes.empty() ? std::string() : "," + passes;
  };
  std::string p = "builtin.module(func.func(convert-elementwise-to-linalg," +
                  std::string(kNoFoldPass) + then(at.onTensors) +
                  "),"
                  "one-shot-bufferize{allow-return-allocs-from-loops "
                  "bufferize-function-boundaries "
                  "function-boundary-type-conversion=identity-layout-map},"
                  "buffer-results-to-out-params{hoist-static-allocs "
                  "modify-public-functions},"
                  "convert-bufferization-to-memref,"
                  "func.func(" +
                  (at.onBuffers.empty() ? "" : at.onBuffers + ",") +
                  "convert-linalg-to-loops" + then(at.onLoops) + "," +
                  kExpandPass + ")" + then(at.beforeLlvm) +
                  ",convert-vector-to-scf,convert-math-to-funcs{convert-ctlz},"
                  "math-extend-to-supported-types,convert-math-to-llvm,"
                  "convert-math-to-libm,expand-strided-metadata,"
                  "lower-affine,convert-scf-to-cf,"
                  "convert-vector-to-llvm,convert-to-llvm,"
                  "reconcile-unrealized-casts)";
  return NamedPipeline{"straight", "direct conversions only", p, llvmOptLevel};
}

} // namespace cc
