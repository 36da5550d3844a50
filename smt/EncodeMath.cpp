// The scalar semantics of the math dialect, one element at a time (the
// elementwise walk is encodeArithMath's): absolute values and bit counts
// are exact; every other float function is a named math function
// (Encoder::mathFn), uninterpreted unless IEEE defines it.
#include "smt/Encoder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

// Exact: the highest (lowest) set bit, or the bits set, of the bit-vector;
// ctlz and cttz of zero are the width.
z3::expr bitCount(z3::context &c, Operation *op, const z3::expr &a) {
  bool pop = isa<math::CtPopOp, LLVM::CtPopOp>(op),
       leading = isa<math::CountLeadingZerosOp, LLVM::CountLeadingZerosOp>(op);
  bool trailing =
      isa<math::CountTrailingZerosOp, LLVM::CountTrailingZerosOp>(op);
  unsigned w = a.get_sort().bv_size();
  z3::expr r = c.bv_val(pop ? 0 : w, w);
  for (unsigned i = 0; i < w; ++i) {
    unsigned bit = trailing ? w - 1 - i : i;
    z3::expr set = a.extract(bit, bit) == c.bv_val(1, 1);
    r = pop ? r + z3::ite(set, c.bv_val(1, w), c.bv_val(0, w))
            : z3::ite(set, c.bv_val(leading ? w - 1 - bit : bit, w), r);
  }
  return r;
}

} // namespace

Elem Encoder::mathOp(Operation *op, const std::vector<z3::expr> &a,
                     const z3::expr &p) {
  unsigned w = a[0].get_sort().is_bv() ? a[0].get_sort().bv_size() : 0;
  return llvm::TypeSwitch<Operation *, Elem>(op)
      .Case<math::AbsFOp, LLVM::FAbsOp>(
          [&](Operation *) { return Elem{fabs(a[0]), p}; })
      .Case([&](math::AbsIOp) {
        return Elem{z3::ite(a[0] < c.bv_val(0, w), -a[0], a[0]), p};
      })
      // llvm.intr.abs of INT_MIN is poison where is_int_min_poison says so.
      .Case([&](LLVM::AbsOp abs) {
        z3::expr min = c.bv_val(uint64_t(1) << (w - 1), w);
        return Elem{z3::ite(a[0] < c.bv_val(0, w), -a[0], a[0]),
                    p || (abs.getIsIntMinPoison() && a[0] == min)};
      })
      .Case<math::CountLeadingZerosOp, math::CountTrailingZerosOp,
            math::CtPopOp>(
          [&](Operation *) { return Elem{bitCount(c, op, a[0]), p}; })
      // ... and their count of a zero where is_zero_poison says so.
      .Case<LLVM::CountLeadingZerosOp, LLVM::CountTrailingZerosOp>(
          [&](auto count) {
            return Elem{bitCount(c, op, a[0]), p || (count.getIsZeroPoison() &&
                                                     a[0] == c.bv_val(0, w))};
          })
      .Case([&](LLVM::CtPopOp) { return Elem{bitCount(c, op, a[0]), p}; })
      // fmuladd: "may be fused or not" (LangRef); the source may do either.
      .Case([&](LLVM::FMulAddOp) {
        z3::expr fused = mathFn("fma", a);
        if (!canChoose())
          return Elem{fused, p};
        return Elem{z3::ite(choose("the fused multiply-adds fmuladd allows"),
                            fadd(fmul(a[0], a[1]), a[2]), fused),
                    p};
      })
      .Default([&](Operation *) -> Elem {
        Type rt = getElementTypeOrSelf(op->getResult(0).getType());
        std::string name = op->getName().stripDialect().str();
        if (isa_and_present<math::MathDialect>(op->getDialect()) && isFloat(rt))
          return {mathFn(name, a), p};
        // llvm.intr.exp, sqrt, floor, ...: the math function of that name.
        if (isa_and_present<LLVM::LLVMDialect>(op->getDialect()) &&
            isFloat(rt) && name.rfind("intr.", 0) == 0) {
          name = name.substr(5);
          return {mathFn(name == "pow" ? "powf" : name, a), p};
        }
        unsupportedOp(op);
      });
}

} // namespace cc::smt::detail
