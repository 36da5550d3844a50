// ONNX import/export: round trips of the seed corpus and clear errors for
// malformed models.
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace cc {
namespace {

Graph addGraph() {
  Graph g;
  g.name = "addg";
  ValueId a = g.addInput("a", {DType::f32, {2, 3}});
  ValueId b = g.addInput("b", {DType::f32, {1, 3}});
  ValueId s = *g.add("add", {a, b});
  ValueId r = *g.add("abs", {s});
  g.values[r].name = "r";
  g.addOutput(r);
  return g;
}

TEST(OnnxTest, ElementwiseGraphRoundTripsExactly) {
  Graph g = addGraph();
  auto bytes = exportOnnxModel(g);
  ASSERT_TRUE(bytes) << bytes.error().message();
  auto back = importOnnx(*bytes);
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(graphToJson(*back), graphToJson(g));
}

// Every exportable seed imports again and computes bit-identical reference
// outputs (the structure may differ: ONNX's NCHW convolutions come back
// wrapped in transposes).
TEST(OnnxTest, SeedCorpusRoundTrips) {
  int exported = 0;
  for (const std::string &file : test::seedFiles()) {
    SCOPED_TRACE(file);
    auto g = loadGraph(file);
    ASSERT_TRUE(g) << g.error().message();
    auto bytes = exportOnnxModel(*g);
    if (!bytes) {
      EXPECT_EQ(bytes.error().code(), ErrorCode::Unsupported)
          << bytes.error().message();
      EXPECT_NE(bytes.error().message().find("ONNX cannot express"),
                std::string::npos);
      continue;
    }
    ++exported;
    auto back = importOnnx(*bytes);
    ASSERT_TRUE(back) << back.error().message();
    ASSERT_EQ(back->inputs.size(), g->inputs.size());
    for (size_t i = 0; i < g->inputs.size(); ++i)
      EXPECT_EQ(back->typeOf(back->inputs[i]), g->typeOf(g->inputs[i]));
    Inputs inputs = makeInputs(*g, 7, InputOptions{});
    auto want = interpret(*g, inputs);
    auto got = interpret(*back, inputs);
    ASSERT_EQ(bool(want), bool(got));
    if (want) {
      EXPECT_EQ(*got, *want);
    }
  }
  EXPECT_GE(exported, 10); // most of the corpus has ONNX equivalents
}

TEST(OnnxTest, ExportWritesTestDataLayout) {
  Graph g = addGraph();
  Inputs in = makeInputs(g, 1, InputOptions{});
  auto out = interpret(g, in);
  ASSERT_TRUE(out);
  std::string dir = ::testing::TempDir() + "/onnx_export_case";
  ASSERT_FALSE(exportOnnx(g, in, *out, dir));
  auto tc = loadOnnxTestCase(dir);
  ASSERT_TRUE(tc) << tc.error().message();
  EXPECT_EQ(tc->inputs, in);
  ASSERT_EQ(tc->expected.size(), 1u);
  EXPECT_EQ(tc->expected[0], (*out)[0].convertTo(DType::f32));
  EXPECT_EQ(tc->opTypes, (std::vector<std::string>{"Abs", "Add"}));
}

TEST(OnnxTest, UnexportableOpsAreListedInOneError) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {4}});
  ValueId r = *g.add("rsqrt", {x});
  Attrs a;
  a.set("nan_mode", std::string("IGNORE"));
  ValueId m = *g.add("maximum", {r, x}, a);
  g.addOutput(m);
  auto bytes = exportOnnxModel(g);
  ASSERT_FALSE(bytes);
  EXPECT_NE(
      bytes.error().message().find("rsqrt (no single ONNX op (not exported))"),
      std::string::npos);
  EXPECT_NE(bytes.error().message().find("maximum (nan_mode IGNORE)"),
            std::string::npos);
}

TEST(OnnxTest, MalformedModelsGiveClearErrors) {
  auto bytes = exportOnnxModel(addGraph());
  ASSERT_TRUE(bytes);
  auto truncated = importOnnx(bytes->substr(0, bytes->size() / 2));
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().message().find("not a valid ONNX model"),
            std::string::npos);
  auto text = importOnnx("this is not protobuf at all");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message().find("not a valid ONNX model"),
            std::string::npos);
}

std::string testDataDir() { return "/usr/share/libonnx-testdata/data/node"; }

TEST(OnnxTest, UnsupportedOpsAreListedInOneError) {
  // A graph with Sin, which the op table lacks.
  std::string dir = testDataDir() + "/test_sin";
  if (!std::filesystem::exists(dir))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  auto g = loadOnnx(dir + "/model.onnx");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().code(), ErrorCode::Unsupported);
  EXPECT_NE(g.error().message().find(
                "unsupported ONNX ops: Sin (no op-table equivalent"),
            std::string::npos)
      << g.error().message();
}

// A one-node model built directly (a negative dimension is symbolic).
std::string oneNodeModel(const std::string &opType, Shape shape) {
  onnx::ModelProto m;
  m.opset = 13;
  m.graphName = "m";
  m.inputs.push_back({"x", TensorType{DType::f32, shape}, ""});
  m.outputs.push_back({"y", TensorType{DType::f32, shape}, ""});
  m.nodes.push_back({opType, "", {"x"}, {"y"}, {}});
  return onnx::serializeModel(m);
}

TEST(OnnxTest, DynamicShapesAreRefused) {
  auto g = importOnnx(oneNodeModel("Abs", {-1, 3}));
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("graph input 'x': dimension 0 is symbolic "
                                     "('N') (static shapes only)"),
            std::string::npos)
      << g.error().message();
  auto ok = importOnnx(oneNodeModel("Abs", {2, 3}));
  ASSERT_TRUE(ok) << ok.error().message();
  EXPECT_EQ(ok->nodes.size(), 1u);
  EXPECT_EQ(ok->nodes[0].op, OpId::Abs);
}

TEST(OnnxTest, HugeInputsAreErrors) {
  auto g = importOnnx(oneNodeModel("Abs", {1000000, 1000000}));
  ASSERT_FALSE(g);
  EXPECT_NE(
      g.error().message().find("graph input 'x' f32[1000000,1000000]: more "
                               "than 134217728 elements"),
      std::string::npos)
      << g.error().message();
}

TEST(OnnxTest, UnknownOpsAreAllListed) {
  onnx::ModelProto m;
  m.opset = 13;
  m.inputs.push_back({"x", TensorType{DType::f32, {2}}, ""});
  m.outputs.push_back({"z", TensorType{DType::f32, {2}}, ""});
  m.nodes.push_back({"Frobnicate", "", {"x"}, {"y"}, {}});
  m.nodes.push_back({"Sin", "", {"y"}, {"z"}, {}});
  auto g = importOnnx(onnx::serializeModel(m));
  ASSERT_FALSE(g);
  EXPECT_NE(
      g.error().message().find(
          "unsupported ONNX ops: Frobnicate, Sin (no op-table equivalent"),
      std::string::npos)
      << g.error().message();
}

} // namespace
} // namespace cc
