// Deliberately wrong passes over TOSA IR (tests only). Each one matches TOSA
// ops by name and rebuilds them generically, so this file needs no TOSA
// headers and follows the MLIR 22 TOSA 1.0 operand layout:
//   mul(a, b, shift), slice(x, start, size) with tosa.const_shape operands,
//   rescale(x, multiplier, shift, input_zp, output_zp), const {values}.
#include "tests/mutants/Mutants.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <csignal>
#include <utility>

namespace cc {

namespace {
using namespace mlir;

Operation *definedBy(Value v, StringRef opName) {
  Operation *def = v.getDefiningOp();
  return def && def->getName().getStringRef() == opName ? def : nullptr;
}

// The elements of a tosa.const / tosa.const_shape operand, or null.
DenseElementsAttr constantOf(Value v, StringRef opName = "tosa.const") {
  Operation *def = definedBy(v, opName);
  return def ? dyn_cast_or_null<DenseElementsAttr>(def->getAttr("values"))
             : DenseElementsAttr();
}

Value build(OpBuilder &b, Location loc, StringRef opName, ValueRange operands,
            Type type, DenseElementsAttr values = {}) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addTypes(type);
  if (values)
    state.addAttribute("values", values);
  return b.create(state)->getResult(0);
}

Value constant(OpBuilder &b, Location loc, DenseElementsAttr values) {
  return build(b, loc, "tosa.const", {}, values.getType(), values);
}

// A splat of zero in `type` (float or integer elements).
DenseElementsAttr zeros(ShapedType type) {
  Type e = type.getElementType();
  Attribute zero = isa<FloatType>(e) ? Attribute(FloatAttr::get(e, 0.0))
                                     : Attribute(IntegerAttr::get(e, 0));
  return DenseElementsAttr::get(type, ArrayRef<Attribute>(zero));
}

SmallVector<Operation *> opsNamed(Operation *root, StringRef opName) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op->getName().getStringRef() == opName)
      ops.push_back(op);
  });
  return ops;
}

RankedTensorType floatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType()) ? t : RankedTensorType();
}

void replace(Operation *op, Value with) {
  op->getResult(0).replaceAllUsesWith(with);
  op->erase();
}

// x * 0 -> 0 on floats: wrong for x = NaN or +-Inf (and loses -0).
void mulByZero(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.mul")) {
    RankedTensorType type = floatTensor(op->getResult(0));
    if (!type)
      continue;
    for (int i = 0; i < 2; ++i) {
      DenseElementsAttr c = constantOf(op->getOperand(i));
      if (c && c.isSplat() && c.getSplatValue<APFloat>().isZero()) {
        OpBuilder b(op);
        replace(op, constant(b, op->getLoc(), zeros(type)));
        break;
      }
    }
  }
}

// (a + b) - b -> a on floats: wrong under rounding and for b = +-Inf.
void addSubCancel(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.sub")) {
    if (!floatTensor(op->getResult(0)))
      continue;
    Operation *add = definedBy(op->getOperand(0), "tosa.add");
    if (!add)
      continue;
    Value b = op->getOperand(1);
    Value a = add->getOperand(1) == b   ? add->getOperand(0)
              : add->getOperand(0) == b ? add->getOperand(1)
                                        : Value();
    if (a && a.getType() == op->getResult(0).getType())
      replace(op, a);
  }
}

// a - b -> b - a.
void swapSub(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.sub")) {
    Value a = op->getOperand(0);
    op->setOperand(0, op->getOperand(1));
    op->setOperand(1, a);
  }
}

// Moves a slice window by one element along its first movable axis.
void sliceOffByOne(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.slice")) {
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    DenseElementsAttr start = constantOf(op->getOperand(1), "tosa.const_shape");
    DenseElementsAttr size = constantOf(op->getOperand(2), "tosa.const_shape");
    if (!type || !start || !size)
      continue;
    SmallVector<int64_t> s(start.getValues<int64_t>());
    SmallVector<int64_t> n(size.getValues<int64_t>());
    // Forward where the window fits, else backward.
    int64_t axis = -1, step = 1;
    for (size_t d = 0; d < s.size() && axis < 0; ++d)
      if (s[d] + n[d] < type.getDimSize(d))
        axis = int64_t(d);
    for (size_t d = 0; d < s.size() && axis < 0; ++d)
      if (s[d] > 0)
        axis = int64_t(d), step = -1;
    if (axis < 0)
      continue;
    s[axis] += step;
    OpBuilder b(op);
    auto values = DenseIntElementsAttr::get(start.getType(), s);
    op->setOperand(1, build(b, op->getLoc(), "tosa.const_shape", {},
                            op->getOperand(1).getType(), values));
  }
}

// float -> int casts truncate toward zero instead of rounding to nearest
// even: the cast input becomes select(x >= 0, floor(x), ceil(x)).
void castTruncates(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.cast")) {
    Value x = op->getOperand(0);
    RankedTensorType in = floatTensor(x);
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!in || !out || !out.getElementType().isInteger() ||
        out.getElementType().isInteger(1))
      continue;
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto scalarType = RankedTensorType::get(
        SmallVector<int64_t>(in.getRank(), 1), in.getElementType());
    Value zero = constant(b, loc, zeros(scalarType));
    auto boolType = RankedTensorType::get(in.getShape(), b.getI1Type());
    Value positive = build(b, loc, "tosa.greater_equal", {x, zero}, boolType);
    Value down = build(b, loc, "tosa.floor", {x}, in);
    Value up = build(b, loc, "tosa.ceil", {x}, in);
    op->setOperand(0, build(b, loc, "tosa.select", {positive, down, up}, in));
  }
}

// clamp(x) -> x.
void dropClamp(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.clamp"))
    if (op->getOperand(0).getType() == op->getResult(0).getType())
      replace(op, op->getOperand(0));
}

// Uses the inverse permutation, where that keeps the result type.
void invertTranspose(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.transpose")) {
    auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!perms || !in || !out)
      continue;
    ArrayRef<int32_t> p = perms.asArrayRef();
    SmallVector<int32_t> inverse(p.size());
    for (size_t i = 0; i < p.size(); ++i)
      inverse[p[i]] = int32_t(i);
    bool sameType = true;
    for (size_t i = 0; i < p.size(); ++i)
      sameType &= in.getDimSize(inverse[i]) == out.getDimSize(i);
    if (sameType && ArrayRef<int32_t>(inverse) != p)
      op->setAttr("perms", DenseI32ArrayAttr::get(op->getContext(), inverse));
  }
}

// Replaces a non-zero input (else output) zero point of a rescale by 0.
void dropRescaleZeroPoint(Operation *root) {
  for (Operation *op : opsNamed(root, "tosa.rescale")) {
    for (unsigned i : {3u, 4u}) {
      if (op->getNumOperands() <= i)
        break;
      DenseElementsAttr zp = constantOf(op->getOperand(i));
      if (!zp || !zp.getElementType().isInteger() || !zp.isSplat() ||
          zp.getSplatValue<APInt>().isZero())
        continue;
      OpBuilder b(op);
      op->setOperand(i, constant(b, op->getLoc(), zeros(zp.getType())));
      break;
    }
  }
}

struct Mutant {
  const char *name;
  const char *description;
  void (*apply)(Operation *);
};

constexpr Mutant kMutants[] = {
    {"cc-mutant-mul-zero", "folds float x * 0 to 0 (NaN/Inf-unsafe)",
     mulByZero},
    {"cc-mutant-add-sub-cancel", "folds float (a + b) - b to a",
     addSubCancel},
    {"cc-mutant-sub-swap", "swaps the operands of sub", swapSub},
    {"cc-mutant-slice-off-by-one", "moves a slice start by one",
     sliceOffByOne},
    {"cc-mutant-cast-trunc",
     "float to int casts truncate instead of rounding to nearest even",
     castTruncates},
    {"cc-mutant-clamp-drop", "drops clamp", dropClamp},
    {"cc-mutant-transpose-invert",
     "uses the inverse transpose permutation", invertTranspose},
    {"cc-mutant-rescale-zp", "drops a rescale zero point",
     dropRescaleZeroPoint},
};
constexpr size_t kNumMutants = sizeof(kMutants) / sizeof(kMutants[0]);

// One class per mutant: MLIR identifies passes by TypeID.
template <size_t I>
class MutantPass : public PassWrapper<MutantPass<I>, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MutantPass)
  StringRef getArgument() const override { return kMutants[I].name; }
  StringRef getDescription() const override {
    return kMutants[I].description;
  }
  void runOnOperation() override { kMutants[I].apply(this->getOperation()); }
};

template <size_t... I> void registerAll(std::index_sequence<I...>) {
  (PassRegistration<MutantPass<I>>(), ...);
}

// Dies of SIGSEGV when the IR holds a tosa.transpose: a compiler crash that
// does not depend on an upstream bug staying unfixed (or on its heap layout).
class CrashPass : public PassWrapper<CrashPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashPass)
  StringRef getArgument() const override { return "cc-crash-on-transpose"; }
  StringRef getDescription() const override {
    return "crashes (SIGSEGV) on tosa.transpose";
  }
  void runOnOperation() override {
    if (!opsNamed(getOperation(), "tosa.transpose").empty())
      std::raise(SIGSEGV);
  }
};
} // namespace

void registerMutantPasses() {
  static const bool done = [] {
    registerAll(std::make_index_sequence<kNumMutants>());
    PassRegistration<CrashPass>();
    return true;
  }();
  (void)done;
}

const std::vector<MutantInfo> &mutantPasses() {
  static const std::vector<MutantInfo> infos = [] {
    std::vector<MutantInfo> v;
    for (const Mutant &m : kMutants)
      v.push_back({m.name, m.description});
    return v;
  }();
  return infos;
}

} // namespace cc
