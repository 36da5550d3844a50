// Reference semantics, type rules and emission of the elementwise ops
// (TOSA 1.0), checked against hand-computed values.
#include "OpTestUtil.h"

#include <cmath>
#include <tuple>

using namespace cc;
using namespace cc::test;

namespace {

TEST(ElementwiseOps, AddBroadcastsSizeOneDims) {
  expectValues("add",
               {f32s({2, 3}, {1, 2, 3, 4, 5, 6}), f32s({1, 3}, {10, 20, 30})},
               {11, 22, 33, 14, 25, 36});
  expectValues("add", {f32s({2, 1}, {1, 2}), f32s({1, 3}, {10, 20, 30})},
               {11, 21, 31, 12, 22, 32});
  expectValues("add", {f32s({2}, {kInf, -0.0}), f32s({2}, {-kInf, -0.0})},
               {kNaN, -0.0});
}

TEST(ElementwiseOps, AddTypeRule) {
  TensorType a{DType::f32, {2, 3}};
  expectTypeError("add", {a, {DType::f32, {2}}}, "equal ranks");
  expectTypeError("add", {a, {DType::f32, {2, 2}}}, "does not broadcast");
  expectTypeError("add", {a, {DType::i32, {2, 3}}}, "dtypes must match");
  expectTypeError("add", {{DType::i8, {2}}, {DType::i8, {2}}},
                  "expected one of");
  expectTypeError("add", {a}, "expects 2 operands");
  auto g = singleOpGraph("add", {{DType::bf16, {1, 4}}, {DType::bf16, {3, 1}}});
  ASSERT_TRUE(bool(g)) << g.error().message();
  EXPECT_EQ(g->typeOf(g->outputs[0]), (TensorType{DType::bf16, {3, 4}}));
}

TEST(ElementwiseOps, IntegerAddSubOverflowIsUndefined) {
  expectValues("add", {i32s({2}, {kI32Max - 1, -5}), i32s({2}, {1, 3})},
               {kI32Max, -2});
  expectUndefined("add", {i32s({2}, {0, kI32Max}), i32s({2}, {1, 1})}, "[1]");
  expectValues("sub", {i32s({1}, {kI32Min + 1}), i32s({1}, {1})}, {kI32Min});
  expectUndefined("sub", {i32s({1, 2}, {0, kI32Min}), i32s({1, 1}, {1})},
                  "[0,1]");
}

TEST(ElementwiseOps, SubKeepsSignedZeroAndRoundsInTargetPrecision) {
  expectValues("sub", {f32s({1}, {-0.0}), f32s({1}, {0.0})}, {-0.0});
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10 in f16: even wins.
  Tensor one = tensorOf(DType::f16, {1}, {1});
  Tensor tiny = tensorOf(DType::f16, {1}, {std::ldexp(1.0, -11)});
  expectValues("add", {one, tiny}, {1.0}, {}, Precision::Target);
  expectValues("add", {one, tiny}, {1.0 + std::ldexp(1.0, -11)});
}

TEST(ElementwiseOps, MulRoundsShiftedI32Products) {
  // (p + 2^(s-1)) >> s: rounds half up (toward +inf) on ties.
  expectValues("mul", {i32s({4}, {3, -3, 7, -7}), i32s({4}, {5, 5, 1, 1})},
               {8, -7, 4, -3}, attrsOf({{"shift", int64_t(1)}}));
  expectValues("mul", {i32s({2}, {7, 1 << 20}), i32s({2}, {1, 1 << 10})},
               {2, 1 << 28}, attrsOf({{"shift", int64_t(2)}}));
  // Without a shift the low 32 bits are kept.
  expectValues("mul", {i32s({2}, {65536, kI32Max}), i32s({2}, {65536, 2})},
               {0, -2});
  expectUndefined("mul", {i32s({1}, {kI32Max}), i32s({1}, {4})}, "[0]",
                  attrsOf({{"shift", int64_t(1)}}));
  // Shift 63: (2^62 + 2^62) >> 63 = 1, with no 64-bit wrap-around;
  // (2^31 - 2^62 + 2^62) >> 63 = 0.
  expectValues("mul",
               {i32s({2}, {kI32Min, kI32Min}), i32s({2}, {kI32Min, kI32Max})},
               {1, 0}, attrsOf({{"shift", int64_t(63)}}));
}

TEST(ElementwiseOps, MulWidensI8AndI16ToI32) {
  auto g = singleOpGraph("mul", {{DType::i8, {2}}, {DType::i8, {2}}});
  ASSERT_TRUE(bool(g)) << g.error().message();
  EXPECT_EQ(g->typeOf(g->outputs[0]).dtype, DType::i32);
  expectValues("mul",
               {tensorOf(DType::i8, {2}, {-128, 127}),
                tensorOf(DType::i8, {2}, {-128, -128})},
               {16384, -16256});
  expectValues("mul",
               {tensorOf(DType::i16, {1}, {-32768}),
                tensorOf(DType::i16, {1}, {-32768})},
               {1073741824});
}

TEST(ElementwiseOps, MulShiftRule) {
  TensorType f{DType::f32, {2}}, i8{DType::i8, {2}}, i32{DType::i32, {2}};
  expectTypeError("mul", {f, f}, "shift must be 0",
                  attrsOf({{"shift", int64_t(1)}}));
  expectTypeError("mul", {i8, i8}, "shift must be 0",
                  attrsOf({{"shift", int64_t(3)}}));
  expectTypeError("mul", {i32, i32}, "outside [0, 63]",
                  attrsOf({{"shift", int64_t(64)}}));
  expectValues("mul", {f32s({2}, {-0.0, kInf}), f32s({2}, {5, 0})},
               {-0.0, kNaN});
}

TEST(ElementwiseOps, IntdivTruncatesAndReportsUndefined) {
  expectValues("intdiv",
               {i32s({4}, {7, -7, 7, kI32Min}), i32s({4}, {2, 2, -2, 1})},
               {3, -3, -3, kI32Min});
  expectUndefined("intdiv", {i32s({3}, {1, 2, 3}), i32s({3}, {1, 0, 1})},
                  "[1]");
  expectUndefined("intdiv", {i32s({2}, {5, kI32Min}), i32s({1}, {-1})}, "[1]");
  expectTypeError("intdiv", {{DType::f32, {1}}, {DType::f32, {1}}},
                  "expected one of");
  EXPECT_EQ(findOp("intdiv")->domain(1), Domain::NonZero);
}

TEST(ElementwiseOps, MaximumMinimumNanModes) {
  Tensor a = f32s({4}, {kNaN, 1, -0.0, 0.0});
  Tensor b = f32s({4}, {2, kNaN, 0.0, -0.0});
  Attrs propagate = attrsOf({{"nan_mode", std::string("PROPAGATE")}});
  Attrs ignore = attrsOf({{"nan_mode", std::string("IGNORE")}});
  // a >= b ? a : b, so max(-0, +0) is the first operand.
  expectValues("maximum", {a, b}, {kNaN, kNaN, -0.0, 0.0}, propagate);
  expectValues("maximum", {a, b}, {2, 1, -0.0, 0.0}, ignore);
  // a < b ? a : b, so min(-0, +0) is the second operand.
  expectValues("minimum", {a, b}, {kNaN, kNaN, 0.0, -0.0});
  expectValues("minimum", {a, b}, {2, 1, 0.0, -0.0}, ignore);
  expectValues("maximum", {f32s({2}, {kNaN, -kInf}), f32s({2}, {kNaN, -5})},
               {kNaN, -5}, ignore);
  expectValues("minimum", {i32s({2}, {kI32Min, 4}), i32s({1}, {3})},
               {kI32Min, 3});
  expectTypeError("maximum", {{DType::f32, {1}}, {DType::f32, {1}}}, "nan_mode",
                  attrsOf({{"nan_mode", std::string("SOMETIMES")}}));
}

TEST(ElementwiseOps, PowDomain) {
  expectValues("pow", {f32s({4}, {2, 4, 0, 1}), f32s({4}, {10, 0.5, 2, kInf})},
               {1024, 2, 0, 1});
  // Undefined results (a NaN operand, a negative base, 0 ** y for y <= 0)
  // are elements of the reference's Latitude, computed as a NaN stand-in.
  expectValues("pow", {f32s({1}, {kNaN}), f32s({1}, {0})}, {kNaN});
  expectValues("pow", {f32s({2}, {1, -2}), f32s({2}, {2, 2})}, {1, kNaN});
  const OpDef &pow = *findOp("pow");
  for (auto [x, y, undefined] : {std::tuple{1.0, kNaN, true},
                                 {kNaN, 0.0, true},
                                 {-2.0, 2.0, true},
                                 {0.0, 0.0, true},
                                 {0.0, -1.0, true},
                                 {0.0, 2.0, false},
                                 {2.0, -1.0, false}}) {
    double xy[] = {x, y};
    EXPECT_EQ(pow.freedoms.undefinedAt(xy), undefined) << x << " ** " << y;
  }
  expectTypeError("pow", {{DType::i32, {1}}, {DType::i32, {1}}},
                  "expected one of");
}

TEST(ElementwiseOps, AbsAndNegate) {
  expectValues("abs", {f32s({4}, {-0.0, -kInf, -2.5, kNaN})},
               {0.0, kInf, 2.5, kNaN});
  expectValues("abs", {i32s({2}, {-5, kI32Max})}, {5, kI32Max});
  expectUndefined("abs", {i32s({2}, {1, kI32Min})}, "[1]");
  expectValues("negate", {f32s({3}, {0.0, -0.0, kInf})}, {-0.0, 0.0, -kInf});
  // i8 and i16 negate in an i32 accumulator and clip.
  expectValues("negate", {tensorOf(DType::i8, {3}, {-128, 127, 0})},
               {127, -127, 0});
  expectValues("negate", {tensorOf(DType::i16, {1}, {-32768})}, {32767});
  expectUndefined("negate", {i32s({1}, {kI32Min})}, "[0]");
}

TEST(ElementwiseOps, FloatUnarySpecialValues) {
  expectValues("log", {f32s({4}, {0, -0.0, -1, kInf})},
               {-kInf, -kInf, kNaN, kInf});
  expectValues("exp", {f32s({3}, {0, -kInf, kNaN})}, {1, 0, kNaN});
  expectValues("rsqrt", {f32s({4}, {4, 0, -1, kInf})}, {0.5, kInf, kNaN, 0});
  expectValues("reciprocal", {f32s({3}, {-0.0, 4, -kInf})},
               {-kInf, 0.25, -0.0});
  expectValues("floor", {f32s({3}, {-0.5, 2.5, -0.0})}, {-1, 2, -0.0});
  expectValues("ceil", {f32s({3}, {-0.5, 2.5, kInf})}, {-0.0, 3, kInf});
  expectValues("tanh", {f32s({3}, {0, kInf, -kInf})}, {0, 1, -1});
  expectValues("sigmoid", {f32s({3}, {0, kInf, -kInf})}, {0.5, 1, 0});
  expectValues("erf", {f32s({3}, {-0.0, kInf, -kInf})}, {-0.0, 1, -1});
  expectValues("exp", {f32s({1}, {1})}, {std::exp(1.0)});
  // Rounded to bf16 after the op under Target precision.
  expectValues("exp", {tensorOf(DType::bf16, {1}, {1})},
               {bf16BitsToF64(f64ToBF16Bits(std::exp(1.0)))}, {},
               Precision::Target);
  expectTypeError("exp", {{DType::i32, {1}}}, "expected one of");
  EXPECT_EQ(findOp("log")->domain(0), Domain::Positive);
}

TEST(ElementwiseOps, ClampNanModesAndBounds) {
  Attrs relu6 = attrsOf({{"min", 0.0}, {"max", 6.0}});
  // -0 stays -0: apply_max_s(-0, +0) returns its first operand.
  expectValues("clamp", {f32s({5}, {-1, 3, 7, kNaN, -0.0})},
               {0, 3, 6, kNaN, -0.0}, relu6);
  Attrs ignore = relu6;
  ignore.set("nan_mode", std::string("IGNORE"));
  expectValues("clamp", {f32s({2}, {kNaN, kInf})}, {0, 6}, ignore);
  // Bounds have the element type: 0.1 is rounded to f16 first.
  double f16Tenth = f16BitsToF64(f64ToF16Bits(0.1));
  expectValues("clamp", {tensorOf(DType::f16, {1}, {0})}, {f16Tenth},
               attrsOf({{"min", 0.1}, {"max", 1.0}}));
  expectValues("clamp", {tensorOf(DType::i8, {3}, {-128, 5, 127})}, {-3, 5, 9},
               attrsOf({{"min", -3.0}, {"max", 9.0}}));
  TensorType i8{DType::i8, {2}}, f{DType::f32, {2}};
  expectTypeError("clamp", {f}, "below min",
                  attrsOf({{"min", 2.0}, {"max", 1.0}}));
  expectTypeError("clamp", {f}, "NaN", attrsOf({{"min", kNaN}, {"max", 1.0}}));
  expectTypeError("clamp", {i8}, "not an integer",
                  attrsOf({{"min", 0.5}, {"max", 1.0}}));
  expectTypeError("clamp", {i8}, "range of i8",
                  attrsOf({{"min", -200.0}, {"max", 1.0}}));
  expectTypeError("clamp", {{DType::i32, {2}}}, "expected one of", relu6);
}

TEST(ElementwiseOps, SelectBroadcastsAllOperands) {
  Tensor cond = tensorOf(DType::i1, {2, 1}, {1, 0});
  expectValues("select",
               {cond, f32s({1, 2}, {1, 2}), f32s({2, 2}, {5, 6, 7, 8})},
               {1, 2, 7, 8});
  expectValues("select",
               {cond, i32s({2, 1}, {kI32Min, 3}), i32s({2, 1}, {0, kI32Max})},
               {kI32Min, kI32Max});
  TensorType c{DType::i1, {2}}, f{DType::f32, {2}};
  expectTypeError("select", {f, f, f}, "condition");
  expectTypeError("select", {c, f, {DType::f16, {2}}}, "dtypes must match");
}

const std::vector<std::string> kElementwiseOps = {
    "add",   "sub",        "mul",   "intdiv", "maximum", "minimum", "pow",
    "abs",   "negate",     "exp",   "log",    "tanh",    "sigmoid", "erf",
    "rsqrt", "reciprocal", "floor", "ceil",   "clamp",   "select"};

TEST(ElementwiseOps, EveryOpHasACompleteEntry) {
  expectCompleteEntries(kElementwiseOps);
}

TEST(ElementwiseOps, EmissionParsesWithMlir22) {
  expectEmissionParses(kElementwiseOps, 22);
}

TEST(ElementwiseOps, EmissionParsesWithMlir19) {
  expectEmissionParses(kElementwiseOps, 19);
}

TEST(ElementwiseOps, NanModeSurvivesMlir22Parsing) {
  // A string nan_mode would be dropped silently by MLIR 22's parser.
  if (!haveTool("mlir-opt-22"))
    GTEST_SKIP() << "mlir-opt-22 is not installed";
  TensorType t{DType::f32, {2}};
  Attrs ignore = attrsOf({{"nan_mode", std::string("IGNORE")}});
  auto g = singleOpGraph("maximum", {t, t}, ignore);
  ASSERT_TRUE(bool(g));
  auto text = emitFunction(*g, 22);
  ASSERT_TRUE(bool(text)) << text.error().message();
  ToolRun run = runMlirOpt("mlir-opt-22", *text);
  ASSERT_TRUE(run.ok) << run.output;
  EXPECT_NE(run.output.find("nan_mode = IGNORE"), std::string::npos)
      << run.output;
  auto old = emitFunction(*g, 19);
  ASSERT_FALSE(bool(old));
  EXPECT_EQ(old.error().code(), ErrorCode::Unsupported);
}

TEST(ElementwiseOps, MulAndNegateEmitTheirExtraOperands) {
  auto g = singleOpGraph("mul", {{DType::i32, {2}}, {DType::i32, {2}}},
                         attrsOf({{"shift", int64_t(5)}}));
  ASSERT_TRUE(bool(g));
  auto text = emitFunction(*g, 22);
  ASSERT_TRUE(bool(text));
  EXPECT_NE(text->find("dense<5> : tensor<1xi8>"), std::string::npos) << *text;
  auto neg = singleOpGraph("negate", {{DType::f16, {2}}});
  ASSERT_TRUE(bool(neg));
  auto negText = emitFunction(*neg, 22);
  ASSERT_TRUE(bool(negText));
  EXPECT_NE(negText->find(": tensor<1xf16>"), std::string::npos) << *negText;
}

} // namespace
