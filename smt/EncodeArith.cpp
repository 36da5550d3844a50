// The Z3 encoding of the arith and index dialects (and the entry of the
// math dialect, whose scalar semantics are in EncodeMath.cpp): elementwise
// over tensors with broadcasting, one element at a time. Integers are
// exact bit-vectors: overflow flags and shifts by the width or more give
// poison, a division by zero and a signed division overflow are undefined
// behaviour. index is 64 bits wide (the JIT's target).
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

using Exprs = std::vector<z3::expr>;
using MaybeElem = std::optional<Elem>;
using Switch = llvm::TypeSwitch<Operation *, MaybeElem>;

MaybeElem noMatch(Operation *) { return std::nullopt; }

// The nsw and nuw flags of an arith or llvm op.
std::pair<bool, bool> overflowFlags(Operation *op) {
  if (auto f = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
    return {f.hasNoSignedWrap(), f.hasNoUnsignedWrap()};
  if (auto f = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op)) {
    LLVM::IntegerOverflowFlags x = f.getOverflowFlags();
    return {LLVM::bitEnumContainsAll(x, LLVM::IntegerOverflowFlags::nsw),
            LLVM::bitEnumContainsAll(x, LLVM::IntegerOverflowFlags::nuw)};
  }
  return {false, false};
}

// addi, subi and muli (llvm.add, sub, mul): wrap, and an overflow that
// nsw/nuw excludes is poison.
MaybeElem wrapping(Operation *op, const Exprs &a, z3::expr p) {
  auto [nsw, nuw] = overflowFlags(op);
  return Switch(op)
      .Case<arith::AddIOp, LLVM::AddOp>([&](Operation *) {
        if (nsw)
          p = p || !z3::bvadd_no_overflow(a[0], a[1], true) ||
              !z3::bvadd_no_underflow(a[0], a[1]);
        if (nuw)
          p = p || !z3::bvadd_no_overflow(a[0], a[1], false);
        return Elem{a[0] + a[1], p};
      })
      .Case<arith::SubIOp, LLVM::SubOp>([&](Operation *) {
        if (nsw)
          p = p || !z3::bvsub_no_overflow(a[0], a[1]) ||
              !z3::bvsub_no_underflow(a[0], a[1], true);
        if (nuw)
          p = p || !z3::bvsub_no_underflow(a[0], a[1], false);
        return Elem{a[0] - a[1], p};
      })
      .Case<arith::MulIOp, LLVM::MulOp>([&](Operation *) {
        if (nsw)
          p = p || !z3::bvmul_no_overflow(a[0], a[1], true) ||
              !z3::bvmul_no_underflow(a[0], a[1]);
        if (nuw)
          p = p || !z3::bvmul_no_overflow(a[0], a[1], false);
        return Elem{a[0] * a[1], p};
      })
      .Default(noMatch);
}

// A division rounded toward +inf (ceil) or -inf: the truncated quotient,
// moved by one where a remainder is left and the exact quotient lies on
// that side of it (signed: the operands' signs agree for ceil, differ for
// floor). Shared with the index dialect.
z3::expr roundedDiv(z3::context &c, const z3::expr &a, const z3::expr &b,
                    bool isSigned, bool ceil) {
  unsigned w = a.get_sort().bv_size();
  z3::expr zero = c.bv_val(0, w), one = c.bv_val(1, w);
  // The remainder as a - q*b (equal where the division is defined): the
  // form expansions write, so that Z3 meets them without bit-blasting two
  // dividers.
  // Unsigned ceil as 0 or (a - 1) / b + 1, the form of arith-expand.
  if (!isSigned)
    return z3::ite(a == zero, zero, z3::udiv(a - one, b) + one);
  z3::expr q = a / b;
  z3::expr inexact = a != q * b;
  z3::expr sameSign = (a < zero) == (b < zero);
  z3::expr moves = inexact && (ceil ? sameSign : !sameSign);
  return z3::ite(moves, ceil ? q + one : q - one, q);
}

// The integer ops of arith (but for the wrapping ones) and of the index
// dialect, which share their semantics.
enum class IntOp {
  Add,
  Sub,
  Mul,
  DivS,
  DivU,
  RemS,
  RemU,
  CeilDivS,
  FloorDivS,
  CeilDivU,
  MaxS,
  MinS,
  MaxU,
  MinU,
  And,
  Or,
  Xor,
  Shl,
  ShrS,
  ShrU
};

std::optional<IntOp> intOp(Operation *op) {
  using R = std::optional<IntOp>;
  auto k = [](IntOp o) { return [o](Operation *) -> R { return o; }; };
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<index::AddOp>(k(IntOp::Add))
      .Case<index::SubOp>(k(IntOp::Sub))
      .Case<index::MulOp>(k(IntOp::Mul))
      .Case<arith::DivSIOp, index::DivSOp, LLVM::SDivOp>(k(IntOp::DivS))
      .Case<arith::DivUIOp, index::DivUOp, LLVM::UDivOp>(k(IntOp::DivU))
      .Case<arith::RemSIOp, index::RemSOp, LLVM::SRemOp>(k(IntOp::RemS))
      .Case<arith::RemUIOp, index::RemUOp, LLVM::URemOp>(k(IntOp::RemU))
      .Case<arith::CeilDivSIOp, index::CeilDivSOp>(k(IntOp::CeilDivS))
      .Case<arith::FloorDivSIOp, index::FloorDivSOp>(k(IntOp::FloorDivS))
      .Case<arith::CeilDivUIOp, index::CeilDivUOp>(k(IntOp::CeilDivU))
      .Case<arith::MaxSIOp, index::MaxSOp, LLVM::SMaxOp>(k(IntOp::MaxS))
      .Case<arith::MinSIOp, index::MinSOp, LLVM::SMinOp>(k(IntOp::MinS))
      .Case<arith::MaxUIOp, index::MaxUOp, LLVM::UMaxOp>(k(IntOp::MaxU))
      .Case<arith::MinUIOp, index::MinUOp, LLVM::UMinOp>(k(IntOp::MinU))
      .Case<arith::AndIOp, index::AndOp, LLVM::AndOp>(k(IntOp::And))
      .Case<arith::OrIOp, index::OrOp, LLVM::OrOp>(k(IntOp::Or))
      .Case<arith::XOrIOp, index::XOrOp, LLVM::XOrOp>(k(IntOp::Xor))
      .Case<arith::ShLIOp, index::ShlOp, LLVM::ShlOp>(k(IntOp::Shl))
      .Case<arith::ShRSIOp, index::ShrSOp, LLVM::AShrOp>(k(IntOp::ShrS))
      .Case<arith::ShRUIOp, index::ShrUOp, LLVM::LShrOp>(k(IntOp::ShrU))
      .Default([](Operation *) -> R { return std::nullopt; });
}

// Divisions (zero and signed overflow undefined), bitwise ops, shifts (by
// the width or more: poison), minima and maxima; index ops on 64 bits.
MaybeElem integer(Encoder &e, Operation *op, const Exprs &a, z3::expr p) {
  std::optional<IntOp> k = intOp(op);
  if (!k)
    return std::nullopt;
  z3::context &c = e.c;
  const z3::expr &x = a[0], &y = a[1];
  unsigned w = x.get_sort().bv_size();
  bool isSigned = *k == IntOp::DivS || *k == IntOp::RemS ||
                  *k == IntOp::CeilDivS || *k == IntOp::FloorDivS;
  if (isSigned || *k == IntOp::DivU || *k == IntOp::RemU ||
      *k == IntOp::CeilDivU) {
    z3::expr bad = y == c.bv_val(0, w);
    if (isSigned)
      bad = bad || (x == c.bv_val(uint64_t(1) << (w - 1), w) &&
                    y == c.bv_val(~uint64_t(0), w));
    e.ub = e.ub || (!p && bad);
  }
  if (*k == IntOp::Shl || *k == IntOp::ShrS || *k == IntOp::ShrU)
    p = p || z3::uge(y, c.bv_val(uint64_t(w), w));
  switch (*k) {
  case IntOp::Add:
    return Elem{x + y, p};
  case IntOp::Sub:
    return Elem{x - y, p};
  case IntOp::Mul:
    return Elem{x * y, p};
  case IntOp::DivS:
    return Elem{x / y, p};
  case IntOp::DivU:
    return Elem{z3::udiv(x, y), p};
  case IntOp::RemS:
    return Elem{z3::srem(x, y), p};
  case IntOp::RemU:
    return Elem{z3::urem(x, y), p};
  case IntOp::CeilDivS:
    return Elem{roundedDiv(c, x, y, true, true), p};
  case IntOp::FloorDivS:
    return Elem{roundedDiv(c, x, y, true, false), p};
  case IntOp::CeilDivU:
    return Elem{roundedDiv(c, x, y, false, true), p};
  case IntOp::MaxS:
    return Elem{imaxmin(x, y, true, true), p};
  case IntOp::MinS:
    return Elem{imaxmin(x, y, false, true), p};
  case IntOp::MaxU:
    return Elem{imaxmin(x, y, true, false), p};
  case IntOp::MinU:
    return Elem{imaxmin(x, y, false, false), p};
  case IntOp::And:
    return Elem{x & y, p};
  case IntOp::Or:
    return Elem{x | y, p};
  case IntOp::Xor:
    return Elem{x ^ y, p};
  case IntOp::Shl:
    return Elem{z3::shl(x, y), p};
  case IntOp::ShrS:
    return Elem{z3::ashr(x, y), p};
  case IntOp::ShrU:
    return Elem{z3::lshr(x, y), p};
  }
  return std::nullopt;
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
      .Case([&](index::CmpOp cmp) {
        // The two enums list the same predicates in the same order.
        auto pred = arith::CmpIPredicate(uint64_t(cmp.getPred()));
        return Elem{e.boolToBv(compare(pred, a[0], a[1])), p};
      })
      .Case([&](LLVM::ICmpOp cmp) {
        // So does LLVM's.
        auto pred = arith::CmpIPredicate(uint64_t(cmp.getPredicate()));
        return Elem{e.boolToBv(compare(pred, a[0], a[1])), p};
      })
      .Case<arith::SelectOp, LLVM::SelectOp>([&](Operation *) {
        z3::expr cond = e.bvTrue(a[0]);
        return Elem{z3::ite(cond, a[1], a[2]),
                    pa[0] || z3::ite(cond, pa[1], pa[2])};
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, index::CastSOp, index::CastUOp, LLVM::SExtOp,
            LLVM::ZExtOp, LLVM::TruncOp>([&](Operation *) {
        unsigned from = a[0].get_sort().bv_size(), to = widthOf(rt);
        bool sgn = isa<arith::ExtSIOp, arith::IndexCastOp, index::CastSOp,
                       LLVM::SExtOp>(op);
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
      .Case<arith::AddFOp, LLVM::FAddOp>(
          [&](Operation *) { return Elem{e.fadd(a[0], a[1]), p}; })
      .Case<arith::SubFOp, LLVM::FSubOp>(
          [&](Operation *) { return Elem{e.fsub(a[0], a[1]), p}; })
      .Case<arith::MulFOp, LLVM::FMulOp>(
          [&](Operation *) { return Elem{e.fmul(a[0], a[1]), p}; })
      .Case<arith::DivFOp, LLVM::FDivOp>(
          [&](Operation *) { return Elem{e.fdiv(a[0], a[1]), p}; })
      .Case<arith::NegFOp, LLVM::FNegOp>(
          [&](Operation *) { return Elem{e.fneg(a[0]), p}; })
      .Case<arith::MaximumFOp, arith::MinimumFOp, LLVM::MaximumOp,
            LLVM::MinimumOp>([&](Operation *) {
        bool isMax = isa<arith::MaximumFOp, LLVM::MaximumOp>(op);
        return Elem{e.fmaxmin(a[0], a[1], isMax, true), p};
      })
      // llvm.intr.maxnum of +0 and -0 "returns either operand" (LangRef).
      .Case<arith::MaxNumFOp, arith::MinNumFOp, LLVM::MaxNumOp, LLVM::MinNumOp>(
          [&](Operation *) {
            bool isMax = isa<arith::MaxNumFOp, LLVM::MaxNumOp>(op);
            return Elem{e.fmaxmin(a[0], a[1], isMax, false, true), p};
          })
      .Case([&](arith::CmpFOp cmp) {
        return Elem{e.boolToBv(e.fcmp(cmp.getPredicate(), a[0], a[1])), p};
      })
      .Case([&](LLVM::FCmpOp cmp) {
        // The two enums list the same predicates in the same order.
        auto pred = arith::CmpFPredicate(uint64_t(cmp.getPredicate()));
        return Elem{e.boolToBv(e.fcmp(pred, a[0], a[1])), p};
      })
      .Case<arith::SIToFPOp, arith::UIToFPOp, LLVM::SIToFPOp, LLVM::UIToFPOp>(
          [&](Operation *) {
            bool sgn = isa<arith::SIToFPOp, LLVM::SIToFPOp>(op);
            return Elem{e.intToFloat(a[0], rt, sgn), p};
          })
      .Case<arith::FPToSIOp, arith::FPToUIOp, LLVM::FPToSIOp, LLVM::FPToUIOp>(
          [&](Operation *) {
            z3::expr bad = e.c.bool_val(false);
            bool sgn = isa<arith::FPToSIOp, LLVM::FPToSIOp>(op);
            z3::expr r = e.floatToInt(a[0], widthOf(rt), sgn, false, bad);
            return Elem{r, p || bad};
          })
      .Case<arith::ExtFOp, arith::TruncFOp, LLVM::FPExtOp, LLVM::FPTruncOp>(
          [&](Operation *) { return Elem{e.fcast(a[0], rt), p}; })
      .Case<arith::BitcastOp, LLVM::BitcastOp>([&](Operation *) {
        Type from = getElementTypeOrSelf(op->getOperand(0).getType());
        if (widthOf(from) != widthOf(rt))
          unsupported("a bitcast that regroups elements");
        z3::expr bits = a[0];
        if (Encoder::isFloat(from)) {
          auto [eb, sb] = e.fpBits(cast<FloatType>(from));
          bits = e.floatToBits(a[0], eb, sb);
        }
        return Elem{Encoder::isFloat(rt) ? e.bitsToFloat(bits, rt) : bits, p};
      })
      .Default(noMatch);
}

// Result `k` of addui_extended (the sum, then its carry as i1),
// mulsi_extended and mului_extended (the low, then the high half of the
// double-width product).
Elem extended(Encoder &e, Operation *op, unsigned k, const Exprs &a,
              const Exprs &pa) {
  z3::expr p = pa[0] || pa[1];
  unsigned w = a[0].get_sort().bv_size();
  if (isa<arith::AddUIExtendedOp>(op))
    return k == 0
               ? Elem{a[0] + a[1], p}
               : Elem{e.boolToBv(!z3::bvadd_no_overflow(a[0], a[1], false)), p};
  if (k == 0)
    return {a[0] * a[1], p};
  bool sgn = isa<arith::MulSIExtendedOp>(op);
  auto wide = [&](const z3::expr &x) {
    return sgn ? z3::sext(x, w) : z3::zext(x, w);
  };
  return {(wide(a[0]) * wide(a[1])).extract(2 * w - 1, w), p};
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
  if (auto cst = dyn_cast<LLVM::ConstantOp>(op)) {
    env[cst] = constant(cst.getValue(), cst.getType());
    return;
  }
  // llvm.mlir.poison, and undef as poison (the source may then be anything
  // there; the target's undef is at most as defined as poison).
  if (isa<LLVM::PoisonOp, LLVM::UndefOp, LLVM::ZeroOp>(op)) {
    Type t = op->getResult(0).getType();
    SVal v = undef(argShape(t), getElementTypeOrSelf(t));
    if (isa<LLVM::ZeroOp>(op))
      v.p.assign(v.p.size(), c.bool_val(false));
    env[op->getResult(0)] = std::move(v);
    return;
  }
  if (auto cst = dyn_cast<index::ConstantOp>(op)) {
    env[cst] = indexVal(cst.getValue().getSExtValue());
    return;
  }
  if (auto cst = dyn_cast<index::BoolConstantOp>(op)) {
    env[cst] = scalar(c.bv_val(uint64_t(cst.getValue()), 1), c.bool_val(false));
    return;
  }
  if (isa<index::SizeOfOp>(op)) {
    env[op->getResult(0)] = indexVal(64);
    return;
  }
  std::vector<SVal> ins = operandsOf(op);
  if (isa<arith::AddUIExtendedOp, arith::MulSIExtendedOp,
          arith::MulUIExtendedOp>(op)) {
    for (unsigned k = 0; k < 2; ++k)
      env[op->getResult(k)] =
          elementwise(ins, [&](const Exprs &v, const Exprs &p) {
            return extended(*this, op, k, v, p);
          });
    return;
  }
  if (op->getNumResults() != 1)
    unsupportedOp(op);
  env[op->getResult(0)] = elementwise(ins, [&](const Exprs &v, const Exprs &p) {
    return withFastMath(op, v, p, [&](const Exprs &fv, const Exprs &fp) {
      return scalarOp(*this, op, fv, fp);
    });
  });
  contractFastMath(op);
}

} // namespace cc::smt::detail
