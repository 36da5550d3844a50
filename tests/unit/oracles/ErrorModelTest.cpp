// The oracle's error model reads each op's rounding from the op table: the
// accumulation lengths it composes, and the tolerances they lead to; the
// reference's term magnitudes that judge cancellation.
#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"
#include "oracles/Numeric.h"

#include "GraphBuild.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cc;

namespace {

TensorType f32(Shape s) { return {DType::f32, std::move(s)}; }

using test::add;
using test::axis;

Attrs ints(const std::string &name, std::vector<int64_t> v, Attrs at = {}) {
  at.set(name, std::move(v));
  return at;
}

} // namespace

TEST(ErrorModel, EveryOpStatesItsRounding) {
  for (const OpDef &op : allOps())
    EXPECT_TRUE(bool(op.rounding)) << op.name;
}

TEST(ErrorModel, LongReductionGetsAWiderToleranceThanAnAdd) {
  Graph g;
  ValueId x = g.addInput("x", f32({2, 4096}));
  ValueId sum = add(g, "reduce_sum", {x}, axis(1));
  ValueId twice = add(g, "add", {x, x});
  g.addOutput(sum);
  g.addOutput(twice);
  std::vector<OutputSpec> specs = outputSpecs(g);
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].model.accumulation, 4096);
  EXPECT_EQ(specs[1].model.accumulation, 1);

  // The same relative error of 1e-4 on one element of each output: within
  // a 4096-term sum's tolerance, far beyond one rounding's.
  auto judgeWithError = [&](size_t out, Shape shape) {
    Tensor ref(DType::f64, shape), target(DType::f32, shape),
        actual(DType::f32, shape);
    for (int64_t i = 0; i < ref.size(); ++i) {
      double v = 100.0 + double(i);
      ref.setF(i, v);
      target.setF(i, v);
      actual.setF(i, i == 0 ? v * (1 + 1e-4) : v);
    }
    return judgeNumeric({specs[out]}, {actual}, {ref}, {target}).outputs[0];
  };
  OutputReport longSum = judgeWithError(0, {2, 1});
  OutputReport one = judgeWithError(1, {2, 4096});
  EXPECT_TRUE(longSum.ok) << longSum.first.reason;
  EXPECT_FALSE(one.ok);
  EXPECT_DOUBLE_EQ(longSum.relTolerance, 4096 * one.relTolerance);
}

TEST(ErrorModel, ProductsAddTheirFactorsErrors) {
  Graph g;
  ValueId x = g.addInput("x", f32({3, 8}));
  ValueId y = g.addInput("y", f32({3, 5}));
  ValueId sx = add(g, "reduce_sum", {x}, axis(1)); // 8
  ValueId sy = add(g, "reduce_sum", {y}, axis(1)); // 5
  ValueId prod = add(g, "mul", {sx, sy});
  ValueId sum = add(g, "add", {sx, sy});
  ValueId p = add(g, "reduce_product", {prod}, axis(0));
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_EQ(m[prod].accumulation, 8 + 5 + 1);
  EXPECT_EQ(m[sum].accumulation, 8 + 1); // a sum keeps the larger error
  EXPECT_EQ(m[p].accumulation, 3 * 14 + 3);
}

TEST(ErrorModel, ExactAndApproximatedOps) {
  Graph g;
  ValueId x = g.addInput("x", f32({1, 4, 4, 2}));
  ValueId s = add(g, "reduce_sum", {x}, axis(3)); // 2
  ValueId t = add(g, "transpose", {s}, ints("perms", {0, 2, 1, 3}));
  ValueId mp = add(g, "max_pool2d", {t}, ints("kernel", {2, 2}));
  ValueId e = add(g, "exp", {mp});
  ValueId f = add(g, "floor", {e});
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_EQ(m[t].accumulation, 2);
  EXPECT_EQ(m[mp].accumulation, 2);
  EXPECT_GT(m[e].accumulation, m[mp].accumulation + 1); // a few ulps
  EXPECT_EQ(m[f].accumulation, m[e].accumulation);
}

TEST(ErrorModel, ConvolutionsCountTheTapsOfOneOutput) {
  Graph g;
  ValueId x = g.addInput("x", f32({1, 5, 5, 3}));
  ValueId w = g.addInput("w", f32({4, 3, 3, 3}));   // [O,KH,KW,C]
  ValueId dw = g.addInput("dw", f32({3, 3, 3, 2})); // [KH,KW,C,M]
  ValueId b4 = g.addInput("b4", f32({4}));
  ValueId b6 = g.addInput("b6", f32({6}));
  ValueId conv = add(g, "conv2d", {x, w, b4});
  ValueId depth = add(g, "depthwise_conv2d", {x, dw, b6});
  ValueId tr1 = add(g, "transpose_conv2d", {x, w, b4});
  ValueId tr2 = add(g, "transpose_conv2d", {x, w, b4}, ints("stride", {2, 2}));
  ValueId pool = add(g, "avg_pool2d", {x}, ints("kernel", {2, 3}));
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_EQ(m[conv].accumulation, 3 * 3 * 3 + 1);
  EXPECT_EQ(m[depth].accumulation, 3 * 3 + 1);
  EXPECT_EQ(m[tr1].accumulation, 3 * 3 * 3 + 1);
  // With stride 2, at most 2 of the 3 kernel rows (and columns) reach an
  // output element.
  EXPECT_EQ(m[tr2].accumulation, 2 * 2 * 3 + 1);
  EXPECT_EQ(m[pool].accumulation, 2 * 3 + 1);
}

TEST(ErrorModel, IntegersFromFloatsAreFloatDerived) {
  Graph g;
  ValueId x = g.addInput("x", f32({4}));
  ValueId i = g.addInput("i", {DType::i32, {4}});
  Attrs to;
  to.set("to", DType::i32);
  ValueId c = add(g, "cast", {x}, to);
  ValueId gt = add(g, "greater", {x, x});
  ValueId viaInt = add(g, "add", {c, i});
  ValueId pure = add(g, "add", {i, i});
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_TRUE(m[c].floatDerived);
  EXPECT_TRUE(m[gt].floatDerived);
  EXPECT_TRUE(m[viaInt].floatDerived);
  EXPECT_FALSE(m[pure].floatDerived);
  for (ValueId v : {c, gt, viaInt, pure})
    EXPECT_EQ(m[v].accumulation, 0);
}

TEST(ErrorModel, InvalidNodesCountAsOneRounding) {
  // The oracle judges whatever graph it is given: an op whose attributes
  // its rule could not read is one rounding.
  Graph g;
  ValueId x = g.addInput("x", f32({2, 3}));
  auto raw = [&](OpId op, Attrs attrs) {
    g.values.push_back({"v", f32({2, 1}), int32_t(g.nodes.size())});
    ValueId r = ValueId(g.values.size() - 1);
    g.nodes.push_back({op, {x}, {r}, std::move(attrs)});
    return r;
  };
  ValueId noAxis = raw(OpId::ReduceSum, {});
  ValueId badAxis = raw(OpId::ReduceSum, axis(7));
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_EQ(m[noAxis].accumulation, 1);
  EXPECT_EQ(m[badAxis].accumulation, 1);
}

// Mixed precision (found by the bug hunt): an f16 sigmoid widened to f32
// keeps its f16 error, counted in f32 ulps; narrowing shrinks it.
TEST(ErrorModel, CastsConvertTheErrorToTheResultUlps) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f16, {3}});
  ValueId s = add(g, "sigmoid", {x});
  Attrs toF32, toF16;
  toF32.set("to", DType::f32);
  toF16.set("to", DType::f16);
  ValueId wide = add(g, "cast", {s}, toF32);
  ValueId back = add(g, "cast", {wide}, toF16);
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  double ratio = epsilon(DType::f16) / epsilon(DType::f32); // 8192
  EXPECT_DOUBLE_EQ(m[wide].accumulation, m[s].accumulation * ratio + 1);
  EXPECT_DOUBLE_EQ(m[back].accumulation, m[wide].accumulation / ratio + 1);
}

// sub(negate(sigmoid(x)), c) with c close to -sigmoid(x): a compiler whose
// sigmoid is one ulp off (of ~0.9) leaves an error far above one rounding of
// the small result, and well within one rounding of its terms. The
// reference's magnitudes let the oracle tell that from a wrong result.
TEST(ErrorModel, CancellationIsJudgedAgainstTheMagnitudeOfItsTerms) {
  Graph g;
  ValueId x = g.addInput("x", f32({1, 3}));
  ValueId s = add(g, "sigmoid", {x});
  ValueId n = add(g, "negate", {s});
  Tensor cv(DType::f32, {1, 3});
  cv.setF(0, -0.88);
  cv.setF(1, -0.6);
  cv.setF(2, -0.25);
  Attrs ca;
  ca.set("value", cv);
  ValueId c = add(g, "const", {}, ca);
  ValueId y = add(g, "sub", {n, c});
  g.addOutput(y);
  Tensor in(DType::f32, {1, 3});
  in.setF(0, 2.0);
  in.setF(1, 0.5);
  in.setF(2, -1.0);

  Outputs mags;
  auto ref = interpret(g, {in}, Precision::F64, &mags);
  ASSERT_TRUE(ref) << ref.error().message();
  ASSERT_EQ(mags.size(), 1u);
  for (int64_t i = 0; i < 3; ++i) {
    // sigmoid's own magnitude and its input's, scaled by its slope.
    double sig = 1 / (1 + std::exp(-in.getF(i)));
    double sigMag = sig + sig * (1 - sig) * std::fabs(in.getF(i));
    EXPECT_NEAR(mags[0].getF(i), sigMag + std::fabs(cv.getF(i)), 1e-12);
  }
  double e0 = (*ref)[0].getF(0); // about 0.0008
  ASSERT_LT(std::fabs(e0), 0.01);

  // The target-precision reference happened to round like the f64 one (as
  // in the false alarm this test keeps away): no calibration slack.
  Tensor exact = (*ref)[0].convertTo(DType::f32);
  auto judgeWith = [&](double error, const Outputs *m) {
    Tensor actual = exact;
    actual.setF(0, double(float(e0 + error)));
    return judgeNumeric(g, {actual}, *ref, {exact}, {}, m).ok;
  };
  double ulpOfTerm = std::ldexp(1.0, -24); // one ulp of sigmoid(2) ~ 0.88
  EXPECT_FALSE(judgeWith(ulpOfTerm, nullptr));
  EXPECT_TRUE(judgeWith(ulpOfTerm, &mags));
  EXPECT_FALSE(judgeWith(1e-4, &mags)) << "a wrong result still fails";
}

// Matmul magnitudes are |A| |B|; select and data movement carry them;
// unary functions pass them on scaled by their slope.
TEST(ErrorModel, MagnitudesFollowSumsAndProducts) {
  Graph g;
  ValueId a = g.addInput("a", f32({1, 1, 2}));
  ValueId b = g.addInput("b", f32({1, 2, 1}));
  ValueId m = add(g, "matmul", {a, b});
  ValueId t = add(g, "tanh", {m});
  ValueId r = add(g, "reshape", {m}, ints("shape", {1}));
  Attrs inside, below;
  inside.set("min", -1.0);
  inside.set("max", 1.0);
  below.set("min", 1.0);
  below.set("max", 2.0);
  g.addOutput(m);
  g.addOutput(t);
  g.addOutput(r);
  g.addOutput(add(g, "clamp", {m}, inside));
  g.addOutput(add(g, "clamp", {m}, below));
  Tensor av(DType::f32, {1, 1, 2}), bv(DType::f32, {1, 2, 1});
  av.setF(0, 3);
  av.setF(1, -2);
  bv.setF(0, 2);
  bv.setF(1, 3);
  Outputs mags;
  auto out = interpret(g, {av, bv}, Precision::F64, &mags);
  ASSERT_TRUE(out) << out.error().message();
  EXPECT_EQ((*out)[0].getF(0), 0); // 3*2 - 2*3
  EXPECT_EQ(mags[0].getF(0), 12);  // |3*2| + |-2*3|
  EXPECT_EQ(mags[1].getF(0), 12);  // |tanh(0)| + tanh'(0) * 12
  EXPECT_EQ(mags[2].getF(0), 12);  // carried by reshape
  EXPECT_EQ(mags[3].getF(0), 12);  // clamp passes 0 through, and its error
  EXPECT_EQ(mags[4].getF(0), 1);   // but not at its bound
  EXPECT_FALSE(interpret(g, {av, bv}, Precision::Target, &mags));
}
