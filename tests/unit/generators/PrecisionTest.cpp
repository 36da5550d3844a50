// Precision variants of the float seeds: valid by our verifier, in the
// requested dtypes, quantized ones with valid rescales, and accepted by the
// reference on generated inputs.
#include "generators/Precision.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "core/OpTable.h"
#include "generators/Inputs.h"

#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <set>

using namespace cc;

namespace {

std::vector<Graph> floatSeeds() {
  std::vector<Graph> seeds;
  for (const std::string &f : test::seedFiles()) {
    auto g = loadGraph(f);
    if (g && hasFloatValues(*g))
      seeds.push_back(*g);
  }
  return seeds;
}

int countOp(const Graph &g, const std::string &op) {
  int n = 0;
  for (const Node &node : g.nodes)
    n += opName(node.op) == op;
  return n;
}

} // namespace

TEST(Precision, ParsesEveryKindByName) {
  for (PrecisionKind k : allPrecisionKinds()) {
    auto parsed = parsePrecisionKind(precisionKindName(k));
    ASSERT_TRUE(parsed) << parsed.error().message();
    EXPECT_EQ(*parsed, k);
  }
  auto bad = parsePrecisionKind("fp8");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("int16"), std::string::npos);
}

TEST(Precision, RejectsGraphsWithoutFloats) {
  Graph g;
  ValueId x = g.addInput("x", {DType::i32, {4}});
  g.addOutput(x);
  EXPECT_FALSE(makePrecisionVariant(g, PrecisionKind::F16, 0));
}

TEST(Precision, VariantsOfFloatSeedsVerifyAndRunOnTheReference) {
  std::vector<Graph> seeds = floatSeeds();
  ASSERT_GE(seeds.size(), 15u);
  for (const Graph &seed : seeds) {
    for (PrecisionKind k : allPrecisionKinds()) {
      SCOPED_TRACE(seed.name + " " + std::string(precisionKindName(k)));
      auto v = makePrecisionVariant(seed, k, 3);
      ASSERT_TRUE(v) << v.error().message();
      EXPECT_FALSE(verify(*v));
      auto again = makePrecisionVariant(seed, k, 3);
      ASSERT_TRUE(again);
      EXPECT_EQ(*v, *again) << "variants are deterministic";
      ASSERT_EQ(v->inputs.size(), seed.inputs.size());
      ASSERT_EQ(v->outputs.size(), seed.outputs.size());
      for (uint64_t s = 0; s < 3; ++s) {
        auto out = interpret(*v, makeInputs(*v, s));
        EXPECT_TRUE(out) << out.error().message();
      }
    }
  }
}

TEST(Precision, FloatVariantsUseTheirDtype) {
  for (const Graph &seed : floatSeeds()) {
    for (PrecisionKind k : {PrecisionKind::F16, PrecisionKind::BF16}) {
      DType want = k == PrecisionKind::F16 ? DType::f16 : DType::bf16;
      auto v = makePrecisionVariant(seed, k, 1);
      ASSERT_TRUE(v) << v.error().message();
      for (ValueId x : v->inputs)
        if (isFloat(v->typeOf(x).dtype)) {
          EXPECT_EQ(v->typeOf(x).dtype, want) << seed.name;
        }
      for (ValueId x : v->outputs)
        if (isFloat(v->typeOf(x).dtype)) {
          EXPECT_EQ(v->typeOf(x).dtype, want) << seed.name;
        }
      // Only the accumulations TOSA widens (bf16 matmul -> f32) leave the
      // dtype.
      for (const Node &n : v->nodes)
        for (ValueId r : n.results)
          if (isFloat(v->typeOf(r).dtype) && v->typeOf(r).dtype != want) {
            EXPECT_TRUE(n.op == OpId::MatMul || n.op == OpId::Cast)
                << seed.name << " " << n.op;
          }
    }
  }
}

TEST(Precision, MixedVariantsCastBetweenRegions) {
  int withLow = 0, withCasts = 0, seeds = 0;
  for (const Graph &seed : floatSeeds()) {
    auto v = makePrecisionVariant(seed, PrecisionKind::Mixed, 5);
    ASSERT_TRUE(v) << v.error().message();
    ++seeds;
    bool low = false;
    for (const ValueInfo &info : v->values)
      low |= info.type.dtype == DType::f16 || info.type.dtype == DType::bf16;
    withLow += low;
    withCasts += countOp(*v, "cast") > countOp(seed, "cast");
    // Accumulating ops stay in f32 where TOSA allows it.
    for (const Node &n : v->nodes)
      if ((n.op == OpId::MatMul || n.op == OpId::Conv2d ||
           n.op == OpId::ReduceSum) &&
          isFloat(v->typeOf(n.operands[0]).dtype)) {
        EXPECT_EQ(v->typeOf(n.operands[0]).dtype, DType::f32) << seed.name;
      }
  }
  EXPECT_GT(withLow, seeds / 2);
  EXPECT_GT(withCasts, seeds / 2);
}

TEST(Precision, QuantizedVariantsUseIntegersAndValidRescales) {
  std::set<std::string> modes;
  bool perChannel = false, zeroPoints = false, scale16 = false,
       intMatmul = false, intConv = false;
  for (const Graph &seed : floatSeeds()) {
    for (PrecisionKind k : {PrecisionKind::Int8, PrecisionKind::Int16}) {
      DType q = k == PrecisionKind::Int8 ? DType::i8 : DType::i16;
      auto v = makePrecisionVariant(seed, k, 2);
      ASSERT_TRUE(v) << v.error().message();
      for (ValueId x : v->inputs)
        EXPECT_FALSE(isFloat(v->typeOf(x).dtype)) << seed.name;
      for (size_t i = 0; i < v->outputs.size(); ++i)
        if (isFloat(seed.typeOf(seed.outputs[i]).dtype)) {
          EXPECT_EQ(v->typeOf(v->outputs[i]).dtype, q) << seed.name;
        }
      bool onlyMovesData =
          true; // such graphs keep their scales without rescale
      for (const Node &n : seed.nodes)
        onlyMovesData &= n.op == OpId::Const || n.op == OpId::Gather ||
                         n.op == OpId::Reshape || n.op == OpId::Transpose ||
                         n.op == OpId::Slice;
      if (!onlyMovesData) {
        EXPECT_GT(countOp(*v, "rescale"), 0) << seed.name;
      }
      for (const Node &n : v->nodes) {
        if (n.op == OpId::MatMul || n.op == OpId::Conv2d ||
            n.op == OpId::DepthwiseConv2d) {
          intMatmul |= n.op == OpId::MatMul &&
                       v->typeOf(n.operands[0]).dtype == DType::i8;
          intConv |= n.op != OpId::MatMul &&
                     v->typeOf(n.operands[0]).dtype == DType::i8;
        }
        if (n.op != OpId::Rescale)
          continue;
        const OpDef *def = findOp("rescale");
        std::vector<TensorType> types;
        for (ValueId o : n.operands)
          types.push_back(v->typeOf(o));
        EXPECT_TRUE(def->infer(types, n.attrs))
            << "rescale attributes are valid";
        for (int64_t s : n.attrs.getInts("shift")) {
          EXPECT_GE(s, 2);
          EXPECT_LE(s, 62);
        }
        modes.insert(n.attrs.getString("rounding_mode"));
        perChannel |= n.attrs.getBool("per_channel");
        zeroPoints |=
            n.attrs.getInt("input_zp") != 0 || n.attrs.getInt("output_zp") != 0;
        scale16 |= !n.attrs.getBool("scale32");
      }
    }
  }
  EXPECT_TRUE(modes.count("SINGLE_ROUND"));
  EXPECT_TRUE(modes.count("DOUBLE_ROUND"));
  EXPECT_TRUE(perChannel);
  EXPECT_TRUE(zeroPoints);
  EXPECT_TRUE(scale16);
  EXPECT_TRUE(intMatmul);
  EXPECT_TRUE(intConv);
}
