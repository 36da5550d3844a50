// Comparison, logical (i1), bitwise and shift ops of TOSA 1.0.
#include "core/ops/Families.h"
#include "core/ops/Kernels.h"

#include <functional>

namespace cc {

namespace {

using Results = Expected<std::vector<Tensor>>;
using IntElem = Elem<int64_t>;

constexpr DType i1 = DType::i1, i8 = DType::i8, i16 = DType::i16,
                i32 = DType::i32;
const std::vector<DType> kInt = {i8, i16, i32};

// EQUAL, GREATER, GREATER_EQUAL: i1 results; a NaN operand compares false,
// as C++'s ==, > and >= on doubles do.
template <typename Cmp> OpDef compareOp(OpId id, const char *summary) {
  OpDef op = elementwiseOp(
      id, summary, 2, {DType::f32, DType::f16, DType::bf16, i32},
      [](const EvalArgs &args) {
        return floatOrInt(
            args, [](const double *x) { return double(Cmp{}(x[0], x[1])); },
            [](const int64_t *x, DType) { return int64_t(Cmp{}(x[0], x[1])); });
      },
      i1);
  op.rounding = Rounding::fixed(0);
  op.intExtremes = IntExtremes::AllOperands;
  op.range = fixedRange(0, 1);
  op.freedoms.openWithin = openWhenMoved(op.eval); // a float tie
  op.notes = "result i1; a NaN operand compares false";
  return op;
}

// Integer ops whose result is exact in int64 and wraps to the dtype when
// written (bitwise ops on sign-extended values stay sign-extended).
template <typename Fn>
OpDef intOp(OpId id, const char *summary, int arity, std::vector<DType> dtypes,
            Fn fn) {
  OpDef op = elementwiseOp(id, summary, arity, std::move(dtypes),
                           [fn](const EvalArgs &args) {
                             return mapElements<int64_t>(
                                 args, [&](const int64_t *x) { return fn(x); });
                           });
  op.rounding = Rounding::fixed(0);
  op.intExtremes = IntExtremes::AllOperands; // wraps
  return op;
}

// TOSA 1.0 REQUIREs 0 <= shift < bit width for both shift ops.
bool badShift(int64_t amount, DType t) {
  return amount < 0 || amount >= bitWidth(t);
}

OpDef arithmeticRightShiftOp() {
  OpDef op = elementwiseOp(
      OpId::ArithmeticRightShift,
      "arithmetic right shift, optionally rounding to nearest (ties up)", 2,
      kInt, [](const EvalArgs &args) {
        bool round = args.attrs().getBool("round");
        DType t = args.in(0).dtype();
        return mapElements<int64_t>(args, [&](const int64_t *x) -> IntElem {
          if (badShift(x[1], t))
            return IntElem::why("shift amount out of range");
          int64_t result = x[0] >> x[1];
          if (round && x[1] > 0 && ((x[0] >> (x[1] - 1)) & 1))
            result += 1;
          return result;
        });
      });
  op.attrs = {{"round", AttrKind::Bool, AttrValue(false),
               "round to nearest: add the last bit shifted out"}};
  op.domains = {Domain::Any, Domain::ShiftAmount};
  op.intExtremes = IntExtremes::FirstOperand;       // the shifted value
  op.sampleOperands = elementwiseOperands(2, 0b10); // amounts from the inputs
  op.rounding = Rounding::fixed(0);
  // Shifting (even with rounding) moves a value toward zero, never past it.
  op.range = [](const std::vector<Interval> &x, const std::vector<TensorType> &,
                const Attrs &) {
    return Interval{std::min(x[0].lo, 0.0), std::max(x[0].hi, 0.0), false};
  };
  op.emit = [](EmitContext &ctx, const Node &node) {
    emitOp(ctx, node, "tosa.arithmetic_right_shift",
           std::string("round = ") +
               (node.attrs.getBool("round") ? "true" : "false"));
    return Error();
  };
  op.sampleAttrs = [](Rng &rng, const std::vector<TensorType> &) {
    Attrs a;
    a.set("round", rng.chance(0.5));
    return a;
  };
  op.notes = "shift amount in [0, width)";
  return op;
}

OpDef logicalLeftShiftOp() {
  OpDef op = elementwiseOp(
      OpId::LogicalLeftShift, "left shift (bits shifted out are lost)", 2, kInt,
      [](const EvalArgs &args) {
        DType t = args.in(0).dtype();
        return mapElements<int64_t>(args, [t](const int64_t *x) -> IntElem {
          if (badShift(x[1], t))
            return IntElem::why("shift amount out of range");
          // Unsigned, so that no bit pattern is UB in C++; the result wraps
          // to t when written.
          return int64_t(uint64_t(x[0]) << x[1]);
        });
      });
  op.domains = {Domain::Any, Domain::ShiftAmount};
  op.intExtremes = IntExtremes::FirstOperand;       // the shifted value
  op.sampleOperands = elementwiseOperands(2, 0b10); // amounts from the inputs
  op.rounding = Rounding::fixed(0);
  op.notes = "shift amount in [0, width)";
  return op;
}

} // namespace

void addLogicalOps(std::vector<OpDef> &ops) {
  ops.push_back(
      compareOp<std::equal_to<>>(OpId::Equal, "elementwise a == b (i1)"));
  ops.push_back(
      compareOp<std::greater<>>(OpId::Greater, "elementwise a > b (i1)"));
  ops.push_back(compareOp<std::greater_equal<>>(OpId::GreaterEqual,
                                                "elementwise a >= b (i1)"));
  ops.push_back(intOp(OpId::LogicalAnd, "boolean and", 2, {i1},
                      [](const int64_t *x) { return x[0] & x[1]; }));
  ops.push_back(intOp(OpId::LogicalOr, "boolean or", 2, {i1},
                      [](const int64_t *x) { return x[0] | x[1]; }));
  ops.push_back(intOp(OpId::LogicalNot, "boolean not", 1, {i1},
                      [](const int64_t *x) { return int64_t(!x[0]); }));
  ops.push_back(intOp(OpId::BitwiseAnd, "bitwise and", 2, kInt,
                      [](const int64_t *x) { return x[0] & x[1]; }));
  ops.push_back(intOp(OpId::BitwiseOr, "bitwise or", 2, kInt,
                      [](const int64_t *x) { return x[0] | x[1]; }));
  ops.push_back(intOp(OpId::BitwiseXor, "bitwise xor", 2, kInt,
                      [](const int64_t *x) { return x[0] ^ x[1]; }));
  ops.push_back(arithmeticRightShiftOp());
  ops.push_back(logicalLeftShiftOp());
}

} // namespace cc
