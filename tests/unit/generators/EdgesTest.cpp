// Edge values per use: the lists and their order are part of what a seed
// generates, so they are pinned here value by value.
#include "generators/Edges.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cc;

namespace {

// Bitwise equality: tells -0 from 0 and matches NaN with NaN.
void expectSame(const std::vector<double> &got,
                const std::vector<double> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << i;
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << i;
    else
      EXPECT_EQ(got[i], want[i]) << i;
  }
}

TEST(Edges, FloatEdgesPerUse) {
  const double belowHalf = 0.49999997019767761; // 0.5 - 2^-25
  expectSame(floatEdges(DType::f32, EdgeUse::Input),
             {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1.5, -1.5, 2.5, -2.5,
              belowHalf, -belowHalf});
  EXPECT_EQ(floatEdges(DType::f16, EdgeUse::Input).back(),
            -(0.5 - std::ldexp(1.0, -12)));
  expectSame(floatEdges(DType::bf16, EdgeUse::Constant),
             {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -1.5});
  expectSame(floatEdges(DType::f32, EdgeUse::Splat),
             {0.0, -0.0, 1.0, -1.0, 0.5, 2.0});
}

TEST(Edges, FloatSpecials) {
  const double denormal = std::ldexp(1.0, -16); // f16: 2^-14 / 4
  expectSame(floatSpecials(DType::f16, EdgeUse::Input),
             {INFINITY, -INFINITY, NAN, denormal, -denormal});
  expectSame(floatSpecials(DType::f16, EdgeUse::Constant),
             {INFINITY, -INFINITY, NAN, denormal, 65504.0});
}

TEST(Edges, IntEdgesPerUse) {
  using Ints = std::vector<int64_t>;
  EXPECT_EQ(intEdges(DType::i8, EdgeUse::Input, false),
            (Ints{0, 1, -1, 2, -2}));
  EXPECT_EQ(intEdges(DType::i8, EdgeUse::Input),
            (Ints{0, 1, -1, 2, -2, -128, 127, -127, 126}));
  EXPECT_EQ(intEdges(DType::i16, EdgeUse::Constant),
            (Ints{-32768, 32767, -1, 0, 1}));
  EXPECT_EQ(intEdges(DType::i1, EdgeUse::Constant), (Ints{0, 1, 1, 0, 1}));
  EXPECT_EQ(intEdges(DType::i32, EdgeUse::Splat),
            (Ints{0, 1, -1, 2, -2147483648LL, 2147483647}));
  EXPECT_EQ(intEdges(DType::i1, EdgeUse::Splat), (Ints{0, 1}));
}

TEST(Edges, EdgeValuesOfAnyDType) {
  expectSame(edgeValues(DType::f32, EdgeUse::Splat),
             {0.0, -0.0, 1.0, -1.0, 0.5, 2.0});
  expectSame(edgeValues(DType::i8, EdgeUse::Splat), {0, 1, -1, 2, -128, 127});
  expectSame(edgeValues(DType::i1, EdgeUse::Splat), {0, 1});
}

} // namespace
