// Generated inputs: deterministic per seed, inside the value domains of the
// ops that consume them, and mixed with edge values.
#include "backends/ref/Interpreter.h"
#include "generators/Inputs.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cc;

namespace {
Attrs axisAttr(int64_t axis) {
  Attrs a;
  a.set("axis", axis);
  return a;
}
} // namespace

TEST(Inputs, DeterministicPerSeedAndTyped) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f16, {3, 5}});
  ValueId n = g.addInput("n", {DType::i8, {7}});
  auto y = g.add("exp", {x});
  ASSERT_TRUE(y) << y.error().message();
  g.addOutput(*y);
  g.addOutput(n);
  Inputs a = makeInputs(g, 7), b = makeInputs(g, 7), c = makeInputs(g, 8);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].type(), (TensorType{DType::f16, {3, 5}}));
  EXPECT_EQ(a[1].type(), (TensorType{DType::i8, {7}}));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(Inputs, RespectValueDomainsOfDirectConsumers) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {64}});
  ValueId d = g.addInput("d", {DType::i32, {64}});
  ValueId s = g.addInput("s", {DType::i8, {64}});
  ValueId vals = g.addInput("vals", {DType::f32, {1, 5, 2}});
  ValueId idx = g.addInput("idx", {DType::i32, {1, 64}});
  for (auto r : {g.add("log", {x}), g.add("intdiv", {d, d}),
                 g.add("logical_left_shift", {s, s}),
                 g.add("gather", {vals, idx})}) {
    ASSERT_TRUE(r) << r.error().message();
    g.addOutput(*r);
  }
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Inputs in = makeInputs(g, seed);
    for (int64_t i = 0; i < 64; ++i) {
      EXPECT_GT(in[0].getF(i), 0);
      EXPECT_NE(in[1].getI(i), 0);
      EXPECT_GE(in[2].getI(i), 0);
      EXPECT_LT(in[2].getI(i), 8);
      EXPECT_GE(in[4].getI(i), 0);
      EXPECT_LT(in[4].getI(i), 5);
    }
    // The reference accepts every generated case (no undefined behaviour).
    auto out = interpret(g, in);
    EXPECT_TRUE(out) << out.error().message();
  }
}

TEST(Inputs, MixInEdgeValues) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {512}});
  auto r = g.add("reduce_sum", {x}, axisAttr(0));
  ASSERT_TRUE(r) << r.error().message();
  g.addOutput(*r);
  Tensor t = makeInputs(g, 1)[0];
  int zeros = 0, negZeros = 0, ones = 0, halves = 0;
  for (int64_t i = 0; i < t.size(); ++i) {
    double v = t.getF(i);
    zeros += v == 0;
    negZeros += v == 0 && std::signbit(v);
    ones += std::fabs(v) == 1;
    halves += std::fabs(v) == 0.5;
  }
  EXPECT_GT(zeros, 0);
  EXPECT_GT(negZeros, 0);
  EXPECT_GT(ones, 0);
  EXPECT_GT(halves, 0);
}
