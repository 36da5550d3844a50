// The Z3 encoding of the arith dialect (and the entry of the math dialect,
// whose scalar semantics are in EncodeMath.cpp): elementwise over tensors
// with broadcasting, one element at a time. Integers are exact
// bit-vectors: overflow flags and shifts by the width or more give poison,
// a division by zero and a signed division overflow are undefined
// behaviour.
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

using Exprs = std::vector<z3::expr>;
using MaybeElem = std::optional<Elem>;
using Switch = llvm::TypeSwitch<Operation *, MaybeElem>;

MaybeElem noMatch(Operation *) { return std::nullopt; }

// addi, subi and muli: wrap, and an overflow that nsw/nuw excludes is
// poison.
MaybeElem wrapping(Operation *op, const Exprs &a, z3::expr p) {
  auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op);
  bool nsw = flags && flags.hasNoSignedWrap();
  bool nuw = flags && flags.hasNoUnsignedWrap();
  return Switch(op)
      .Case([&](arith::AddIOp) {
        if (nsw)
          p = p || !z3::bvadd_no_overflow(a[0], a[1], true) ||
              !z3::bvadd_no_underflow(a[0], a[1]);
        if (nuw)
          p = p || !z3::bvadd_no_overflow(a[0], a[1], false);
        return Elem{a[0] + a[1], p};
      })
      .Case([&](arith::SubIOp) {
        if (nsw)
          p = p || !z3::bvsub_no_overflow(a[0], a[1]) ||
              !z3::bvsub_no_underflow(a[0], a[1], true);
        if (nuw)
          p = p || !z3::bvsub_no_underflow(a[0], a[1], false);
        return Elem{a[0] - a[1], p};
      })
      .Case([&](arith::MulIOp) {
        if (nsw)
          p = p || !z3::bvmul_no_overflow(a[0], a[1], true) ||
              !z3::bvmul_no_underflow(a[0], a[1]);
        if (nuw)
          p = p || !z3::bvmul_no_overflow(a[0], a[1], false);
        return Elem{a[0] * a[1], p};
      })
      .Default(noMatch);
}

// Divisions, bitwise ops, shifts, minima and maxima.
MaybeElem integer(Encoder &e, Operation *op, const Exprs &a, z3::expr p) {
  z3::context &c = e.c;
  auto divUb = [&](bool isSigned) {
    unsigned w = a[1].get_sort().bv_size();
    z3::expr bad = a[1] == c.bv_val(0, w);
    if (isSigned)
      bad = bad || (a[0] == c.bv_val(uint64_t(1) << (w - 1), w) &&
                    a[1] == c.bv_val(~uint64_t(0), w));
    e.ub = e.ub || (!p && bad);
  };
  auto shiftPoison = [&] {
    unsigned w = a[1].get_sort().bv_size();
    p = p || z3::uge(a[1], c.bv_val(uint64_t(w), w));
  };
  return Switch(op)
      .Case([&](arith::DivSIOp) {
        divUb(true);
        return Elem{a[0] / a[1], p};
      })
      .Case([&](arith::DivUIOp) {
        divUb(false);
        return Elem{z3::udiv(a[0], a[1]), p};
      })
      .Case([&](arith::RemSIOp) {
        divUb(true);
        return Elem{z3::srem(a[0], a[1]), p};
      })
      .Case([&](arith::RemUIOp) {
        divUb(false);
        return Elem{z3::urem(a[0], a[1]), p};
      })
      .Case([&](arith::AndIOp) { return Elem{a[0] & a[1], p}; })
      .Case([&](arith::OrIOp) { return Elem{a[0] | a[1], p}; })
      .Case([&](arith::XOrIOp) { return Elem{a[0] ^ a[1], p}; })
      .Case([&](arith::ShLIOp) {
        shiftPoison();
        return Elem{z3::shl(a[0], a[1]), p};
      })
      .Case([&](arith::ShRSIOp) {
        shiftPoison();
        return Elem{z3::ashr(a[0], a[1]), p};
      })
      .Case([&](arith::ShRUIOp) {
        shiftPoison();
        return Elem{z3::lshr(a[0], a[1]), p};
      })
      .Case([&](arith::MaxSIOp) {
        return Elem{z3::ite(a[0] > a[1], a[0], a[1]), p};
      })
      .Case([&](arith::MinSIOp) {
        return Elem{z3::ite(a[0] < a[1], a[0], a[1]), p};
      })
      .Case([&](arith::MaxUIOp) {
        return Elem{z3::ite(z3::ugt(a[0], a[1]), a[0], a[1]), p};
      })
      .Case([&](arith::MinUIOp) {
        return Elem{z3::ite(z3::ult(a[0], a[1]), a[0], a[1]), p};
      })
      .Default(noMatch);
}

unsigned widthOf(Type t) {
  return isa<IndexType>(t) ? 64u : t.getIntOrFloatBitWidth();
}

z3::expr compare(arith::CmpIPredicate pred, const z3::expr &x,
                 const z3::expr &y) {
  using P = arith::CmpIPredicate;
  return pred == P::eq    ? x == y
         : pred == P::ne  ? x != y
         : pred == P::slt ? x < y
         : pred == P::sle ? x <= y
         : pred == P::sgt ? x > y
         : pred == P::sge ? x >= y
         : pred == P::ult ? z3::ult(x, y)
         : pred == P::ule ? z3::ule(x, y)
         : pred == P::ugt ? z3::ugt(x, y)
                          : z3::uge(x, y);
}

// Integer compares, select, and integer width casts.
MaybeElem compareSelectCast(Encoder &e, Operation *op, const Exprs &a,
                            const Exprs &pa, const z3::expr &p) {
  Type rt = getElementTypeOrSelf(op->getResult(0).getType());
  return Switch(op)
      .Case([&](arith::CmpIOp cmp) {
        return Elem{e.boolToBv(compare(cmp.getPredicate(), a[0], a[1])), p};
      })
      .Case([&](arith::SelectOp) {
        z3::expr cond = e.bvTrue(a[0]);
        return Elem{z3::ite(cond, a[1], a[2]),
                    pa[0] || z3::ite(cond, pa[1], pa[2])};
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>([&](Operation *) {
        unsigned from = a[0].get_sort().bv_size(), to = widthOf(rt);
        bool sgn = isa<arith::ExtSIOp, arith::IndexCastOp>(op);
        if (to < from)
          return Elem{a[0].extract(to - 1, 0), p};
        if (to == from)
          return Elem{a[0], p};
        return Elem{sgn ? z3::sext(a[0], to - from) : z3::zext(a[0], to - from),
                    p};
      })
      .Default(noMatch);
}

// Float arithmetic, compares and conversions (EncodeFloat.cpp).
MaybeElem floating(Encoder &e, Operation *op, const Exprs &a,
                   const z3::expr &p) {
  Type rt = getElementTypeOrSelf(op->getResult(0).getType());
  return Switch(op)
      .Case([&](arith::AddFOp) { return Elem{e.fadd(a[0], a[1]), p}; })
      .Case([&](arith::SubFOp) { return Elem{e.fsub(a[0], a[1]), p}; })
      .Case([&](arith::MulFOp) { return Elem{e.fmul(a[0], a[1]), p}; })
      .Case([&](arith::DivFOp) { return Elem{e.fdiv(a[0], a[1]), p}; })
      .Case([&](arith::NegFOp) { return Elem{e.fneg(a[0]), p}; })
      .Case<arith::MaximumFOp, arith::MinimumFOp>([&](Operation *) {
        bool isMax = isa<arith::MaximumFOp>(op);
        return Elem{e.fmaxmin(a[0], a[1], isMax, true), p};
      })
      .Case<arith::MaxNumFOp, arith::MinNumFOp>([&](Operation *) {
        bool isMax = isa<arith::MaxNumFOp>(op);
        return Elem{e.fmaxmin(a[0], a[1], isMax, false), p};
      })
      .Case([&](arith::CmpFOp cmp) {
        return Elem{e.boolToBv(e.fcmp(cmp.getPredicate(), a[0], a[1])), p};
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](Operation *) {
        return Elem{e.intToFloat(a[0], rt, isa<arith::SIToFPOp>(op)), p};
      })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](Operation *) {
        z3::expr bad = e.c.bool_val(false);
        z3::expr r = e.floatToInt(a[0], widthOf(rt), isa<arith::FPToSIOp>(op),
                                  false, bad);
        return Elem{r, p || bad};
      })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return Elem{e.fcast(a[0], rt), p}; })
      .Default(noMatch);
}

// The result element of `op` applied to one element per operand.
Elem scalarOp(Encoder &e, Operation *op, const Exprs &a, const Exprs &pa) {
  z3::expr p = e.c.bool_val(false);
  for (const z3::expr &x : pa)
    p = p || x;
  if (MaybeElem r = wrapping(op, a, p))
    return *r;
  if (MaybeElem r = integer(e, op, a, p))
    return *r;
  if (MaybeElem r = compareSelectCast(e, op, a, pa, p))
    return *r;
  if (MaybeElem r = floating(e, op, a, p))
    return *r;
  return e.mathOp(op, a, p);
}

} // namespace

void Encoder::encodeArithMath(Operation *op) {
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    env[cst] = constant(cst.getValue(), cst.getType());
    return;
  }
  std::vector<SVal> ins = operandsOf(op);
  if (op->getNumResults() != 1)
    unsupportedOp(op);
  env[op->getResult(0)] = elementwise(ins, [&](const Exprs &v, const Exprs &p) {
    return scalarOp(*this, op, v, p);
  });
}

} // namespace cc::smt::detail
