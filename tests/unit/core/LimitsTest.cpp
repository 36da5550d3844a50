// Sizes from a file or a flag never overflow and never reach an
// allocation beyond the limits of core/Limits.h: too large is one error.
#include "core/Limits.h"
#include "core/Json.h"
#include "core/Npy.h"

#include <gtest/gtest.h>

using namespace cc;

namespace {

std::string errorOf(const std::string &graphText) {
  auto g = parseGraph(graphText);
  return g ? "" : g.error().message();
}

// A graph of one `op` node on input x of `type`, with `attrs`.
std::string oneNode(const std::string &type, const std::string &op,
                    const std::string &attrs) {
  return R"({"format": "crosscheck-graph", "version": 1,
    "inputs": [{"name": "x", "type": ")" +
         type + R"("}],
    "nodes": [{"op": ")" +
         op + R"(", "operands": ["x"], "results": ["y"],
               "attrs": )" +
         attrs + R"(}],
    "outputs": ["y"]})";
}

TEST(Limits, CheckedNumElements) {
  EXPECT_EQ(*checkedNumElements({}), 1);
  EXPECT_EQ(*checkedNumElements({2, 3, 0}), 0);
  EXPECT_EQ(*checkedNumElements({kMaxTensorElements}), kMaxTensorElements);
  EXPECT_FALSE(checkedNumElements({kMaxTensorElements + 1}));
  EXPECT_FALSE(checkedNumElements({-1, 4}));
  // The int64 product overflows to a small positive number.
  EXPECT_FALSE(checkedNumElements({4294967296, 4294967296, 4294967296}));
  EXPECT_FALSE(checkedNumElements({INT64_MAX, INT64_MAX, 0}));
  EXPECT_FALSE(checkedNumElements(Shape(size_t(kMaxTensorRank + 1), 1)));
}

TEST(Limits, TensorTypesBeyondTheLimitAreErrors) {
  auto t = parseTensorType("f32[4294967296,4294967296,4294967296]");
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message().find("elements (the limit per tensor)"),
            std::string::npos)
      << t.error().message();
  EXPECT_FALSE(parseTensorType("f32[1000000,1000000]"));
  EXPECT_TRUE(parseTensorType("f32[134217728]"));
}

TEST(Limits, ShapeRulesRejectHugeAttributesWithoutOverflow) {
  EXPECT_NE(errorOf(oneNode("f32[4]", "slice",
                            R"({"start": [9223372036854775807], "size": [1]})"))
                .find("slice out of bounds"),
            std::string::npos);
  EXPECT_NE(errorOf(oneNode("f32[4]", "slice",
                            R"({"start": [1], "size": [9223372036854775807]})"))
                .find("slice out of bounds"),
            std::string::npos);
  EXPECT_NE(
      errorOf(
          oneNode("f32[4]", "pad",
                  R"({"padding": [9223372036854775807, 9223372036854775807]})"))
          .find("padding values must be in"),
      std::string::npos);
  EXPECT_NE(
      errorOf(oneNode("f32[4]", "tile", R"({"multiples": [500000000000]})"))
          .find("multiples values must be in"),
      std::string::npos);
  // Within the attribute bound, the result is still held to the limit.
  EXPECT_NE(
      errorOf(oneNode("f32[1024]", "tile", R"({"multiples": [134217728]})"))
          .find("the limit per tensor"),
      std::string::npos);
  EXPECT_NE(
      errorOf(oneNode("f32[4]", "reshape",
                      R"({"shape": [4294967296, 4294967296, 4294967296]})"))
          .find("the limit per tensor"),
      std::string::npos);
}

TEST(Limits, GraphTotalIsBounded) {
  std::string g = oneNode("f32[134217728]", "abs", "{}");
  EXPECT_EQ(errorOf(g), "");
  // Five values of 2^27 elements: more than 2^29 in all.
  std::string nodes;
  for (int i = 0; i < 4; ++i)
    nodes += std::string(i ? "," : "") + R"({"op": "abs", "operands": [")" +
             (i ? "v" + std::to_string(i - 1) : std::string("x")) +
             R"("], "results": ["v)" + std::to_string(i) + R"("]})";
  std::string big = R"({"format": "crosscheck-graph", "version": 1,
    "inputs": [{"name": "x", "type": "f32[134217728]"}], "nodes": [)" +
                    nodes + R"(], "outputs": ["v3"]})";
  EXPECT_NE(errorOf(big).find("(the limit per graph)"), std::string::npos)
      << errorOf(big);
}

// A .npy header of `shape` (f32) without data: the shape is checked first.
std::string npyHeader(const std::string &shape) {
  std::string h =
      "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }\n";
  return std::string("\x93NUMPY\x01\x00", 8) + char(h.size() & 0xff) +
         char(h.size() >> 8) + h;
}

TEST(Limits, NpyShapesAreChecked) {
  auto withShape = npyHeader;
  auto huge = parseNpy(withShape("(1000000000000, 1000000000000)"));
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message().find("the limit per tensor"),
            std::string::npos)
      << huge.error().message();
  // Beyond int64: an error, not std::out_of_range from stoll.
  EXPECT_FALSE(parseNpy(withShape("(99999999999999999999,)")));
  EXPECT_FALSE(parseNpy(withShape("(-4,)")));
}

} // namespace
