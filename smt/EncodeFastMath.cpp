// Fast-math flags of arith, math and llvm ops (#arith.fastmath,
// #llvm.fastmath), read as LLVM's LangRef defines the flags of the same
// names and Alive2 encodes them:
// nnan and ninf turn a NaN or infinite operand or result into poison; nsz
// makes the sign of a zero operand or result insignificant; arcp allows a
// division to be a multiplication by the reciprocal; contract allows a
// multiply and an add that both carry it to be fused. These freedoms are
// the source's open choices (Encoder::choose); the target computes the
// exact result, which is one of its behaviours. reassoc and afn allow
// values the encoding does not enumerate: they are recorded, and a
// counterexample the source computes under them is not a miscompile
// (Counterexample.cpp).
#include "smt/Encoder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

using Exprs = std::vector<z3::expr>;
using arith::FastMathFlags;

// llvm's flags of the same names, as arith's.
FastMathFlags fromLlvm(LLVM::FastmathFlags f) {
  using L = LLVM::FastmathFlags;
  const std::pair<L, FastMathFlags> kSame[] = {
      {L::nnan, FastMathFlags::nnan},         {L::ninf, FastMathFlags::ninf},
      {L::nsz, FastMathFlags::nsz},           {L::arcp, FastMathFlags::arcp},
      {L::contract, FastMathFlags::contract}, {L::afn, FastMathFlags::afn},
      {L::reassoc, FastMathFlags::reassoc}};
  FastMathFlags r = FastMathFlags::none;
  for (auto [l, a] : kSame)
    if (LLVM::bitEnumContainsAll(f, l))
      r = r | a;
  return r;
}

FastMathFlags flagsOf(Operation *op) {
  if (auto fm = dyn_cast_or_null<LLVM::FastmathFlagsInterface>(op)) {
    LLVM::FastmathFlagsAttr attr = fm.getFastmathAttr();
    return attr ? fromLlvm(attr.getValue()) : FastMathFlags::none;
  }
  auto fm = dyn_cast_or_null<arith::ArithFastMathInterface>(op);
  if (!fm)
    return FastMathFlags::none;
  arith::FastMathFlagsAttr attr = fm.getFastMathFlagsAttr();
  return attr ? attr.getValue() : FastMathFlags::none;
}

bool has(FastMathFlags flags, FastMathFlags f) {
  return arith::bitEnumContainsAll(flags, f);
}

} // namespace

Elem Encoder::withFastMath(
    Operation *op, const Exprs &a, const Exprs &pa,
    llvm::function_ref<Elem(const Exprs &, const Exprs &)> exact) {
  FastMathFlags f = flagsOf(op);
  if (f == FastMathFlags::none || mode != FMode::Ieee)
    return exact(a, pa);
  if (openChoices && has(f, FastMathFlags::reassoc))
    unmodelledFlags.insert("reassoc");
  if (openChoices && has(f, FastMathFlags::afn))
    unmodelledFlags.insert("afn");
  bool nsz = has(f, FastMathFlags::nsz) && canChoose();
  auto flipZero = [&](const z3::expr &x) {
    if (!x.get_sort().is_fpa())
      return x;
    z3::expr zero(c, Z3_mk_fpa_is_zero(c, x));
    return z3::ite(zero && choose("the zero signs nsz leaves open"), fneg(x),
                   x);
  };
  Exprs args = a;
  if (nsz)
    for (z3::expr &x : args)
      x = flipZero(x);
  Elem r = exact(args, pa);
  if (has(f, FastMathFlags::arcp) && canChoose() &&
      isa<arith::DivFOp, LLVM::FDivOp>(op)) {
    z3::expr one = fpConst(1.0, args[1].get_sort());
    r.first = z3::ite(choose("the reciprocals arcp allows"),
                      fmul(args[0], fdiv(one, args[1])), r.first);
  }
  if (nsz)
    r.first = flipZero(r.first);
  // Poison where an operand or the result is NaN (nnan) or infinite (ninf).
  Exprs seen = a;
  seen.push_back(r.first);
  for (const z3::expr &x : seen) {
    if (!x.get_sort().is_fpa())
      continue;
    if (has(f, FastMathFlags::nnan))
      r.second = r.second || isNaN(x);
    if (has(f, FastMathFlags::ninf))
      r.second = r.second || z3::expr(c, Z3_mk_fpa_is_infinite(c, x));
  }
  return r;
}

// x*y + z, x*y - z and z - x*y as one rounding: fma(x, y, z), fma(x, y,
// -z), fma(-x, y, z). Each element chooses; an add of two products may
// fuse either.
void Encoder::contractFastMath(Operation *op) {
  if (!canChoose() ||
      !isa<arith::AddFOp, arith::SubFOp, LLVM::FAddOp, LLVM::FSubOp>(op) ||
      !has(flagsOf(op), FastMathFlags::contract))
    return;
  bool sub = isa<arith::SubFOp, LLVM::FSubOp>(op);
  SVal &r = env[op->getResult(0)];
  for (unsigned k = 0; k < 2; ++k) {
    Operation *mul = op->getOperand(k).getDefiningOp();
    if (!isa_and_present<arith::MulFOp, LLVM::FMulOp>(mul) ||
        !has(flagsOf(mul), FastMathFlags::contract))
      continue;
    const SVal &x = get(mul->getOperand(0)), &y = get(mul->getOperand(1));
    const SVal &z = get(op->getOperand(1 - k));
    if (x.size() != r.size() || y.size() != r.size() || z.size() != r.size())
      continue;
    for (int64_t i = 0; i < r.size(); ++i) {
      size_t j = size_t(i);
      z3::expr xi = sub && k == 1 ? fneg(x.v[j]) : x.v[j];
      z3::expr zi = sub && k == 0 ? fneg(z.v[j]) : z.v[j];
      z3::expr fused = mathFn("fma", {xi, y.v[j], zi});
      r.v[j] = z3::ite(choose("the fused multiply-adds contract allows"), fused,
                       r.v[j]);
    }
  }
}

} // namespace cc::smt::detail
