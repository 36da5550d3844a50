// What TOSA leaves open is never a finding: for each freedom of the op
// table, a compiler result that only a permitted choice explains fails
// without the reference's Latitude and passes with it, and a genuine
// difference next to it is still reported.
#include "backends/ref/Interpreter.h"
#include "oracles/Numeric.h"

#include "GraphBuild.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace cc;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor f32s(Shape s, const std::vector<double> &v) {
  Tensor t(DType::f32, std::move(s));
  for (size_t i = 0; i < v.size(); ++i)
    t.setF(int64_t(i), v[i]);
  return t;
}

Tensor ints(DType d, Shape s, const std::vector<int64_t> &v) {
  Tensor t(d, std::move(s));
  for (size_t i = 0; i < v.size(); ++i)
    t.setI(int64_t(i), v[i]);
  return t;
}

using test::add;
using test::axis;

// The compiler result `actual` judged with and without the latitude.
struct Judged {
  bool withLatitude, without;
  NumericReport report;
};
Judged judge(const Graph &g, const Inputs &in, const Outputs &actual) {
  Outputs mags;
  Latitude lat;
  lat.permittedError = permittedErrors(g);
  auto ref = interpret(g, in, Precision::F64, &mags, &lat);
  auto target = interpret(g, in, Precision::Target);
  EXPECT_TRUE(ref && target);
  if (!ref || !target)
    return {false, false, {}};
  NumericReport with = judgeNumeric(g, actual, *ref, *target, {}, &mags, &lat);
  bool without = judgeNumeric(g, actual, *ref, *target, {}, &mags).ok;
  return {with.ok, without, with};
}

// reciprocal(reduce_sum(x)) over an axis of extent 1: the sum's zero may
// be -0.0 (a fold to x), so its reciprocal may be -Inf.
Graph sumThenReciprocal() {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {2, 1}});
  g.addOutput(add(g, "reciprocal", {add(g, "reduce_sum", {x}, axis(1))}));
  return g;
}

} // namespace

TEST(Latitude, ZeroSignOfASumIsOpen) {
  Graph g = sumThenReciprocal();
  Inputs in = {f32s({2, 1}, {-0.0, 4})};
  Judged j = judge(g, in, {f32s({2, 1}, {-kInf, 0.25})});
  EXPECT_FALSE(j.without);
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  EXPECT_EQ(j.report.outputs[0].otherZeroSign, 1);
  // Next to it, a wrong value is still wrong, and so is a NaN.
  EXPECT_FALSE(judge(g, in, {f32s({2, 1}, {-kInf, 0.5})}).withLatitude);
  EXPECT_FALSE(judge(g, in, {f32s({2, 1}, {kNaN, 0.25})}).withLatitude);
}

TEST(Latitude, ZeroSignOfExactOpsIsNotOpen) {
  // reciprocal(-0.0) of an input is -Inf: no op here leaves a sign open.
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {2}});
  g.addOutput(add(g, "reciprocal", {add(g, "negate", {x})}));
  Judged j = judge(g, {f32s({2}, {0.0, 2})}, {f32s({2}, {kInf, -0.5})});
  EXPECT_FALSE(j.withLatitude);
  EXPECT_FALSE(j.without);
}

TEST(Latitude, ZeroSignOfAMaximumIsOpen) {
  Graph g;
  ValueId a = g.addInput("a", {DType::f32, {2}});
  ValueId b = g.addInput("b", {DType::f32, {2}});
  g.addOutput(add(g, "reciprocal", {add(g, "maximum", {a, b})}));
  Inputs in = {f32s({2}, {0.0, 1}), f32s({2}, {-0.0, -0.0})};
  Judged j = judge(g, in, {f32s({2}, {-kInf, 1})});
  EXPECT_FALSE(j.without);
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  // max(1, -0) is 1 whatever the choice: its reciprocal -Inf is wrong.
  EXPECT_FALSE(judge(g, in, {f32s({2}, {-kInf, -kInf})}).withLatitude);
}

TEST(Latitude, UndefinedPowAcceptsAnyValueAndWhatFollows) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {3}});
  ValueId y = g.addInput("y", {DType::f32, {3}});
  ValueId p = add(g, "pow", {x, y});
  g.addOutput(p);
  g.addOutput(add(g, "add", {p, p}));
  // pow(1, NaN) is undefined in TOSA 1.0 (C's pow gives 1); pow(2, 2) is 4.
  Inputs in = {f32s({3}, {1, 2, 3}), f32s({3}, {kNaN, 2, 1})};
  Judged j = judge(g, in, {f32s({3}, {1, 4, 3}), f32s({3}, {2, 8, 6})});
  EXPECT_FALSE(j.without);
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  EXPECT_EQ(j.report.outputs[0].undefined, 1);
  EXPECT_EQ(j.report.outputs[1].undefined, 1);
  // The defined elements beside it are still judged.
  Judged wrong = judge(g, in, {f32s({3}, {1, 5, 3}), f32s({3}, {2, 8, 6})});
  EXPECT_FALSE(wrong.withLatitude);
  EXPECT_EQ(wrong.report.outputs[0].first.flatIndex, 1);
}

TEST(Latitude, UndefinedElementsFollowTheirDependents) {
  // A matmul row that reads an undefined element is undefined; the other
  // row is not.
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {1, 2, 2}});
  ValueId y = g.addInput("y", {DType::f32, {1, 2, 2}});
  ValueId w = g.addInput("w", {DType::f32, {1, 2, 2}});
  g.addOutput(add(g, "matmul", {add(g, "pow", {x, y}), w}));
  Inputs in = {f32s({1, 2, 2}, {-1, 1, 2, 2}), f32s({1, 2, 2}, {0.5, 1, 1, 1}),
               f32s({1, 2, 2}, {1, 0, 0, 1})};
  Outputs mags;
  Latitude lat;
  ASSERT_TRUE(bool(interpret(g, in, Precision::F64, &mags, &lat)));
  ASSERT_EQ(lat.undefined.size(), 1u);
  EXPECT_EQ(lat.undefined[0], (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_TRUE(lat.otherZeroSign.empty()); // no zero result
}

TEST(Latitude, AnOperandsErrorGrowsWithTheSlopeOfWhatFollows) {
  // sigmoid(rsqrt(x) * w) at -40: sigmoid is steep against its value
  // there, so rsqrt's permitted 2 ulps (TOSA: tosa_reference_check_fp with
  // num_ulp 2) come out as about 60 ulps of the result.
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {2}});
  ValueId w = g.addInput("w", {DType::f32, {2}});
  g.addOutput(add(g, "sigmoid", {add(g, "mul", {add(g, "rsqrt", {x}), w})}));
  Inputs in = {f32s({2}, {0.04, 0.04}), f32s({2}, {-8, -8})};
  float r = 1 / std::sqrt(0.04f);
  r = std::nextafter(std::nextafter(r, 10.0f), 10.0f);
  double s = float(1 / (1 + std::exp(-double(r * -8.0f))));
  Judged j = judge(g, in, {f32s({2}, {s, s})});
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  // 1% off is still a miscompile.
  EXPECT_FALSE(judge(g, in, {f32s({2}, {s, s * 1.01})}).withLatitude);
}

// 3 * (1 - 2^-24) is 3 - 1.8e-7, and the product may be 2 ulps off (one
// rounding): on either side of 3. floor of it, and a comparison with 3,
// may then give either result; the same ops clear of a step are exact.
TEST(Latitude, AStepWithinAnOperandsErrorIsOpen) {
  Graph g;
  ValueId a = g.addInput("a", {DType::f32, {2}});
  ValueId b = g.addInput("b", {DType::f32, {2}});
  ValueId c = g.addInput("c", {DType::f32, {2}});
  ValueId p = add(g, "mul", {a, b});
  g.addOutput(add(g, "floor", {p}));
  g.addOutput(add(g, "greater", {c, p}));
  const double below1 = 1 - std::ldexp(1.0, -24);
  Inputs in = {f32s({2}, {3, 2.5}), f32s({2}, {below1, 1}), f32s({2}, {3, 3})};
  // The reference: floor [2, 2], 3 > p [true, true].
  Judged j = judge(g, in, {f32s({2}, {3, 2}), ints(DType::i1, {2}, {0, 1})});
  EXPECT_FALSE(j.without);
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  EXPECT_EQ(j.report.outputs[0].undefined, 1);
  EXPECT_EQ(j.report.outputs[1].undefined, 1);
  Judged wrong =
      judge(g, in, {f32s({2}, {3, 3}), ints(DType::i1, {2}, {0, 0})});
  EXPECT_FALSE(wrong.withLatitude);
  EXPECT_EQ(wrong.report.outputs[0].first.flatIndex, 1);
  EXPECT_EQ(wrong.report.outputs[1].first.flatIndex, 1);
}

// argmax of a row whose two largest values are within their errors may be
// either index; a row with a clear maximum may not. Graph inputs are exact:
// floor of an input is never open.
TEST(Latitude, ATieWithinTheErrorsOpensArgmaxOnly) {
  Graph g;
  ValueId a = g.addInput("a", {DType::f32, {2, 2}});
  ValueId b = g.addInput("b", {DType::f32, {2, 2}});
  g.addOutput(add(g, "argmax", {add(g, "mul", {a, b})}, axis(1)));
  g.addOutput(add(g, "floor", {a}));
  const double below1 = 1 - std::ldexp(1.0, -24);
  Inputs in = {f32s({2, 2}, {3, 3, 1, 2}), f32s({2, 2}, {below1, 1, 1, 1})};
  Outputs exact = {ints(DType::i32, {2}, {1, 1}), f32s({2, 2}, {3, 3, 1, 2})};
  Outputs other = exact;
  other[0] = ints(DType::i32, {2}, {0, 1});
  Judged j = judge(g, in, other);
  EXPECT_FALSE(j.without);
  EXPECT_TRUE(j.withLatitude) << j.report.summary();
  other[0] = ints(DType::i32, {2}, {1, 0});
  EXPECT_FALSE(judge(g, in, other).withLatitude);
  other = exact;
  other[1] = f32s({2, 2}, {2, 3, 1, 2});
  EXPECT_FALSE(judge(g, in, other).withLatitude);
}

// A tie that exact ops make (2 + 0.5, in f64 and in f32 alike) has no
// error to move by: rounding it half away from zero is still a miscompile.
TEST(Latitude, AnExactTieStaysExact) {
  Graph g;
  ValueId a = g.addInput("a", {DType::f32, {2}});
  ValueId b = g.addInput("b", {DType::f32, {2}});
  Attrs to;
  to.set("to", DType::i32);
  g.addOutput(add(g, "cast", {add(g, "add", {a, b})}, to));
  Inputs in = {f32s({2}, {2, 1}), f32s({2}, {0.5, 0.5})};
  EXPECT_TRUE(judge(g, in, {ints(DType::i32, {2}, {2, 2})}).withLatitude);
  Judged away = judge(g, in, {ints(DType::i32, {2}, {3, 2})});
  EXPECT_FALSE(away.withLatitude) << away.report.summary();
}
