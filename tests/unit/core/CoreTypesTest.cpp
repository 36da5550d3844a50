#include "core/DType.h"
#include "core/Npy.h"
#include "core/Rng.h"
#include "core/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace cc;

TEST(DType, NamesRoundTrip) {
  for (DType t : kAllDTypes)
    EXPECT_EQ(parseDType(dtypeName(t)), t);
  EXPECT_FALSE(parseDType("f8"));
}

TEST(DType, IntLimitsAndWrap) {
  EXPECT_EQ(intMin(DType::i8), -128);
  EXPECT_EQ(intMax(DType::i16), 32767);
  EXPECT_EQ(wrapInt(DType::i8, 128), -128);
  EXPECT_EQ(wrapInt(DType::i32, int64_t(1) << 31), INT32_MIN);
  EXPECT_EQ(wrapInt(DType::i1, 3), 1);
}

TEST(DType, F16RoundingTiesToEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties to the even 1.
  EXPECT_EQ(roundToFloat(DType::f16, 1.0 + std::ldexp(1.0, -11)), 1.0);
  // 1 + 3*2^-11 lies halfway between 1+2^-10 and 1+2^-9: even is 1+2^-9.
  EXPECT_EQ(roundToFloat(DType::f16, 1.0 + 3 * std::ldexp(1.0, -11)),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToFloat(DType::f16, 65504.0), 65504.0);
  EXPECT_EQ(roundToFloat(DType::f16, 65519.0), 65504.0); // below the midpoint
  EXPECT_TRUE(std::isinf(roundToFloat(DType::f16, 65520.0))); // at it: Inf
  // Smallest denormal 2^-24; half of it ties to even zero.
  EXPECT_EQ(roundToFloat(DType::f16, std::ldexp(1.0, -25)), 0.0);
  EXPECT_EQ(roundToFloat(DType::f16, std::ldexp(1.5, -25)),
            std::ldexp(1.0, -24));
  EXPECT_TRUE(std::signbit(roundToFloat(DType::f16, -1e-30)));
}

TEST(DType, F16BitsRoundTrip) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint16_t bits = uint16_t(b);
    double v = f16BitsToF64(bits);
    if (std::isnan(v))
      continue;
    EXPECT_EQ(f64ToF16Bits(v), bits) << b;
  }
  EXPECT_EQ(f64ToF16Bits(1.0), 0x3c00);
  EXPECT_EQ(f64ToF16Bits(-2.0), 0xc000);
  EXPECT_EQ(f64ToF16Bits(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(f16BitsToF64(f64ToF16Bits(NAN))));
}

TEST(DType, BF16RoundsOnceFromF64) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    uint16_t bits = uint16_t(b);
    double v = bf16BitsToF64(bits);
    if (std::isnan(v))
      continue;
    EXPECT_EQ(f64ToBF16Bits(v), bits) << b;
  }
  // 1 + 2^-8 is the tie between 1 and 1 + 2^-7: even is 1.
  EXPECT_EQ(bf16BitsToF64(f64ToBF16Bits(1.0 + std::ldexp(1.0, -8))), 1.0);
  // Just above the tie rounds up; rounding through f32 first would not
  // change this, but a value above the tie by less than an f32 ulp would.
  double justAbove = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(bf16BitsToF64(f64ToBF16Bits(justAbove)), 1.0 + std::ldexp(1.0, -7));
}

TEST(DType, F32MatchesHardware) {
  Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    double v =
        rng.uniform(-1e6, 1e6) * std::ldexp(1.0, int(rng.uniformInt(-60, 60)));
    EXPECT_EQ(roundToFloat(DType::f32, v), double(float(v)));
  }
}

TEST(Tensor, StorageIsExactPerDType) {
  Tensor t(DType::bf16, {2});
  t.setF(0, 1.0);
  t.setF(1, -0.0);
  uint16_t bits[2];
  std::memcpy(bits, t.data(), 4);
  EXPECT_EQ(bits[0], 0x3f80);
  EXPECT_EQ(bits[1], 0x8000);
  Tensor i(DType::i8, {1});
  i.setI(0, 200);
  EXPECT_EQ(i.getI(0), -56);
  EXPECT_EQ(t.byteCount(), 4u);
}

TEST(Tensor, TypeParsing) {
  auto t = parseTensorType("f16[2,3]");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->dtype, DType::f16);
  EXPECT_EQ(t->shape, (Shape{2, 3}));
  EXPECT_EQ(t->mlir(), "tensor<2x3xf16>");
  EXPECT_EQ(parseTensorType("i1[]")->str(), "i1[]");
  EXPECT_FALSE(parseTensorType("f32[2,x]"));
  EXPECT_FALSE(parseTensorType("q8[2]"));
  EXPECT_FALSE(parseTensorType("f32"));
}

TEST(Rng, DeterministicAndStreamsDiffer) {
  Rng a(42), b(42), c = Rng::forStream(42, 1), d = Rng::forStream(42, 2);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(a.next(), b.next());
  EXPECT_NE(c.next(), d.next());
  Rng r(1);
  for (int i = 0; i < 1000; ++i) {
    int64_t x = r.uniformInt(-3, 3);
    EXPECT_GE(x, -3);
    EXPECT_LE(x, 3);
  }
  // The sequence is fixed forever: a changed generator breaks reproduction.
  EXPECT_EQ(Rng(0).next(), 11091344671253066420ULL);
  EXPECT_EQ(Rng(0).uniformInt(0, 1000000), 486501);
}

TEST(Npy, RoundTripEveryDType) {
  for (DType t : {DType::i1, DType::i8, DType::i16, DType::i32, DType::f16,
                  DType::f32, DType::f64}) {
    Tensor x(t, {2, 3});
    for (int64_t i = 0; i < x.size(); ++i) {
      if (isFloat(t))
        x.setF(i, i * 0.5 - 1);
      else
        x.setI(i, i % 2);
    }
    auto y = parseNpy(npyBytes(x));
    ASSERT_TRUE(y) << y.error().message();
    EXPECT_EQ(*y, x) << dtypeName(t);
  }
  Tensor s(DType::f32, {});
  s.setF(0, 3.5);
  EXPECT_EQ(*parseNpy(npyBytes(s)), s);
}

TEST(Npy, BadFilesAreErrors) {
  EXPECT_FALSE(parseNpy("hello"));
  std::string ok = npyBytes(Tensor(DType::f32, {4}));
  EXPECT_FALSE(parseNpy(ok.substr(0, ok.size() - 1)));
  EXPECT_FALSE(readNpy("/nonexistent/x.npy"));
}
