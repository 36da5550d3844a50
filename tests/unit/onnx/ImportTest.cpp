// The ONNX importer as a TOSA frontend: decompositions of ops that TOSA has
// no single operator for, shape arithmetic folded to constants, indices
// known only at run time, and mutated models that must give one clear
// error (never a crash or a garbage shape).
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Limits.h"
#include "core/Rng.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace cc {
namespace {

using onnx::Attribute;
using onnx::ModelProto;
using onnx::NodeProto;

Attribute floatAttr(double v) {
  Attribute a;
  a.kind = Attribute::Float;
  a.f = v;
  return a;
}
Attribute intAttr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Int;
  a.i = v;
  return a;
}
Attribute stringAttr(std::string v) {
  Attribute a;
  a.kind = Attribute::String;
  a.s = std::move(v);
  return a;
}

Tensor i64s(std::vector<int64_t> v) {
  Tensor t(DType::i64, {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    t.setI(int64_t(i), v[i]);
  return t;
}

// One node y = op(x, extra...) over an f32 input x of `shape`.
ModelProto oneNode(const std::string &op, Shape shape, Shape outShape,
                   std::map<std::string, Attribute> attrs = {},
                   std::vector<std::pair<std::string, Tensor>> extra = {}) {
  ModelProto m;
  m.opset = 13;
  m.graphName = "m";
  m.inputs.push_back({"x", TensorType{DType::f32, shape}, ""});
  m.outputs.push_back({"y", TensorType{DType::f32, outShape}, ""});
  NodeProto n{op, "", {"x"}, {"y"}, std::move(attrs)};
  for (auto &[name, t] : extra) {
    n.inputs.push_back(name);
    m.initializers.emplace_back(name, t);
  }
  m.nodes.push_back(n);
  return m;
}

Expected<Graph> import(const ModelProto &m) {
  return importOnnx(onnx::serializeModel(m));
}

std::vector<std::string> opsOf(const Graph &g) {
  std::vector<std::string> ops;
  for (const Node &n : g.nodes)
    if (n.op != OpId::Const)
      ops.push_back(std::string(opName(n.op)));
  return ops;
}

// Runs g on x (f32) and returns output 0 as doubles.
std::vector<double> run(const Graph &g, const std::vector<double> &x) {
  Tensor in(DType::f32, g.typeOf(g.inputs[0]).shape);
  for (size_t i = 0; i < x.size(); ++i)
    in.setF(int64_t(i), x[i]);
  auto out = interpret(g, {in});
  EXPECT_TRUE(out) << out.error().message();
  std::vector<double> v;
  for (int64_t i = 0; out && i < out->at(0).size(); ++i)
    v.push_back(out->at(0).asDouble(i));
  return v;
}

TEST(OnnxImport, FloatDivIsAProductWithTheReciprocal) {
  ModelProto m;
  m.opset = 13;
  m.inputs.push_back({"a", TensorType{DType::f32, {2}}, ""});
  m.inputs.push_back({"b", TensorType{DType::f32, {2}}, ""});
  m.outputs.push_back({"y", TensorType{DType::f32, {2}}, ""});
  m.nodes.push_back({"Div", "", {"a", "b"}, {"y"}, {}});
  auto g = import(m);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(opsOf(*g), (std::vector<std::string>{"reciprocal", "mul"}));
  // Integer Div truncates in both ONNX and TOSA: intdiv.
  for (auto *list : {&m.inputs, &m.outputs})
    for (auto &v : *list)
      v.type->dtype = DType::i32;
  auto gi = import(m);
  ASSERT_TRUE(gi) << gi.error().message();
  EXPECT_EQ(opsOf(*gi), std::vector<std::string>{"intdiv"});
}

// Each activation against ONNX's formula, evaluated here in double.
TEST(OnnxImport, ActivationsFollowTheirOnnxDefinitions) {
  const std::vector<double> xs{-3, -1, -0.25, 0, 0.5, 2, 7};
  struct Case {
    std::string op;
    std::map<std::string, Attribute> attrs;
    std::function<double(double)> f;
  };
  std::vector<Case> cases = {
      {"LeakyRelu",
       {{"alpha", floatAttr(0.1)}},
       [](double x) { return x < 0 ? 0.1 * x : x; }},
      {"Elu",
       {{"alpha", floatAttr(2)}},
       [](double x) { return x < 0 ? 2 * (std::exp(x) - 1) : x; }},
      {"Celu",
       {{"alpha", floatAttr(2)}},
       [](double x) {
         return std::max(0.0, x) + std::min(0.0, 2 * (std::exp(x / 2) - 1));
       }},
      {"Softplus", {}, [](double x) { return std::log(std::exp(x) + 1); }},
      {"Softsign", {}, [](double x) { return x / (1 + std::fabs(x)); }},
      {"HardSigmoid",
       {},
       [](double x) { return std::clamp(0.2 * x + 0.5, 0.0, 1.0); }},
      {"HardSwish",
       {},
       [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); }},
      {"ThresholdedRelu",
       {{"alpha", floatAttr(0.5)}},
       [](double x) { return x > 0.5 ? x : 0; }},
      {"Shrink",
       {{"lambd", floatAttr(0.5)}, {"bias", floatAttr(0.25)}},
       [](double x) { return x < -0.5  ? x + 0.25
                             : x > 0.5 ? x - 0.25
                                       : 0; }},
      {"Gelu",
       {},
       [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
      {"Gelu",
       {{"approximate", stringAttr("tanh")}},
       [](double x) {
         return 0.5 * x *
                (1 +
                 std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
       }},
      {"Sqrt", {}, [](double x) { return std::sqrt(x); }},
      {"Round", {}, [](double x) { return std::nearbyint(x); }},
      {"Sign", {}, [](double x) { return double((x > 0) - (x < 0)); }},
  };
  for (const Case &c : cases) {
    auto g = import(oneNode(c.op, {7}, {7}, c.attrs));
    ASSERT_TRUE(g) << c.op << ": " << g.error().message();
    std::vector<double> y = run(*g, xs);
    ASSERT_EQ(y.size(), xs.size()) << c.op;
    for (size_t i = 0; i < xs.size(); ++i) {
      double want = c.f(xs[i]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << c.op << "(" << xs[i] << ")";
        continue;
      }
      EXPECT_NEAR(y[i], want, 1e-6 * std::max(1.0, std::fabs(want)))
          << c.op << "(" << xs[i] << ")";
    }
  }
}

// Round to nearest even at the ties, where floor(x + 0.5) would not.
TEST(OnnxImport, RoundBreaksTiesToEven) {
  auto g = import(oneNode("Round", {6}, {6}));
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(run(*g, {0.5, 1.5, 2.5, -0.5, -1.5, 0.49999997}),
            (std::vector<double>{0, 2, 2, -0, -2, 0}));
}

TEST(OnnxImport, SoftmaxAndMeansOverAnAxis) {
  auto sm = import(oneNode("Softmax", {2, 3}, {2, 3}, {{"axis", intAttr(1)}}));
  ASSERT_TRUE(sm) << sm.error().message();
  std::vector<double> y = run(*sm, {1, 2, 3, -1, 0, 1000});
  double e = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_NEAR(y[0], std::exp(1.0) / e, 1e-12);
  EXPECT_NEAR(y[2], std::exp(3.0) / e, 1e-12);
  EXPECT_EQ(y[5], 1); // the maximum is subtracted first: no overflow
  ModelProto rm = oneNode("ReduceMean", {2, 3}, {2, 1});
  Attribute axes;
  axes.kind = Attribute::Ints;
  axes.ints = {1};
  rm.nodes[0].attrs["axes"] = axes;
  auto g = import(rm);
  ASSERT_TRUE(g) << g.error().message();
  std::vector<double> means = run(*g, {1, 2, 3, 4, 5, 9});
  ASSERT_EQ(means.size(), 2u);
  EXPECT_NEAR(means[0], 2, 1e-6); // the sum times 1/3, rounded in f32
  EXPECT_NEAR(means[1], 6, 1e-6);
}

// A CumSum of integers is exact whatever order the scan adds in.
TEST(OnnxImport, CumSumIsExactForIntegers) {
  for (int64_t exclusive : {0, 1})
    for (int64_t reverse : {0, 1}) {
      ModelProto m = oneNode(
          "CumSum", {5}, {5},
          {{"exclusive", intAttr(exclusive)}, {"reverse", intAttr(reverse)}},
          {{"axis", i64s({0})}});
      m.inputs[0].type->dtype = m.outputs[0].type->dtype = DType::i32;
      auto g = import(m);
      ASSERT_TRUE(g) << g.error().message();
      Tensor x(DType::i32, {5});
      std::vector<int64_t> v{3, -7, 100, 1000000007, 1};
      for (int64_t i = 0; i < 5; ++i)
        x.setI(i, v[i]);
      auto out = interpret(*g, {x});
      ASSERT_TRUE(out) << out.error().message();
      for (int64_t i = 0; i < 5; ++i) {
        int32_t want = 0;
        for (int64_t j = 0; j < 5; ++j) {
          bool in = reverse ? (exclusive ? j > i : j >= i)
                            : (exclusive ? j < i : j <= i);
          if (in)
            want += int32_t(v[j]);
        }
        EXPECT_EQ(out->at(0).getI(i), want)
            << exclusive << reverse << " at " << i;
      }
    }
}

// Gather's result shape comes from the data and the indices: adding the
// index constant must not invalidate the data's shape (it once left a
// garbage dimension such as [3, -8623035320821866967]).
TEST(OnnxImport, GatherKeepsTheDataShape) {
  ModelProto m =
      oneNode("Gather", {3, 4}, {2, 4}, {}, {{"idx", i64s({2, -3})}});
  auto g = import(m);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(g->typeOf(g->outputs[0]).shape, (Shape{2, 4}));
  std::vector<double> x(12);
  for (int i = 0; i < 12; ++i)
    x[i] = i;
  EXPECT_EQ(run(*g, x), (std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3}));
}

// Indices that are a graph input (token ids into an embedding) gather at
// run time; negative ones count from the end.
TEST(OnnxImport, GatherByIndicesKnownOnlyAtRunTime) {
  ModelProto m = oneNode("Gather", {3, 2}, {1, 3, 2}, {{"axis", intAttr(0)}});
  m.inputs.push_back({"ids", TensorType{DType::i64, {1, 3}}, ""});
  m.nodes[0].inputs = {"x", "ids"};
  auto g = import(m);
  ASSERT_TRUE(g) << g.error().message();
  ASSERT_EQ(g->inputs.size(), 2u);
  Tensor x(DType::f32, {3, 2}), ids(DType::i32, {1, 3});
  for (int i = 0; i < 6; ++i)
    x.setF(i, 10 * i);
  std::vector<int64_t> idv{2, -3, 1};
  for (int i = 0; i < 3; ++i)
    ids.setI(i, idv[i]);
  auto out = interpret(*g, {x, ids});
  ASSERT_TRUE(out) << out.error().message();
  std::vector<double> got;
  for (int64_t i = 0; i < out->at(0).size(); ++i)
    got.push_back(out->at(0).asDouble(i));
  EXPECT_EQ(got, (std::vector<double>{40, 50, 0, 10, 20, 30}));
}

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as exporters write a
// flatten: folded at import, with no node left but the reshape.
TEST(OnnxImport, ShapeArithmeticFoldsToConstants) {
  ModelProto m;
  m.opset = 13;
  m.inputs.push_back({"x", TensorType{DType::f32, {2, 3, 4}}, ""});
  m.outputs.push_back({"y", TensorType{DType::f32, {2, 12}}, ""});
  m.initializers.emplace_back("zero", i64s({0}));
  m.initializers.emplace_back("minus1", i64s({-1}));
  Tensor scalar0(DType::i64, {});
  scalar0.setI(0, 0);
  m.initializers.emplace_back("i0", scalar0);
  m.nodes.push_back({"Shape", "", {"x"}, {"s"}, {}});
  m.nodes.push_back({"Gather", "", {"s", "i0"}, {"n"}, {}});
  m.nodes.push_back({"Unsqueeze", "", {"n", "zero"}, {"n1"}, {}});
  m.nodes.push_back(
      {"Concat", "", {"n1", "minus1"}, {"shape"}, {{"axis", intAttr(0)}}});
  m.nodes.push_back({"Reshape", "", {"x", "shape"}, {"y"}, {}});
  auto g = import(m);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(opsOf(*g), std::vector<std::string>{"reshape"});
  EXPECT_EQ(g->typeOf(g->outputs[0]).shape, (Shape{2, 12}));
}

// A strided convolution whose padding leaves a remainder: TOSA requires
// exact division, ONNX drops the rows no window reaches.
TEST(OnnxImport, StridedConvWithARemainderIsMadeExact) {
  Attribute strides, pads;
  strides.kind = pads.kind = Attribute::Ints;
  strides.ints = {2, 2};
  pads.ints = {1, 1, 1, 1};
  ModelProto m = oneNode("Conv", {1, 1, 6, 6}, {1, 1, 3, 3},
                         {{"strides", strides}, {"pads", pads}},
                         {{"w", Tensor::splat({DType::f32, {1, 1, 3, 3}}, 1)}});
  auto g = import(m);
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(g->typeOf(g->outputs[0]).shape, (Shape{1, 1, 3, 3}));
  std::vector<double> x(36, 1);
  // Window (0,0) covers rows/cols -1..1: 4 ones; (1,1) covers 1..3: 9 ones.
  std::vector<double> y = run(*g, x);
  EXPECT_EQ(y[0], 4);
  EXPECT_EQ(y[4], 9);
}

// Shapes and attributes that do not fit the op are one error, checked
// before anything is indexed or allocated (these aborted or read out of
// bounds before).
TEST(OnnxImport, HostileShapesAreOneClearError) {
  auto error = [](const ModelProto &m) {
    auto g = import(m);
    return g ? std::string("imported") : g.error().message();
  };
  EXPECT_NE(error(oneNode("Conv", {4}, {4}, {},
                          {{"w", Tensor::splat({DType::f32, {4}}, 1)}}))
                .find("Conv input of rank 1"),
            std::string::npos);
  Attribute padding;
  padding.kind = Attribute::Ints;
  padding.ints = {1, 1, 1};
  EXPECT_NE(error(oneNode("ConvTranspose", {1, 1, 4}, {1, 1, 7},
                          {{"output_padding", padding}},
                          {{"w", Tensor::splat({DType::f32, {1, 1, 3}}, 1)}}))
                .find("output_padding must have 1 entries"),
            std::string::npos);
  EXPECT_NE(error(oneNode("Gather", {int64_t(1) << 20, 1},
                          {int64_t(1) << 20, 1 << 16}, {{"axis", intAttr(1)}},
                          {{"idx", Tensor(DType::i64, {1 << 16})}}))
                .find("indices, more than the"),
            std::string::npos);
  EXPECT_NE(error(oneNode("Einsum", {2, 3}, {2, 5},
                          {{"equation", stringAttr("abc,bd->ad")}},
                          {{"b", Tensor::splat({DType::f32, {3, 5}}, 1)}}))
                .find("Einsum term 'abc' has 3 letters for an operand of "
                      "rank 2"),
            std::string::npos);
}

// Mutated node-test models: truncated, bytes flipped, a dimension or a
// dtype changed, an initializer dropped. Each gives a valid graph or one
// clear error; never a crash, never a shape outside the limits.
TEST(OnnxImport, MutatedModelsGiveOneClearError) {
  const char *dir = "/usr/share/libonnx-testdata/data/node";
  if (!std::filesystem::exists(dir))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  std::vector<std::string> models;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    if (std::filesystem::exists(e.path() / "model.onnx"))
      models.push_back((e.path() / "model.onnx").string());
  std::sort(models.begin(), models.end());
  Rng rng(20261126);
  int errors = 0, imported = 0;
  auto check = [&](const std::string &bytes, const std::string &what) {
    auto g = importOnnx(bytes);
    if (!g) {
      ++errors;
      EXPECT_FALSE(g.error().message().empty()) << what;
      EXPECT_EQ(g.error().message().find("\n"), std::string::npos)
          << what << ": " << g.error().message();
      return;
    }
    ++imported;
    EXPECT_FALSE(verify(*g)) << what;
    for (const ValueInfo &v : g->values) {
      auto n = checkedNumElements(v.type.shape);
      EXPECT_TRUE(n) << what << ": " << v.name << " " << v.type.str();
    }
  };
  for (size_t i = 0; i < models.size(); i += 3) {
    auto bytes = readFile(models[i]);
    ASSERT_TRUE(bytes);
    std::string name = models[i];
    check(bytes->substr(0, size_t(rng.uniformInt(0, int64_t(bytes->size())))),
          name + " truncated");
    std::string flipped = *bytes;
    for (int k = 0; k < 4 && !flipped.empty(); ++k)
      flipped[size_t(rng.uniformInt(0, int64_t(flipped.size()) - 1))] ^=
          char(1 << rng.uniformInt(0, 7));
    check(flipped, name + " flipped");
    auto model = onnx::parseModel(*bytes);
    if (!model)
      continue;
    ModelProto m = *model;
    for (onnx::ValueProto &v : m.inputs)
      if (v.type && !v.type->shape.empty())
        v.type->shape[size_t(
            rng.uniformInt(0, int64_t(v.type->shape.size()) - 1))] =
            rng.pick(std::vector<int64_t>{1, 2, 7, 1 << 20});
    check(onnx::serializeModel(m), name + " dims");
    m = *model;
    for (onnx::ValueProto &v : m.inputs)
      if (v.type)
        v.type->dtype = rng.pick(
            std::vector<DType>{DType::i1, DType::i8, DType::f16, DType::i32});
    check(onnx::serializeModel(m), name + " dtypes");
    m = *model;
    if (!m.initializers.empty()) {
      m.initializers.pop_back();
      check(onnx::serializeModel(m), name + " initializer dropped");
    }
  }
  EXPECT_GT(errors, 100);
  EXPECT_GT(imported, 100);
}

} // namespace
} // namespace cc
