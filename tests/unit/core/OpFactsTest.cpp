// The op facts that generators and the reference key on (OpDef::accumulates,
// keepsQuantScale, intExtremes, magnitude), op by op: each list here is what
// the table must say, so that a new op states its facts deliberately.
#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>

using namespace cc;

namespace {

std::set<std::string> opsWhere(const std::function<bool(const OpDef &)> &pred) {
  std::set<std::string> names;
  for (const OpDef &op : allOps())
    if (pred(op))
      names.insert(op.name);
  return names;
}

using Names = std::set<std::string>;

TEST(OpFacts, AccumulatingOps) {
  EXPECT_EQ(opsWhere([](const OpDef &op) { return op.accumulates; }),
            (Names{"matmul", "conv2d", "depthwise_conv2d", "transpose_conv2d",
                   "reduce_sum", "reduce_product", "avg_pool2d"}));
}

TEST(OpFacts, OpsThatKeepTheQuantizationScale) {
  EXPECT_EQ(opsWhere([](const OpDef &op) { return op.keepsQuantScale; }),
            (Names{"reshape", "transpose", "slice", "reverse", "tile",
                   "max_pool2d", "gather"}));
}

TEST(OpFacts, IntegerExtremes) {
  auto with = [](IntExtremes e) {
    return opsWhere([e](const OpDef &op) { return op.intExtremes == e; });
  };
  EXPECT_EQ(with(IntExtremes::AllOperands),
            (Names{"bitwise_and", "bitwise_or",    "bitwise_xor", "equal",
                   "greater",     "greater_equal", "maximum",     "minimum",
                   "clamp",       "cast",          "select",      "reshape",
                   "transpose",   "slice",         "concat",      "pad",
                   "tile",        "reverse",       "reduce_max",  "reduce_min",
                   "argmax",      "max_pool2d",    "logical_and", "logical_or",
                   "logical_not"}));
  EXPECT_EQ(with(IntExtremes::FirstOperand),
            (Names{"arithmetic_right_shift", "logical_left_shift", "gather"}));
  const OpDef *shift = findOp("logical_left_shift");
  EXPECT_TRUE(shift->allowsIntExtremes(0));
  EXPECT_FALSE(shift->allowsIntExtremes(1));
  EXPECT_TRUE(findOp("concat")->allowsIntExtremes(40));
  EXPECT_FALSE(findOp("add")->allowsIntExtremes(0));
}

TEST(OpFacts, Magnitudes) {
  auto with = [](Magnitude m) {
    return opsWhere([m](const OpDef &op) { return op.magnitude == m; });
  };
  EXPECT_EQ(with(Magnitude::OfOperands), (Names{"add",
                                                "mul",
                                                "matmul",
                                                "conv2d",
                                                "depthwise_conv2d",
                                                "transpose_conv2d",
                                                "reduce_sum",
                                                "avg_pool2d",
                                                "negate",
                                                "abs",
                                                "cast",
                                                "reshape",
                                                "transpose",
                                                "slice",
                                                "concat",
                                                "pad",
                                                "tile",
                                                "reverse",
                                                "gather",
                                                "select"}));
  EXPECT_EQ(with(Magnitude::AsAdd), (Names{"sub"}));
  EXPECT_EQ(with(Magnitude::BySlope),
            (Names{"exp", "log", "tanh", "sigmoid", "erf", "rsqrt",
                   "reciprocal", "clamp"}));
  // clamp passes x through inside its bounds, not at them.
  EXPECT_EQ(findOp("clamp")->slope(0.5, 0.5), 1);
  EXPECT_EQ(findOp("clamp")->slope(7, 6), 0);
  for (const char *name :
       {"exp", "log", "tanh", "sigmoid", "erf", "rsqrt", "reciprocal"}) {
    // The slope is the derivative: against a central difference at 0.7.
    const OpDef *op = findOp(name);
    ASSERT_TRUE(op->slope) << name;
    auto f = [op](double x) {
      Graph g;
      ValueId in = g.addInput("x", {DType::f32, {1}});
      g.addOutput(*g.add(op->name, {in}));
      Tensor t(DType::f32, {1});
      t.setF(0, x);
      return (*interpret(g, {t}, Precision::F64))[0].getF(0);
    };
    double x = 0.7, h = 1e-3;
    EXPECT_NEAR(op->slope(x, f(x)), (f(x + h) - f(x - h)) / (2 * h), 1e-3)
        << name;
  }
}

} // namespace
