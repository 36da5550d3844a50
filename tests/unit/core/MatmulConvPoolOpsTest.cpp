#include "OpTestUtil.h"

#include <cmath>

using namespace cc;
using namespace cc::test;

namespace {

using Ints = std::vector<int64_t>;

Attrs convAttrs(Ints pad, Ints stride, Ints dilation) {
  Attrs a;
  a.set("pad", pad);
  a.set("stride", stride);
  a.set("dilation", dilation);
  return a;
}

Attrs poolAttrs(Ints kernel, Ints stride, Ints pad) {
  Attrs a;
  a.set("kernel", kernel);
  a.set("stride", stride);
  a.set("pad", pad);
  return a;
}

Tensor run(const std::string &op, const std::vector<Tensor> &in, Attrs a,
           Precision p = Precision::F64) {
  auto r = runOp(op, in, std::move(a), p);
  EXPECT_TRUE(bool(r)) << (r ? "" : r.error().message());
  return r ? *r : Tensor();
}

const std::vector<double> k1to9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};

} // namespace

TEST(MatmulConvPoolOps, MatmulFloatAndQuantized) {
  Tensor f = run("matmul",
                 {tensorOf("f32[1,2,2]", {1, 2, 3, 4}),
                  tensorOf("f32[1,2,2]", {5, 6, 7, 8})},
                 {});
  EXPECT_EQ(valuesOf(f), (std::vector<double>{19, 22, 43, 50}));
  Attrs zp;
  zp.set("a_zp", int64_t(1));
  zp.set("b_zp", int64_t(-1));
  Tensor q =
      run("matmul",
          {tensorOf("i8[1,1,2]", {1, 2}), tensorOf("i8[1,2,1]", {3, 4})}, zp);
  EXPECT_EQ(q.dtype(), DType::i32);
  EXPECT_EQ(valuesOf(q), (std::vector<double>{5})); // 0*4 + 1*5
  EXPECT_EQ(inferError("matmul", {"bf16[1,2,3]", "bf16[1,3,4]"}), "");
  EXPECT_NE(
      inferError("matmul", {"f32[1,2,3]", "f32[1,2,4]"}).find("do not match"),
      std::string::npos);
  EXPECT_NE(
      inferError("matmul", {"f32[1,2,3]", "f32[1,3,4]"}, zp).find("must be 0"),
      std::string::npos);
}

TEST(MatmulConvPoolOps, MatmulBf16ResultIsF32) {
  Graph g;
  ValueId a = g.addInput("a", *parseTensorType("bf16[1,2,3]"));
  ValueId b = g.addInput("b", *parseTensorType("bf16[1,3,4]"));
  auto r = g.add("matmul", {a, b});
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(g.typeOf(*r).str(), "f32[1,2,4]");
}

TEST(MatmulConvPoolOps, Conv2dPaddingStrideDilation) {
  Tensor in = tensorOf("f32[1,3,3,1]", k1to9);
  Tensor w = tensorOf("f32[1,2,2,1]", {1, 1, 1, 1});
  Tensor bias = tensorOf("f32[1]", {0.5});
  Tensor plain =
      run("conv2d", {in, w, bias}, convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}));
  EXPECT_EQ(plain.shape(), (Shape{1, 2, 2, 1}));
  EXPECT_EQ(valuesOf(plain), (std::vector<double>{12.5, 16.5, 24.5, 28.5}));
  // Top/left padding with stride 2: padded taps contribute nothing.
  Tensor padded =
      run("conv2d", {in, w, bias}, convAttrs({1, 0, 1, 0}, {2, 2}, {1, 1}));
  EXPECT_EQ(valuesOf(padded), (std::vector<double>{1.5, 5.5, 11.5, 28.5}));
  Tensor dilated = run("conv2d", {in, w, tensorOf("f32[1]", {0})},
                       convAttrs({0, 0, 0, 0}, {1, 1}, {2, 2}));
  EXPECT_EQ(valuesOf(dilated), (std::vector<double>{20})); // 1 + 3 + 7 + 9
}

TEST(MatmulConvPoolOps, Conv2dTypeRuleErrors) {
  std::vector<std::string> t = {"f32[1,3,3,1]", "f32[1,2,2,1]", "f32[1]"};
  EXPECT_NE(inferError("conv2d", t, convAttrs({1, 1, 1, 1}, {2, 2}, {1, 1}))
                .find("not divisible by stride"),
            std::string::npos);
  EXPECT_NE(inferError("conv2d", {"f32[1,1,1,1]", "f32[1,3,3,1]", "f32[1]"},
                       convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}))
                .find("non-positive"),
            std::string::npos);
  EXPECT_NE(inferError("conv2d", {"f32[1,3,3,2]", "f32[1,2,2,1]", "f32[1]"},
                       convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}))
                .find("input channels"),
            std::string::npos);
  EXPECT_NE(inferError("conv2d", {"i8[1,3,3,1]", "i8[1,2,2,1]", "i8[1]"})
                .find("bias"),
            std::string::npos);
}

TEST(MatmulConvPoolOps, Conv2dQuantizedZeroPoints) {
  Attrs a = convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1});
  a.set("input_zp", int64_t(1));
  a.set("weight_zp", int64_t(-1));
  Tensor r = run("conv2d",
                 {tensorOf("i8[1,1,1,1]", {5}), tensorOf("i8[1,1,1,1]", {3}),
                  tensorOf("i32[1]", {10})},
                 a);
  EXPECT_EQ(r.dtype(), DType::i32);
  EXPECT_EQ(valuesOf(r), (std::vector<double>{26})); // (5-1)*(3+1) + 10
}

TEST(MatmulConvPoolOps, Conv2dAccumulatesF16InF32) {
  Tensor in = tensorOf("f16[1,1,3,1]", {2048, 1, 1});
  Tensor w = tensorOf("f16[1,1,3,1]", {1, 1, 1});
  Tensor r = run("conv2d", {in, w, tensorOf("f16[1]", {0})},
                 convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}), Precision::Target);
  EXPECT_EQ(r.dtype(), DType::f16);
  EXPECT_EQ(r.getF(0), 2050.0); // an f16 accumulator would give 2048
}

TEST(MatmulConvPoolOps, ConvAddsBiasLastInTheResultType) {
  // TOSA: out = static_cast<out_t>(acc); out = out + bias. The f32 product
  // 1 + 2^-11 - 2^-21 rounds to 1 in f16 before the bias -1 is added.
  Tensor in = tensorOf("f16[1,1,1,1]", {1 + 0x1p-10});
  Tensor w = tensorOf("f16[1,1,1,1]", {1 - 0x1p-11});
  Tensor bias = tensorOf("f16[1]", {-1});
  Tensor c = run("conv2d", {in, w, bias},
                 convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}), Precision::Target);
  EXPECT_EQ(valuesOf(c), (std::vector<double>{0}));
  Attrs t;
  t.set("stride", Ints{1, 1});
  EXPECT_EQ(
      valuesOf(run("transpose_conv2d", {in, w, bias}, t, Precision::Target)),
      (std::vector<double>{0}));
  // Exactly (F64) the bias still counts.
  EXPECT_EQ(valuesOf(run("transpose_conv2d", {in, w, bias}, t)),
            (std::vector<double>{0x1p-11 - 0x1p-21}));
}

TEST(MatmulConvPoolOps, ConvNonFiniteWeightOnPaddingIsImplementationDefined) {
  // Kernel 1x2 with one column of left padding: tap kx = 0 reads padding.
  // An implementation may multiply the zero padding by the weight
  // (tosa_extra_multiplies), and 0 * inf is NaN.
  Tensor in = tensorOf("f32[1,1,1,1]", {3});
  Tensor bias = tensorOf("f32[1]", {0});
  Attrs a = convAttrs({0, 0, 1, 0}, {1, 1}, {1, 1});
  auto r =
      runOp("conv2d", {in, tensorOf("f32[1,1,2,1]", {INFINITY, 2}), bias}, a);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(r.error().code(), ErrorCode::Undefined) << r.error().message();
  // A non-finite weight on a real tap is defined, and so is a NaN result.
  EXPECT_EQ(
      valuesOf(run("conv2d",
                   {in, tensorOf("f32[1,1,2,1]", {2, INFINITY}), bias}, a)),
      (std::vector<double>{INFINITY}));
  EXPECT_TRUE(std::isnan(
      run("conv2d", {in, tensorOf("f32[1,1,2,1]", {INFINITY, NAN}), bias}, a)
          .getF(0)));
  // Depthwise and transposed convolutions skip taps the same way.
  auto d = runOp("depthwise_conv2d",
                 {in, tensorOf("f32[1,2,1,1]", {NAN, 2}), bias}, a);
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(d.error().code(), ErrorCode::Undefined);
  Attrs t;
  t.set("stride", Ints{2, 1});
  auto tr = runOp("transpose_conv2d",
                  {tensorOf("f32[1,2,1,1]", {1, 2}),
                   tensorOf("f32[1,2,1,1]", {1, INFINITY}), bias},
                  t); // output row 0 reads only weight row 0
  ASSERT_FALSE(bool(tr));
  EXPECT_EQ(tr.error().code(), ErrorCode::Undefined);
}

TEST(MatmulConvPoolOps, MatmulF16AccumulatesInF16) {
  // TOSA 1.0 MATMUL accumulates in out_t: 1 + 2^-11 rounds back to 1 in f16
  // (ties to even) at each step, where f32 would reach 1 + 2^-10.
  Tensor r = run("matmul",
                 {tensorOf("f16[1,1,3]", {1, 0x1p-11, 0x1p-11}),
                  tensorOf("f16[1,3,1]", {1, 1, 1})},
                 {}, Precision::Target);
  EXPECT_EQ(valuesOf(r), (std::vector<double>{1}));
  // bf16 results are f32, and accumulate in f32.
  Tensor b = run("matmul",
                 {tensorOf("bf16[1,1,3]", {1, 0x1p-11, 0x1p-11}),
                  tensorOf("bf16[1,3,1]", {1, 1, 1})},
                 {}, Precision::Target);
  EXPECT_EQ(valuesOf(b), (std::vector<double>{1 + 0x1p-10}));
}

TEST(MatmulConvPoolOps, DepthwiseConv2d) {
  Tensor r = run("depthwise_conv2d",
                 {tensorOf("f32[1,1,1,2]", {2, 3}),
                  tensorOf("f32[1,1,2,2]", {1, 2, 3, 4}),
                  tensorOf("f32[4]", {0, 0, 0, 1})},
                 convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1}));
  EXPECT_EQ(r.shape(), (Shape{1, 1, 1, 4}));
  EXPECT_EQ(valuesOf(r), (std::vector<double>{2, 4, 9, 13}));
}

TEST(MatmulConvPoolOps, TransposeConv2d) {
  Tensor in = tensorOf("f32[1,2,1,1]", {1, 2});
  Tensor w = tensorOf("f32[1,2,1,1]", {1, 10});
  Tensor bias = tensorOf("f32[1]", {0.5});
  Attrs a;
  a.set("stride", Ints{2, 1});
  Tensor s2 = run("transpose_conv2d", {in, w, bias}, a);
  EXPECT_EQ(s2.shape(), (Shape{1, 4, 1, 1}));
  EXPECT_EQ(valuesOf(s2), (std::vector<double>{1.5, 10.5, 2.5, 20.5}));
  a.set("stride", Ints{1, 1});
  EXPECT_EQ(valuesOf(run("transpose_conv2d", {in, w, bias}, a)),
            (std::vector<double>{1.5, 12.5, 20.5}));
  a.set("out_pad", Ints{-1, 0, 0, 0}); // drops the first output row
  EXPECT_EQ(valuesOf(run("transpose_conv2d", {in, w, bias}, a)),
            (std::vector<double>{12.5, 20.5}));
}

TEST(MatmulConvPoolOps, AvgPoolExcludesPaddingFromCount) {
  Tensor r = run("avg_pool2d", {tensorOf("f32[1,2,2,1]", {1, 2, 3, 4})},
                 poolAttrs({2, 2}, {1, 1}, {1, 0, 1, 0}));
  EXPECT_EQ(valuesOf(r), (std::vector<double>{1, 1.5, 2, 2.5}));
}

TEST(MatmulConvPoolOps, AvgPoolIntegerRounding) {
  Attrs a = poolAttrs({2, 2}, {1, 1}, {0, 0, 0, 0});
  // 11 / 4 = 2.75 rounds to 3; -11 / 4 = -2.75 rounds to -3.
  EXPECT_EQ(
      valuesOf(run("avg_pool2d", {tensorOf("i8[1,2,2,1]", {1, 2, 3, 5})}, a)),
      (std::vector<double>{3}));
  EXPECT_EQ(valuesOf(run("avg_pool2d",
                         {tensorOf("i8[1,2,2,1]", {-1, -2, -3, -5})}, a)),
            (std::vector<double>{-3}));
  // (0 + 1 + 2 + 4) / 4 = 1.75 -> 2, then output_zp -3.
  a.set("input_zp", int64_t(1));
  a.set("output_zp", int64_t(-3));
  EXPECT_EQ(
      valuesOf(run("avg_pool2d", {tensorOf("i8[1,2,2,1]", {1, 2, 3, 5})}, a)),
      (std::vector<double>{-1}));
  // Saturation at the i8 bounds after the zero point.
  a.set("input_zp", int64_t(0));
  a.set("output_zp", int64_t(100));
  EXPECT_EQ(valuesOf(run("avg_pool2d",
                         {tensorOf("i8[1,2,2,1]", {100, 100, 100, 100})}, a)),
            (std::vector<double>{127}));
}

TEST(MatmulConvPoolOps, AvgPoolIntegerAccumulatorOverflowIsUndefined) {
  // 257 * 256 values of 32767 sum past INT32_MAX: apply_add_s's REQUIRE.
  Tensor in = Tensor::splat(TensorType{DType::i16, {1, 257, 256, 1}}, 32767);
  auto r =
      runOp("avg_pool2d", {in}, poolAttrs({257, 256}, {1, 1}, {0, 0, 0, 0}));
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(r.error().code(), ErrorCode::Undefined) << r.error().message();
}

TEST(MatmulConvPoolOps, MaxPoolSignedZeroKeepsTheFirst) {
  // acc = apply_max_s(acc, value): of -0 and +0 the earlier one stays.
  Tensor in = tensorOf("f32[1,1,2,1]", {-0.0, 0.0});
  Tensor r = run("max_pool2d", {in}, poolAttrs({1, 2}, {1, 1}, {0, 0, 0, 0}));
  ASSERT_EQ(r.size(), 1);
  EXPECT_TRUE(std::signbit(r.getF(0)));
}

TEST(MatmulConvPoolOps, MaxPoolNanModeAndPadding) {
  Tensor in = tensorOf("f32[1,2,2,1]", {1, NAN, 3, 2});
  Attrs a = poolAttrs({2, 2}, {1, 1}, {0, 0, 0, 0});
  EXPECT_TRUE(std::isnan(run("max_pool2d", {in}, a).getF(0)));
  a.set("nan_mode", std::string("IGNORE"));
  EXPECT_EQ(run("max_pool2d", {in}, a).getF(0), 3.0);
  Tensor neg = tensorOf("i8[1,2,2,1]", {-5, -7, -9, -6});
  Tensor p = run("max_pool2d", {neg}, poolAttrs({2, 2}, {1, 1}, {1, 0, 1, 0}));
  // Padding never wins: every window holds at least one input value.
  EXPECT_EQ(valuesOf(p), (std::vector<double>{-5, -5, -5, -5}));
  EXPECT_NE(inferError("max_pool2d", {"f32[1,4,4,1]"},
                       poolAttrs({2, 2}, {1, 1}, {2, 0, 0, 0}))
                .find("smaller than kernel"),
            std::string::npos);
}

TEST(MatmulConvPoolOps, Emission) {
  std::vector<std::string> t = {"i8[1,3,3,1]", "i8[1,2,2,1]", "i32[1]"};
  Attrs a = convAttrs({0, 0, 0, 0}, {1, 1}, {1, 1});
  a.set("input_zp", int64_t(-3));
  auto t22 = emitOp("conv2d", t, a, 22);
  ASSERT_TRUE(bool(t22));
  EXPECT_NE(t22->find("dense<-3> : tensor<1xi8>"), std::string::npos);
  EXPECT_NE(t22->find("acc_type = i32"), std::string::npos);
  auto t19 = emitOp("conv2d", t, a, 19);
  ASSERT_TRUE(bool(t19));
  EXPECT_NE(t19->find("#tosa.conv_quant<input_zp = -3, weight_zp = 0>"),
            std::string::npos);
  auto tr = emitOp("transpose_conv2d",
                   {"f32[1,2,1,1]", "f32[1,2,1,1]", "f32[1]"}, {}, 19);
  ASSERT_TRUE(bool(tr));
  EXPECT_NE(tr->find("out_shape = array<i64: 1, 3, 1, 1>"), std::string::npos);
}

TEST(MatmulConvPoolOps, SampledAttributesAreValid) {
  struct Case {
    std::string op;
    std::vector<std::string> types;
  };
  std::vector<Case> cases = {
      {"conv2d", {"f32[1,5,7,2]", "f32[3,3,2,2]", "f32[3]"}},
      {"depthwise_conv2d", {"i8[1,4,6,2]", "i8[2,3,2,2]", "i32[4]"}},
      {"transpose_conv2d", {"f16[1,3,2,2]", "f16[2,3,3,2]", "f16[2]"}},
      {"avg_pool2d", {"i16[1,1,5,3]"}},
      {"max_pool2d", {"bf16[2,6,1,1]"}},
      {"matmul", {"i8[2,3,4]", "i8[2,4,5]"}}};
  for (const Case &c : cases) {
    std::vector<TensorType> types;
    for (const std::string &s : c.types)
      types.push_back(*parseTensorType(s));
    for (uint64_t seed = 0; seed < 50; ++seed) {
      Rng rng(seed);
      Attrs at = findOp(c.op)->sampleAttrs(rng, types);
      EXPECT_EQ(inferError(c.op, c.types, at), "") << c.op << " seed " << seed;
    }
  }
}
