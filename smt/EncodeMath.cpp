// The scalar semantics of the math dialect, one element at a time (the
// elementwise walk is encodeArithMath's): absolute values and bit counts
// are exact; every other float function is a named math function
// (Encoder::mathFn), uninterpreted unless IEEE defines it.
#include "smt/Encoder.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

// Exact: the highest (lowest) set bit, or the bits set, of the bit-vector;
// ctlz and cttz of zero are the width.
z3::expr bitCount(z3::context &c, Operation *op, const z3::expr &a) {
  bool pop = isa<math::CtPopOp>(op),
       leading = isa<math::CountLeadingZerosOp>(op);
  unsigned w = a.get_sort().bv_size();
  z3::expr r = c.bv_val(pop ? 0 : w, w);
  for (unsigned i = 0; i < w; ++i) {
    unsigned bit = isa<math::CountTrailingZerosOp>(op) ? w - 1 - i : i;
    z3::expr set = a.extract(bit, bit) == c.bv_val(1, 1);
    r = pop ? r + z3::ite(set, c.bv_val(1, w), c.bv_val(0, w))
            : z3::ite(set, c.bv_val(leading ? w - 1 - bit : bit, w), r);
  }
  return r;
}

} // namespace

Elem Encoder::mathOp(Operation *op, const std::vector<z3::expr> &a,
                     const z3::expr &p) {
  return llvm::TypeSwitch<Operation *, Elem>(op)
      .Case([&](math::AbsFOp) { return Elem{fabs(a[0]), p}; })
      .Case([&](math::AbsIOp) {
        return Elem{
            z3::ite(a[0] < c.bv_val(0, a[0].get_sort().bv_size()), -a[0], a[0]),
            p};
      })
      .Case<math::CountLeadingZerosOp, math::CountTrailingZerosOp,
            math::CtPopOp>(
          [&](Operation *) { return Elem{bitCount(c, op, a[0]), p}; })
      .Default([&](Operation *) -> Elem {
        Type rt = getElementTypeOrSelf(op->getResult(0).getType());
        if (isa_and_present<math::MathDialect>(op->getDialect()) && isFloat(rt))
          return {mathFn(op->getName().stripDialect().str(), a), p};
        unsupportedOp(op);
      });
}

} // namespace cc::smt::detail
