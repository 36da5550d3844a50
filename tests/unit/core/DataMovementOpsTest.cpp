#include "OpTestUtil.h"

using namespace cc;
using namespace cc::test;

namespace {

template <typename V> Attrs one(const std::string &name, V v) {
  Attrs a;
  a.set(name, v);
  return a;
}
using Ints = std::vector<int64_t>;

std::vector<double> run(const std::string &op, const std::vector<Tensor> &in,
                        Attrs a, Shape *shape = nullptr) {
  auto r = runOp(op, in, std::move(a));
  EXPECT_TRUE(bool(r)) << (r ? "" : r.error().message());
  if (r && shape)
    *shape = r->shape();
  return r ? valuesOf(*r) : std::vector<double>{};
}

const std::vector<double> k23 = {1, 2, 3, 4, 5, 6};

} // namespace

TEST(DataMovementOps, ReshapeAndTranspose) {
  Shape s;
  EXPECT_EQ(
      run("reshape", {tensorOf("f32[2,3]", k23)}, one("shape", Ints{3, 2}), &s),
      k23);
  EXPECT_EQ(s, (Shape{3, 2}));
  EXPECT_NE(inferError("reshape", {"f32[2,3]"}, one("shape", Ints{4, 2}))
                .find("element count mismatch"),
            std::string::npos);
  EXPECT_EQ(run("transpose", {tensorOf("f32[2,3]", k23)},
                one("perms", Ints{1, 0}), &s),
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(s, (Shape{3, 2}));
  EXPECT_NE(inferError("transpose", {"f32[2,3]"}, one("perms", Ints{0, 0}))
                .find("not a permutation"),
            std::string::npos);
}

TEST(DataMovementOps, SliceAndBounds) {
  Attrs a;
  a.set("start", Ints{1, 1});
  a.set("size", Ints{2, 2});
  std::vector<double> in(12);
  for (int i = 0; i < 12; ++i)
    in[size_t(i)] = i;
  EXPECT_EQ(run("slice", {tensorOf("i32[3,4]", in)}, a),
            (std::vector<double>{5, 6, 9, 10}));
  EXPECT_EQ(run("slice", {tensorOf("i1[3,4]", std::vector<double>(12, 1))}, a),
            (std::vector<double>{1, 1, 1, 1}));
  a.set("start", Ints{2, 3});
  EXPECT_NE(inferError("slice", {"i32[3,4]"}, a).find("out of bounds"),
            std::string::npos);
}

TEST(DataMovementOps, ConcatAlongAxis) {
  Shape s;
  EXPECT_EQ(
      run("concat",
          {tensorOf("f32[2,1]", {1, 2}), tensorOf("f32[2,2]", {3, 4, 5, 6})},
          one("axis", int64_t(1)), &s),
      (std::vector<double>{1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(s, (Shape{2, 3}));
  EXPECT_NE(
      inferError("concat", {"f32[2,1]", "f32[3,1]"}, one("axis", int64_t(1)))
          .find("does not match"),
      std::string::npos);
}

TEST(DataMovementOps, PadWithConstant) {
  Attrs a;
  a.set("padding", Ints{1, 0, 0, 1});
  a.set("pad_const", 9.0);
  Shape s;
  EXPECT_EQ(run("pad", {tensorOf("i8[2,2]", {1, 2, 3, 4})}, a, &s),
            (std::vector<double>{9, 9, 9, 1, 2, 9, 3, 4, 9}));
  EXPECT_EQ(s, (Shape{3, 3}));
  a.set("pad_const", 1.5);
  EXPECT_NE(inferError("pad", {"i8[2,2]"}, a).find("pad_const"),
            std::string::npos);
  // The pad value is the one the f16 constant holds.
  a.set("pad_const", 0.1);
  a.set("padding", Ints{1, 0});
  EXPECT_EQ(run("pad", {tensorOf("f16[1]", {2})}, a),
            (std::vector<double>{0.0999755859375, 2}));
  auto t = emitOp("pad", {"f16[1]"}, a);
  ASSERT_TRUE(bool(t));
  EXPECT_NE(t->find("\"tosa.const_shape\"() <{values = dense<[1, 0]> : "
                    "tensor<2xindex>}>"),
            std::string::npos);
}

TEST(DataMovementOps, TileAndReverse) {
  EXPECT_EQ(
      run("tile", {tensorOf("i16[1,2]", {7, 8})}, one("multiples", Ints{2, 2})),
      (std::vector<double>{7, 8, 7, 8, 7, 8, 7, 8}));
  EXPECT_EQ(
      run("reverse", {tensorOf("f32[2,3]", k23)}, one("axis", int64_t(0))),
      (std::vector<double>{4, 5, 6, 1, 2, 3}));
  EXPECT_EQ(
      run("reverse", {tensorOf("f32[2,3]", k23)}, one("axis", int64_t(1))),
      (std::vector<double>{3, 2, 1, 6, 5, 4}));
  EXPECT_NE(inferError("tile", {"f32[2]"}, one("multiples", Ints{0})), "");
}

TEST(DataMovementOps, GatherAndIndexDomain) {
  Tensor values = tensorOf("f32[1,3,2]", {1, 2, 3, 4, 5, 6});
  Shape s;
  EXPECT_EQ(run("gather", {values, tensorOf("i32[1,2]", {2, 0})}, {}, &s),
            (std::vector<double>{5, 6, 1, 2}));
  EXPECT_EQ(s, (Shape{1, 2, 2}));
  auto bad = runOp("gather", {values, tensorOf("i32[1,1]", {3})});
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(bad.error().code(), ErrorCode::Undefined);
  EXPECT_EQ(findOp("gather")->domain(1), Domain::Index);
}

TEST(DataMovementOps, ShapeOperandEmission) {
  auto t22 = emitOp("reshape", {"f32[2,3]"}, one("shape", Ints{6}), 22);
  ASSERT_TRUE(bool(t22));
  EXPECT_NE(t22->find("(tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>"),
            std::string::npos);
  auto t19 = emitOp("reshape", {"f32[2,3]"}, one("shape", Ints{6}), 19);
  ASSERT_TRUE(bool(t19));
  EXPECT_NE(t19->find("new_shape = array<i64: 6>"), std::string::npos);
}
