// Random execution: both sides of a query too large to refine, run on a
// few seeded random inputs (small integers, so that short sums are exact
// whatever their order) and compared within a few rounding errors.
#include "smt/Replay.h"

#include "core/Rng.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"

#include <sstream>

namespace cc::smt::detail {

using namespace mlir;

namespace {

// Seeded random arguments of `argShapes` (nothing where an argument type
// cannot be run), and their first elements formatted.
std::optional<Inputs> randomInputs(func::FuncOp src, const Shapes &argShapes,
                                   Rng &rng, std::ostringstream &shown) {
  Inputs inputs;
  for (auto [i, t] : llvm::enumerate(src.getArgumentTypes())) {
    auto dt = dtypeOf(t);
    if (!dt || isa<IndexType>(getElementTypeOrSelf(t)))
      return std::nullopt;
    Tensor x(*dt, Shape(argShapes[i]));
    shown << "  %arg" << i << " = [";
    for (int64_t k = 0; k < x.size(); ++k) {
      int64_t v =
          *dt == DType::i1 ? rng.uniformInt(0, 1) : rng.uniformInt(-2, 2);
      isFloat(*dt) ? x.setF(k, double(v)) : x.setI(k, v);
      if (k < 16)
        shown << (k ? ", " : "") << v;
    }
    shown << (x.size() > 16 ? ", ...]\n" : "]\n");
    inputs.push_back(std::move(x));
  }
  return inputs;
}

} // namespace

std::optional<std::string> randomExecution(func::FuncOp src, func::FuncOp tgt,
                                           const Shapes &argShapes,
                                           const Shapes &outShapes,
                                           const Mask &mask) {
  Rng rng(0x7e57);
  double tolerance = roundingTolerance(src);
  for (int trial = 0; trial < 3; ++trial) {
    std::ostringstream shown;
    std::optional<Inputs> inputs = randomInputs(src, argShapes, rng, shown);
    if (!inputs)
      return std::nullopt;
    Replay r = replay(src, tgt, *inputs, outShapes, mask, tolerance);
    if (r.kind == Replay::Differ)
      return shown.str();
    if (r.kind != Replay::Agree)
      return std::nullopt;
  }
  return std::nullopt;
}

} // namespace cc::smt::detail
