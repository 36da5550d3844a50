// Reference semantics, type rules and emission of the comparison, logical,
// bitwise and shift ops (TOSA 1.0), checked against hand-computed values.
#include "OpTestUtil.h"

using namespace cc;
using namespace cc::test;

namespace {

Tensor i8s(Shape s, std::vector<double> v) { return tensorOf(DType::i8, s, v); }
Tensor bools(Shape s, std::vector<double> v) {
  return tensorOf(DType::i1, s, v);
}

TEST(LogicalOps, ComparisonsAreFalseOnNaN) {
  Tensor a = f32s({5}, {1, kNaN, -0.0, kInf, 2});
  Tensor b = f32s({5}, {1, kNaN, 0.0, kInf, 3});
  expectValues("equal", {a, b}, {1, 0, 1, 1, 0});
  expectValues("greater", {a, b}, {0, 0, 0, 0, 0});
  expectValues("greater_equal", {a, b}, {1, 0, 1, 1, 0});
  expectValues("greater",
               {i32s({2, 1}, {kI32Min, 5}), i32s({1, 2}, {kI32Max, 4})},
               {0, 0, 0, 1});
  auto g = singleOpGraph("equal", {{DType::bf16, {2}}, {DType::bf16, {1}}});
  ASSERT_TRUE(bool(g)) << g.error().message();
  EXPECT_EQ(g->typeOf(g->outputs[0]), (TensorType{DType::i1, {2}}));
  expectTypeError("equal", {{DType::i8, {2}}, {DType::i8, {2}}},
                  "expected one of");
  expectTypeError("greater", {{DType::f32, {3}}, {DType::f32, {2}}},
                  "does not broadcast");
}

TEST(LogicalOps, BooleanOps) {
  Tensor a = bools({4}, {0, 0, 1, 1});
  Tensor b = bools({4}, {0, 1, 0, 1});
  expectValues("logical_and", {a, b}, {0, 0, 0, 1});
  expectValues("logical_or", {a, b}, {0, 1, 1, 1});
  expectValues("logical_not", {a}, {1, 1, 0, 0});
  expectValues("logical_and", {bools({2, 1}, {1, 0}), bools({1, 2}, {1, 0})},
               {1, 0, 0, 0});
  expectTypeError("logical_or", {{DType::i32, {2}}, {DType::i32, {2}}},
                  "expected one of");
}

TEST(LogicalOps, BitwiseOpsKeepTheSign) {
  Tensor a = i8s({3}, {-128, 0x55, -1});
  Tensor b = i8s({3}, {-1, 0x0F, 0x7F});
  expectValues("bitwise_and", {a, b}, {-128, 0x05, 0x7F});
  expectValues("bitwise_or", {a, b}, {-1, 0x5F, -1});
  expectValues("bitwise_xor", {a, b}, {0x7F, 0x5A, -128});
  expectValues("bitwise_xor", {i32s({1}, {kI32Min}), i32s({1}, {-1})},
               {kI32Max});
  expectTypeError("bitwise_and", {{DType::f32, {1}}, {DType::f32, {1}}},
                  "expected one of");
}

TEST(LogicalOps, ArithmeticRightShiftRounding) {
  Tensor a = i32s({6}, {-7, -8, 7, 6, kI32Min, kI32Max});
  Tensor s = i32s({6}, {1, 2, 1, 2, 31, 31});
  expectValues("arithmetic_right_shift", {a, s}, {-4, -2, 3, 1, -1, 0});
  // round: adds the last bit shifted out, so ties go up (toward +inf).
  Attrs round;
  round.set("round", true);
  expectValues("arithmetic_right_shift", {a, s}, {-3, -2, 4, 2, -1, 1}, round);
  expectValues("arithmetic_right_shift", {i8s({2}, {-128, 127}), i8s({1}, {7})},
               {-1, 1}, round);
  expectValues("arithmetic_right_shift", {i8s({1}, {-5}), i8s({1}, {0})}, {-5},
               round);
}

TEST(LogicalOps, ShiftAmountsOutOfRangeAreUndefined) {
  expectUndefined("arithmetic_right_shift",
                  {i8s({2}, {1, 1}), i8s({2}, {7, 8})}, "[1]");
  expectUndefined("arithmetic_right_shift", {i32s({1}, {1}), i32s({1}, {-1})},
                  "[0]");
  expectUndefined("logical_left_shift",
                  {i32s({2}, {1, 1}), i32s({2}, {31, 32})}, "[1]");
  expectUndefined("logical_left_shift",
                  {tensorOf(DType::i16, {1, 2}, {1, 1}),
                   tensorOf(DType::i16, {1, 2}, {15, 16})},
                  "[0,1]");
  EXPECT_EQ(findOp("logical_left_shift")->domain(1), Domain::ShiftAmount);
}

TEST(LogicalOps, LogicalLeftShiftWraps) {
  expectValues("logical_left_shift",
               {i8s({3}, {1, 3, -1}), i8s({3}, {7, 7, 1})}, {-128, -128, -2});
  expectValues("logical_left_shift", {i32s({2}, {1, kI32Max}), i32s({1}, {31})},
               {kI32Min, kI32Min});
}

const std::vector<std::string> kLogicalOps = {"equal",
                                              "greater",
                                              "greater_equal",
                                              "logical_and",
                                              "logical_or",
                                              "logical_not",
                                              "bitwise_and",
                                              "bitwise_or",
                                              "bitwise_xor",
                                              "arithmetic_right_shift",
                                              "logical_left_shift"};

TEST(LogicalOps, EveryOpHasACompleteEntry) {
  expectCompleteEntries(kLogicalOps);
}

TEST(LogicalOps, EmissionParsesWithMlir22) {
  expectEmissionParses(kLogicalOps, 22);
}

TEST(LogicalOps, EmissionParsesWithMlir19) {
  expectEmissionParses(kLogicalOps, 19);
}

} // namespace
