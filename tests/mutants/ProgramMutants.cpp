// Deliberately wrong passes over mid-level programs (arith, scf, vector;
// tests only).
#include "tests/mutants/Internal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <iterator>
#include <utility>

namespace cc {

namespace {
using namespace mlir;

// An arith fold that loses the signedness of an integer min or max:
// maxsi as maxui, minsi as minui (loop bounds and guards never use them,
// so the wrong program stays defined).
void minMaxUnsigned(Operation *root) {
  root->walk([](Operation *op) {
    OpBuilder b(op);
    Value r;
    if (auto max = dyn_cast<arith::MaxSIOp>(op))
      r = arith::MaxUIOp::create(b, op->getLoc(), max.getLhs(), max.getRhs());
    else if (auto min = dyn_cast<arith::MinSIOp>(op))
      r = arith::MinUIOp::create(b, op->getLoc(), min.getLhs(), min.getRhs());
    if (!r)
      return;
    op->getResult(0).replaceAllUsesWith(r);
    op->erase();
  });
}

// An scf loop canonicalization off by one: the last iteration is dropped.
void forDropLast(Operation *root) {
  root->walk([](scf::ForOp loop) {
    OpBuilder b(loop);
    Value ub = arith::SubIOp::create(b, loop.getLoc(), loop.getUpperBound(),
                                     loop.getStep());
    loop.setUpperBound(ub);
  });
}

// A vector lowering that ignores the mask of a transfer read (the padding
// is never used).
void transferUnmask(Operation *root) {
  root->walk([](vector::TransferReadOp read) {
    Value mask = read.getMask();
    if (!mask)
      return;
    OpBuilder b(read);
    auto type = cast<VectorType>(mask.getType());
    Value all = arith::ConstantOp::create(b, read.getLoc(), type,
                                          DenseElementsAttr::get(type, true));
    read.getMaskMutable().assign(all);
  });
}

constexpr Mutant kProgramMutants[] = {
    {"cc-mutant-minmax-unsigned", "folds arith.maxsi/minsi as maxui/minui",
     minMaxUnsigned},
    {"cc-mutant-for-drop-last", "drops the last iteration of scf.for",
     forDropLast},
    {"cc-mutant-transfer-unmask", "ignores the mask of vector.transfer_read",
     transferUnmask},
};

// One class per mutant: MLIR identifies passes by TypeID.
template <size_t I>
class ProgramMutantPass
    : public PassWrapper<ProgramMutantPass<I>, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ProgramMutantPass)
  StringRef getArgument() const override { return kProgramMutants[I].name; }
  StringRef getDescription() const override {
    return kProgramMutants[I].description;
  }
  void runOnOperation() override {
    kProgramMutants[I].apply(this->getOperation());
  }
};

template <size_t... I> void registerPrograms(std::index_sequence<I...>) {
  (PassRegistration<ProgramMutantPass<I>>(), ...);
}
} // namespace

void registerProgramMutantPasses() {
  registerPrograms(std::make_index_sequence<std::size(kProgramMutants)>());
}

const std::vector<MutantInfo> &programMutantPasses() {
  static const std::vector<MutantInfo> infos = [] {
    std::vector<MutantInfo> v;
    for (const Mutant &m : kProgramMutants)
      v.push_back({m.name, m.description});
    return v;
  }();
  return infos;
}

} // namespace cc
