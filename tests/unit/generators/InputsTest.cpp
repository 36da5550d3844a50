// Generated inputs: deterministic per seed, inside the value domains of the
// ops that consume them, and mixed with edge values.
#include "generators/Inputs.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"

#include "tests/unit/SeedCorpus.h"

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
  for (auto r :
       {g.add("log", {x}), g.add("intdiv", {d, d}),
        g.add("logical_left_shift", {s, s}), g.add("gather", {vals, idx})}) {
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

// Over the seed corpus and many input seeds, the reference never meets
// undefined behaviour; without special inputs no output is NaN or Inf
// unmarked, and with them the report marks the cases that produce some.
TEST(Inputs, SeedCorpusCasesAreDefinedAndNonFiniteOnesMarked) {
  int marked = 0, cases = 0;
  for (const std::string &f : test::seedFiles()) {
    auto g = loadGraph(f);
    ASSERT_TRUE(g) << g.error().message();
    for (uint64_t seed = 0; seed < 20; ++seed) {
      for (double special : {0.0, 0.2}) {
        InputOptions o;
        o.specialRate = special;
        InputReport report;
        Inputs in = makeInputs(*g, seed, o, &report);
        ++cases;
        EXPECT_FALSE(report.undefined)
            << f << " seed " << seed << ": " << report.undefinedReason;
        auto out = interpret(*g, in);
        ASSERT_TRUE(out) << f << ": " << out.error().message();
        bool nonFinite = false;
        for (const Tensor &t : *out)
          for (int64_t i = 0; isFloat(t.dtype()) && i < t.size(); ++i)
            nonFinite |= !std::isfinite(t.getF(i));
        EXPECT_EQ(report.nonFinite, nonFinite) << f << " seed " << seed;
        if (special == 0) {
          EXPECT_EQ(report.specialInputs, 0) << f;
        }
        marked += report.nonFinite;
      }
    }
  }
  EXPECT_GT(marked, 0) << "special inputs reach the outputs in some of "
                       << cases;
}

TEST(Inputs, EdgeValuesAppear) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {4096}});
  ValueId i = g.addInput("i", {DType::i32, {4096}});
  auto fx = g.add("floor", {x});
  auto ci = g.add("cast", {i}, [] {
    Attrs t;
    t.set("to", DType::f32);
    return t;
  }());
  ASSERT_TRUE(fx && ci);
  g.addOutput(*fx);
  g.addOutput(*ci);
  InputOptions o;
  o.specialRate = 0.05;
  Inputs in = makeInputs(g, 4, o);
  int belowHalf = 0, ties = 0, inf = 0, nan = 0, denormal = 0, negZero = 0;
  for (int64_t k = 0; k < in[0].size(); ++k) {
    double v = in[0].getF(k);
    belowHalf += std::fabs(v) == double(std::nextafter(0.5f, 0.0f));
    ties += std::fabs(v) == 2.5 || std::fabs(v) == 1.5;
    inf += std::isinf(v);
    nan += std::isnan(v);
    denormal += v != 0 && std::fabs(v) < minNormal(DType::f32);
    negZero += v == 0 && std::signbit(v);
  }
  int mins = 0, maxs = 0;
  for (int64_t k = 0; k < in[1].size(); ++k) {
    mins += in[1].getI(k) == intMin(DType::i32);
    maxs += in[1].getI(k) == intMax(DType::i32);
  }
  EXPECT_GT(belowHalf, 0);
  EXPECT_GT(ties, 0);
  EXPECT_GT(inf, 0);
  EXPECT_GT(nan, 0);
  EXPECT_GT(denormal, 0);
  EXPECT_GT(negZero, 0);
  EXPECT_GT(mins, 0);
  EXPECT_GT(maxs, 0);
}

// Integer extremes stay out of ops that would overflow on them.
TEST(Inputs, NoIntegerExtremesIntoOverflowingOps) {
  Graph g;
  ValueId a = g.addInput("a", {DType::i32, {4096}});
  auto s = g.add("add", {a, a});
  ASSERT_TRUE(s);
  g.addOutput(*s);
  Tensor t = makeInputs(g, 9)[0];
  for (int64_t k = 0; k < t.size(); ++k)
    EXPECT_LT(std::llabs(t.getI(k)), int64_t(1) << 20);
}

TEST(Inputs, SampledConstantsRespectDomainsAndKeepTypes) {
  Graph g;
  Attrs c;
  c.set("value", Tensor(DType::f32, {256}));
  auto k = g.add("const", {}, c);
  ASSERT_TRUE(k);
  auto l = g.add("log", {*k});
  ASSERT_TRUE(l);
  g.addOutput(*l);
  Graph s = withSampledConstants(g, 3);
  EXPECT_EQ(s.typeOf(*k), g.typeOf(*k));
  EXPECT_FALSE(verify(s));
  EXPECT_EQ(s, withSampledConstants(g, 3));
  EXPECT_NE(s, withSampledConstants(g, 4));
  const Tensor &v = s.nodes[0].attrs.getTensor("value");
  int ones = 0;
  for (int64_t i = 0; i < v.size(); ++i) {
    EXPECT_GT(v.getF(i), 0) << "log's constant operand stays positive";
    ones += v.getF(i) == 1;
  }
  EXPECT_GT(ones, 0) << "constants get edge values too";
}
