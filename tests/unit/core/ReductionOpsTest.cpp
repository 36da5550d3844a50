#include "OpTestUtil.h"

#include <cmath>

using namespace cc;
using namespace cc::test;

namespace {

Attrs axisAttrs(int64_t axis, const std::string &nanMode = "") {
  Attrs a;
  a.set("axis", axis);
  if (!nanMode.empty())
    a.set("nan_mode", nanMode);
  return a;
}

Tensor run(const std::string &op, const Tensor &in, Attrs a,
           Precision p = Precision::F64) {
  auto r = runOp(op, {in}, std::move(a), p);
  EXPECT_TRUE(bool(r)) << (r ? "" : r.error().message());
  return r ? *r : Tensor();
}

} // namespace

TEST(ReductionOps, SumKeepsAxis) {
  Tensor r =
      run("reduce_sum", tensorOf("f32[2,3]", {1, 2, 3, 4, 5, 6}), axisAttrs(1));
  EXPECT_EQ(r.shape(), (Shape{2, 1}));
  EXPECT_EQ(valuesOf(r), (std::vector<double>{6, 15}));
  Tensor c =
      run("reduce_sum", tensorOf("i32[2,3]", {1, 2, 3, 4, 5, 6}), axisAttrs(0));
  EXPECT_EQ(c.shape(), (Shape{1, 3}));
  EXPECT_EQ(valuesOf(c), (std::vector<double>{5, 7, 9}));
}

TEST(ReductionOps, SumIntegerOverflowIsUndefined) {
  auto r =
      runOp("reduce_sum", {tensorOf("i32[2]", {2147483647, 1})}, axisAttrs(0));
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(r.error().code(), ErrorCode::Undefined);
}

TEST(ReductionOps, SumInTargetPrecisionRoundsEachStep) {
  Tensor in = tensorOf("f16[3]", {2048, 1, 1});
  EXPECT_EQ(run("reduce_sum", in, axisAttrs(0)).getF(0), 2050.0);
  // In f16, 2048 + 1 is a tie that rounds back to 2048, twice.
  EXPECT_EQ(run("reduce_sum", in, axisAttrs(0), Precision::Target).getF(0),
            2048.0);
}

TEST(ReductionOps, ProductWithInfinity) {
  Tensor r = run("reduce_product", tensorOf("f32[3]", {2, -3, INFINITY}),
                 axisAttrs(0));
  EXPECT_EQ(r.getF(0), -INFINITY);
  EXPECT_TRUE(std::isnan(
      run("reduce_product", tensorOf("f32[2]", {0, INFINITY}), axisAttrs(0))
          .getF(0)));
}

TEST(ReductionOps, MaxMinNanMode) {
  Tensor in = tensorOf("f32[2,3]", {1, NAN, 3, NAN, NAN, NAN});
  Tensor p = run("reduce_max", in, axisAttrs(1, "PROPAGATE"));
  EXPECT_TRUE(std::isnan(p.getF(0)));
  Tensor i = run("reduce_max", in, axisAttrs(1, "IGNORE"));
  EXPECT_EQ(i.getF(0), 3.0);
  EXPECT_TRUE(std::isnan(i.getF(1))); // all NaN stays NaN
  EXPECT_EQ(run("reduce_min", in, axisAttrs(1, "IGNORE")).getF(0), 1.0);
}

TEST(ReductionOps, MaxMinSignedZeroAndIntegers) {
  Tensor z = tensorOf("f32[2]", {0.0, -0.0});
  EXPECT_TRUE(std::signbit(run("reduce_min", z, axisAttrs(0)).getF(0)));
  EXPECT_FALSE(std::signbit(run("reduce_max", z, axisAttrs(0)).getF(0)));
  Tensor i = tensorOf("i8[3]", {-128, 127, 0});
  EXPECT_EQ(valuesOf(run("reduce_min", i, axisAttrs(0))),
            (std::vector<double>{-128}));
  EXPECT_EQ(valuesOf(run("reduce_max", i, axisAttrs(0))),
            (std::vector<double>{127}));
}

TEST(ReductionOps, MaxMinSignedZeroFollowTheFoldOrder) {
  // REDUCE_MAX folds acc = apply_max_s(acc, v) = (acc >= v ? acc : v):
  // -0 and +0 are equal, so max keeps the first zero and min takes the last.
  Tensor z = tensorOf("f32[2]", {-0.0, 0.0});
  for (const char *mode : {"PROPAGATE", "IGNORE"}) {
    EXPECT_TRUE(std::signbit(run("reduce_max", z, axisAttrs(0, mode)).getF(0)))
        << mode;
    EXPECT_FALSE(std::signbit(run("reduce_min", z, axisAttrs(0, mode)).getF(0)))
        << mode;
  }
}

TEST(ReductionOps, ArgMaxFirstMaximumAndNan) {
  Tensor r = run("argmax", tensorOf("f32[4]", {1, 5, 5, 2}), axisAttrs(0));
  EXPECT_EQ(r.dtype(), DType::i32);
  EXPECT_EQ(r.shape(), Shape{});
  EXPECT_EQ(r.getI(0), 1);
  Tensor n = tensorOf("f32[4]", {1, 5, NAN, 7});
  EXPECT_EQ(run("argmax", n, axisAttrs(0, "PROPAGATE")).getI(0), 2);
  EXPECT_EQ(run("argmax", n, axisAttrs(0, "IGNORE")).getI(0), 3);
  Tensor m = run("argmax", tensorOf("i8[2,2]", {3, -1, 2, 9}), axisAttrs(0));
  EXPECT_EQ(m.shape(), (Shape{2}));
  EXPECT_EQ(valuesOf(m), (std::vector<double>{0, 1}));
}

TEST(ReductionOps, TypeRuleErrors) {
  EXPECT_NE(
      inferError("reduce_sum", {"f32[2,3]"}, axisAttrs(2)).find("out of range"),
      std::string::npos);
  EXPECT_NE(inferError("reduce_max", {"f32[2]"}, axisAttrs(0, "MAYBE")), "");
  // TOSA 1.0 has no integer reduce_product: the verifier rejects the dtype.
  auto r = runOp("reduce_product", {tensorOf("i32[2]", {1, 2})}, axisAttrs(0));
  EXPECT_FALSE(bool(r));
}

TEST(ReductionOps, Emission) {
  auto t = emitOp("reduce_max", {"f32[2,3]"}, axisAttrs(1, "IGNORE"), 22);
  ASSERT_TRUE(bool(t));
  EXPECT_NE(t->find("<{axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>}>"),
            std::string::npos);
  auto old = emitOp("reduce_max", {"f32[2,3]"}, axisAttrs(1, "IGNORE"), 19);
  ASSERT_FALSE(bool(old));
  EXPECT_EQ(old.error().code(), ErrorCode::Unsupported);
  auto prod = emitOp("reduce_product", {"f32[2,3]"}, axisAttrs(0), 19);
  ASSERT_TRUE(bool(prod));
  EXPECT_NE(prod->find("\"tosa.reduce_prod\""), std::string::npos);
}
