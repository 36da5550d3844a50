#include "core/File.h"
#include "core/Json.h"
#include "core/OpTable.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace cc;

namespace {
const char *kMlp = R"({
  "format": "crosscheck-graph", "version": 1, "name": "tiny",
  "inputs": [{"name": "x", "type": "f32[2,3]"}],
  "nodes": [
    {"op": "const", "results": ["b"],
     "attrs": {"value": {"type": "f32[1,3]", "data": [1.5, "nan", -0.0]}}},
    {"op": "add", "operands": ["x", "b"], "results": [{"name": "y", "type": "f32[2,3]"}]},
    {"op": "clamp", "operands": ["y"], "results": ["z"],
     "attrs": {"min": 0.0, "max": "inf"}}
  ],
  "outputs": ["z", "y"]
})";

std::string errorOf(const std::string &text) {
  auto g = parseGraph(text);
  return g ? "" : g.error().message();
}

std::string replaced(std::string s, const std::string &from,
                     const std::string &to) {
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return p == std::string::npos ? s : s.replace(p, from.size(), to);
}
} // namespace

TEST(GraphJson, ParsesAndRoundTrips) {
  auto g = parseGraph(kMlp);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(g->name, "tiny");
  EXPECT_EQ(g->nodes.size(), 3u);
  EXPECT_EQ(g->outputs.size(), 2u);
  EXPECT_EQ(g->typeOf(g->lookup("y")).str(), "f32[2,3]");
  auto again = parseGraph(printGraph(*g));
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(printGraph(*again), printGraph(*g));
  // NaN does not compare equal to itself, so compare the constant bytes.
  EXPECT_EQ(again->nodes[0].attrs.getTensor("value"),
            g->nodes[0].attrs.getTensor("value"));
  EXPECT_TRUE(std::signbit(g->nodes[0].attrs.getTensor("value").getF(2)));
}

TEST(GraphJson, ClearErrors) {
  EXPECT_EQ(errorOf("{"), "malformed JSON at byte 2");
  EXPECT_NE(
      errorOf(replaced(kMlp, "\"add\"", "\"addd\"")).find("unknown op 'addd'"),
      std::string::npos);
  EXPECT_NE(errorOf(replaced(kMlp, "\"version\": 1", "\"version\": 9"))
                .find("version 9"),
            std::string::npos);
  EXPECT_NE(errorOf(replaced(kMlp, "f32[1,3]\", \"data\": [1.5, \"nan\", -0.0]",
                             "f32[1,4]\", \"data\": [1.5, \"nan\", -0.0, 1]"))
                .find("node 1 (add)"),
            std::string::npos);
  EXPECT_NE(errorOf(replaced(kMlp, "\"operands\": [\"x\", \"b\"]",
                             "\"operands\": [\"x\", \"q\"]"))
                .find("'q' is not defined"),
            std::string::npos);
  EXPECT_NE(errorOf(replaced(kMlp, "{\"name\": \"y\", \"type\": \"f32[2,3]\"}",
                             "{\"name\": \"y\", \"type\": \"f16[2,3]\"}"))
                .find("declared f16[2,3]"),
            std::string::npos);
  EXPECT_NE(errorOf(replaced(kMlp, "\"max\": \"inf\"", "\"maxx\": 1"))
                .find("unknown attribute 'maxx'"),
            std::string::npos);
  EXPECT_NE(
      errorOf(replaced(kMlp, "\"outputs\": [\"z\", \"y\"]", "\"outputs\": []"))
          .find("no outputs"),
      std::string::npos);
  EXPECT_NE(errorOf(replaced(replaced(kMlp, "\"results\": [\"z\"]",
                                      "\"results\": [\"y\"]"),
                             "[\"z\", \"y\"]", "[\"y\"]"))
                .find("defined twice"),
            std::string::npos);
}

TEST(GraphJson, LoadGraphNamesTheFile) {
  auto g = loadGraph("/nonexistent/graph.json");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("/nonexistent/graph.json"),
            std::string::npos);
}

TEST(GraphJson, JsonExceptionsAreErrors) {
  // nlohmann throws out_of_range (not parse_error) for 1e999.
  std::string e = errorOf(replaced(kMlp, "1.5", "1e999"));
  EXPECT_NE(e.find("malformed JSON: number overflow"), std::string::npos) << e;
  // A number where a string belongs reaches nlohmann's type_error.
  e = errorOf(R"({"format": 1, "version": 1})");
  EXPECT_NE(e.find("bad graph: "), std::string::npos) << e;
}

TEST(GraphJson, ReadFileNamesADirectory) {
  std::string dir = std::filesystem::temp_directory_path().string();
  auto r = readFile(dir);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message(), "'" + dir + "' is a directory");
  auto g = loadGraph(dir);
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message().find("is a directory"), std::string::npos);
}

TEST(Graph, BuilderInfersTypesAndVerifies) {
  Graph g;
  ValueId x = g.addInput("x", {DType::f32, {2, 3}});
  ValueId y = g.addInput("y", {DType::f32, {1, 3}});
  auto s = g.add("add", {x, y});
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(g.typeOf(*s).shape, (Shape{2, 3}));
  g.addOutput(*s);
  EXPECT_FALSE(verify(g));
  // A wrong result type recorded by hand is caught by the verifier.
  g.values[*s].type.shape = {3, 3};
  Error e = verify(g);
  ASSERT_TRUE(e);
  EXPECT_NE(e.message().find("has type f32[3,3] but add gives f32[2,3]"),
            std::string::npos);
  auto bad = g.add("add", {x, g.addInput("w", {DType::f32, {4, 3}})});
  ASSERT_FALSE(bad);
}

TEST(OpTable, EveryOpIsComplete) {
  ASSERT_GE(allOps().size(), 53u);
  for (const OpDef &op : allOps()) {
    SCOPED_TRACE(op.name);
    EXPECT_FALSE(op.summary.empty());
    EXPECT_FALSE(op.dtypes.empty() && op.minOperands > 0);
    EXPECT_TRUE(op.infer);
    EXPECT_TRUE(op.eval);
    EXPECT_TRUE(op.emit);
    EXPECT_EQ(findOp(op.name), &op);
    if (!op.attrs.empty()) {
      EXPECT_TRUE(op.sampleAttrs)
          << "ops with attributes say how to sample them";
    }
  }
}
