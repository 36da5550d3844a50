#include "OpTestUtil.h"

#include <cmath>

using namespace cc;
using namespace cc::test;

namespace {

Attrs castTo(DType t) {
  Attrs a;
  a.set("to", t);
  return a;
}

Attrs rescaleAttrs(DType to, int64_t mult, int64_t shift,
                   const std::string &mode = "SINGLE_ROUND") {
  Attrs a;
  a.set("to", to);
  a.set("multiplier", std::vector<int64_t>{mult});
  a.set("shift", std::vector<int64_t>{shift});
  a.set("rounding_mode", mode);
  return a;
}

std::vector<double> rescale(const std::string &type, std::vector<double> in,
                            Attrs a) {
  auto r = runOp("rescale", {tensorOf(type, in)}, std::move(a));
  EXPECT_TRUE(bool(r)) << (r ? "" : r.error().message());
  return r ? valuesOf(*r) : std::vector<double>{};
}

} // namespace

TEST(ConversionOps, CastFloatToIntRoundsToEvenAndSaturates) {
  auto r = runOp("cast",
                 {tensorOf("f32[9]", {2.5, 3.5, -2.5, 0.49999997, 127.5, 300,
                                      -INFINITY, -0.0, -128.5})},
                 castTo(DType::i8));
  ASSERT_TRUE(bool(r)) << r.error().message();
  EXPECT_EQ(valuesOf(*r),
            (std::vector<double>{2, 4, -2, 0, 127, 127, -128, 0, -128}));
}

TEST(ConversionOps, CastNaNToIntIsUndefined) {
  auto r = runOp("cast", {tensorOf("f32[2]", {1, NAN})}, castTo(DType::i32));
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(r.error().code(), ErrorCode::Undefined);
}

TEST(ConversionOps, CastFloatToNarrowFloatTiesToEven) {
  // 1 + 2^-8 lies halfway between bf16 neighbours 1 and 1 + 2^-7.
  auto bf =
      runOp("cast", {tensorOf("f32[3]", {1 + 0x1p-8, 1 + 3 * 0x1p-8, NAN})},
            castTo(DType::bf16));
  ASSERT_TRUE(bool(bf));
  EXPECT_EQ(bf->dtype(), DType::f64); // the reference keeps floats in f64
  EXPECT_EQ(bf->getF(0), 1.0);
  EXPECT_EQ(bf->getF(1), 1 + 0x1p-6);
  EXPECT_TRUE(std::isnan(bf->getF(2)));
  // 65520 is halfway between 65504 and 65536 (overflow): ties to even -> inf.
  auto h = runOp("cast", {tensorOf("f32[3]", {65520, 1 + 0x1p-11, -0.0})},
                 castTo(DType::f16));
  ASSERT_TRUE(bool(h));
  EXPECT_EQ(h->getF(0), INFINITY);
  EXPECT_EQ(h->getF(1), 1.0);
  EXPECT_TRUE(std::signbit(h->getF(2)));
}

TEST(ConversionOps, CastIntegersWrapAndBooleans) {
  auto w = runOp("cast", {tensorOf("i32[3]", {300, -129, 16777217})},
                 castTo(DType::i8));
  ASSERT_TRUE(bool(w));
  EXPECT_EQ(valuesOf(*w), (std::vector<double>{44, 127, 1}));
  auto f = runOp("cast", {tensorOf("i32[1]", {16777217})}, castTo(DType::f32));
  ASSERT_TRUE(bool(f));
  EXPECT_EQ(f->getF(0), 16777216.0); // int -> float rounds to nearest even
  auto b = runOp("cast", {tensorOf("i8[3]", {0, 5, -1})}, castTo(DType::i1));
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(valuesOf(*b), (std::vector<double>{0, 1, 1}));
  auto i = runOp("cast", {tensorOf("i1[2]", {1, 0})}, castTo(DType::i32));
  ASSERT_TRUE(bool(i));
  EXPECT_EQ(valuesOf(*i), (std::vector<double>{1, 0}));
}

TEST(ConversionOps, CastTypeRule) {
  EXPECT_NE(inferError("cast", {"f16[2]"}, castTo(DType::bf16)), "");
  EXPECT_NE(inferError("cast", {"f32[2]"}, castTo(DType::i1)), "");
  EXPECT_NE(inferError("cast", {"i8[2]"}, castTo(DType::i8)), "");
  EXPECT_EQ(inferError("cast", {"bf16[2]"}, castTo(DType::f32)), "");
}

TEST(ConversionOps, RescaleSingleVersusDoubleRound) {
  // multiplier 2^30, shift 33: scale 1/8. value 3 is 0.375: single round
  // gives floor(7/8) = 0, double round adds 2^30 and gives 1; -4 is -0.5.
  std::vector<double> in = {3, -4, 4, 12, -12};
  EXPECT_EQ(rescale("i32[5]", in, rescaleAttrs(DType::i32, 1 << 30, 33)),
            (std::vector<double>{0, 0, 1, 2, -1}));
  EXPECT_EQ(rescale("i32[5]", in,
                    rescaleAttrs(DType::i32, 1 << 30, 33, "DOUBLE_ROUND")),
            (std::vector<double>{1, -1, 1, 2, -2}));
  // Ties round up (towards +inf) with shift <= 31: 0.5 -> 1, -0.5 -> 0.
  EXPECT_EQ(
      rescale("i32[4]", {1, -1, 3, -3}, rescaleAttrs(DType::i32, 1 << 30, 31)),
      (std::vector<double>{1, 0, 2, -1}));
}

TEST(ConversionOps, RescaleInexactRoundIsDefinedOnlyWhereTheBoundIsOneValue) {
  // INEXACT_ROUND allows any integer within 0.5 (plus a few f32 ulps) of the
  // exact (x - input_zp) * m * 2^-shift: defined away from ties.
  Attrs a = rescaleAttrs(DType::i32, 1 << 30, 33, "INEXACT_ROUND");
  // 8 / 8 = 1; 3 / 8 = 0.375 -> 0 although single (0) and double (1)
  // rounding differ; -12 / 8 = -1.5 is a tie.
  EXPECT_EQ(rescale("i32[2]", {8, 3}, a), (std::vector<double>{1, 0}));
  for (double tie : {-12.0, 4.0}) {
    auto r = runOp("rescale", {tensorOf("i32[1]", {tie})}, a);
    ASSERT_FALSE(bool(r)) << tie;
    EXPECT_EQ(r.error().code(), ErrorCode::Undefined);
  }
  // A tie where single and double rounding agree is still undefined.
  auto t = runOp("rescale", {tensorOf("i32[1]", {1})},
                 rescaleAttrs(DType::i32, 1 << 30, 31, "INEXACT_ROUND"));
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(t.error().code(), ErrorCode::Undefined);
  // The output zero point and saturation apply to the bound.
  Attrs z = rescaleAttrs(DType::i8, 1 << 30, 30, "INEXACT_ROUND");
  z.set("output_zp", int64_t(5));
  EXPECT_EQ(rescale("i32[2]", {7, 200}, z), (std::vector<double>{12, 127}));
}

TEST(ConversionOps, RescaleZeroPointsSaturationAndUnsigned) {
  Attrs a = rescaleAttrs(DType::i8, 1 << 30, 30); // scale 1
  a.set("input_zp", int64_t(-128));
  a.set("output_zp", int64_t(10));
  EXPECT_EQ(rescale("i8[3]", {-128, 0, -118}, a),
            (std::vector<double>{10, 127, 20}));

  Attrs u = rescaleAttrs(DType::i16, 1 << 30, 30);
  u.set("input_unsigned", true);
  EXPECT_EQ(rescale("i8[2]", {-1, -128}, u), (std::vector<double>{255, 128}));

  Attrs o = rescaleAttrs(DType::i8, 1 << 30, 30);
  o.set("output_unsigned", true);
  // Clipped to [0, 255], then stored in signless i8 bits.
  EXPECT_EQ(rescale("i16[3]", {200, 300, -5}, o),
            (std::vector<double>{-56, -1, 0}));

  Attrs s16 = rescaleAttrs(DType::i16, 1 << 14, 14);
  s16.set("scale32", false);
  EXPECT_EQ(rescale("i32[2]", {70000, -40000}, s16),
            (std::vector<double>{32767, -32768}));
}

TEST(ConversionOps, RescalePerChannel) {
  Attrs a;
  a.set("to", DType::i32);
  a.set("multiplier", std::vector<int64_t>{1 << 30, 1 << 30});
  a.set("shift", std::vector<int64_t>{30, 31});
  a.set("per_channel", true);
  EXPECT_EQ(rescale("i32[2,2]", {4, 4, 6, 6}, a),
            (std::vector<double>{4, 2, 6, 3}));
}

TEST(ConversionOps, RescaleRequireViolationsAreUndefined) {
  for (Attrs a :
       {rescaleAttrs(DType::i32, -5, 30), rescaleAttrs(DType::i32, 1 << 30, 1),
        rescaleAttrs(DType::i32, 1 << 30, 30)}) {
    // The last case fails the value range check: 2^29 needs shift > 30.
    auto r = runOp("rescale", {tensorOf("i32[1]", {double(1 << 29)})}, a);
    ASSERT_FALSE(bool(r));
    EXPECT_EQ(r.error().code(), ErrorCode::Undefined) << r.error().message();
  }
}

TEST(ConversionOps, RescaleTypeRule) {
  Attrs a = rescaleAttrs(DType::i8, 1 << 30, 30, "DOUBLE_ROUND");
  a.set("scale32", false);
  EXPECT_NE(
      inferError("rescale", {"i8[2]"}, a).find("DOUBLE_ROUND requires scale32"),
      std::string::npos);
  Attrs zp = rescaleAttrs(DType::i8, 1 << 30, 30);
  zp.set("input_zp", int64_t(3));
  EXPECT_NE(inferError("rescale", {"i16[2]"}, zp).find("input_zp must be 0"),
            std::string::npos);
  Attrs pc = rescaleAttrs(DType::i8, 1 << 30, 30);
  pc.set("per_channel", true);
  EXPECT_NE(inferError("rescale", {"i8[2,3]"}, pc).find("need 3 value"),
            std::string::npos);
  EXPECT_NE(inferError("rescale", {"i8[2]"}, rescaleAttrs(DType::f32, 1, 2)),
            "");
}

TEST(ConversionOps, RescaleEmission) {
  Attrs a = rescaleAttrs(DType::i8, 1 << 30, 33, "DOUBLE_ROUND");
  auto t22 = emitOp("rescale", {"i32[4]"}, a, 22);
  ASSERT_TRUE(bool(t22));
  EXPECT_NE(t22->find("rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>"),
            std::string::npos);
  EXPECT_NE(t22->find("dense<1073741824> : tensor<1xi32>"), std::string::npos);
  auto t19 = emitOp("rescale", {"i32[4]"}, a, 19);
  ASSERT_TRUE(bool(t19));
  EXPECT_NE(t19->find("double_round = true"), std::string::npos);
  a.set("rounding_mode", std::string("INEXACT_ROUND"));
  auto u = emitOp("rescale", {"i32[4]"}, a, 19);
  ASSERT_FALSE(bool(u));
  EXPECT_EQ(u.error().code(), ErrorCode::Unsupported);
}

TEST(ConversionOps, ConstEvaluatesAndEmits) {
  Tensor v = tensorOf("f16[2]", {0.1, -INFINITY});
  Attrs a;
  a.set("value", v);
  auto r = runOp("const", {}, a);
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->getF(0), v.getF(0));
  EXPECT_EQ(r->getF(1), -INFINITY);
  auto text = emitOp("const", {}, a);
  ASSERT_TRUE(bool(text));
  EXPECT_NE(text->find("\"tosa.const\"() <{values = dense<"),
            std::string::npos);
}
