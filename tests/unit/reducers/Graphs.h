// Small graphs shared by the reducer tests.
#pragma once

#include "core/Graph.h"

#include <gtest/gtest.h>

namespace cc::test {

// A float computation (sub, maximum) amid integer ops, three outputs.
inline Graph mixedGraph() {
  Graph g;
  g.name = "mixed";
  TensorType f{DType::f32, {2, 3}}, i{DType::i32, {2, 3}};
  ValueId x = g.addInput("x", f), y = g.addInput("y", f);
  ValueId a = g.addInput("a", i), b = g.addInput("b", i);
  auto add = [&](const char *op, std::vector<ValueId> operands) {
    auto v = g.add(op, std::move(operands));
    EXPECT_TRUE(v) << v.error().message();
    return v ? *v : 0;
  };
  ValueId t = add("bitwise_or", {add("bitwise_and", {a, b}), a});
  ValueId v = add("maximum", {add("sub", {x, y}), x});
  g.addOutput(t);
  g.addOutput(v);
  g.addOutput(add("bitwise_xor", {t, b}));
  return g;
}

} // namespace cc::test
