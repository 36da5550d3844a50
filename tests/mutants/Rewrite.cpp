// Generic rebuilds of TOSA ops by name, for the mutant passes.
#include "tests/mutants/Internal.h"

namespace cc::mutants {

using namespace mlir;

Operation *definedBy(Value v, StringRef opName) {
  Operation *def = v.getDefiningOp();
  return def && def->getName().getStringRef() == opName ? def : nullptr;
}

// The elements of a tosa.const / tosa.const_shape operand, or null.
DenseElementsAttr constantOf(Value v, StringRef opName) {
  Operation *def = definedBy(v, opName);
  return def ? dyn_cast_or_null<DenseElementsAttr>(def->getAttr("values"))
             : DenseElementsAttr();
}

Value build(OpBuilder &b, Location loc, StringRef opName, ValueRange operands,
            Type type, DenseElementsAttr values) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addTypes(type);
  if (values)
    state.addAttribute("values", values);
  return b.create(state)->getResult(0);
}

Value build(OpBuilder &b, Location loc, StringRef opName, ValueRange operands,
            Type type, ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(attrs);
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

} // namespace cc::mutants
