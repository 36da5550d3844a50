// The seed corpus: every seed loads, verifies and runs on the reference
// without undefined behaviour, together the seeds use every op of the op
// table, and each one passes the differential check on every named pipeline
// (but for the known compiler bugs below, whose findings must show up).
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"
#include "tests/unit/mlir/KnownBugs.h"

#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace cc;

namespace {

std::string testName(const testing::TestParamInfo<std::string> &info) {
  return std::filesystem::path(info.param).stem().string();
}

class Seed : public testing::TestWithParam<std::string> {};

// Compiler bugs the seeds find today (see tests/unit/mlir/KnownBugs.h).
const test::KnownBug kKnownBugs[] = {
    {"bool_logic_i1", "tosa-O3", Kind::Miscompile,
     "convert-vector-to-llvm loads/stores the super-vectorizer's vector<8xi1> "
     "as bit-packed <8 x i1> from byte-per-element memref<8xi1>",
     "vector-i1-packed-memory"},
    {"cast_chain", "tosa-O1-expand", Kind::Miscompile,
     "math-expand-ops expands math.round as trunc(x + 0.5): 0.49999997 + 0.5 "
     "rounds to 1 in f32, so cast 0.49999997 -> i32 gives 1",
     "math-expand-round-below-half"},
};

} // namespace

TEST(SeedCorpus, HasAtLeastTwentySeedsCoveringEveryOp) {
  std::vector<std::string> files = test::seedFiles();
  EXPECT_GE(files.size(), 20u);
  std::set<std::string> used;
  for (const std::string &f : files) {
    auto g = loadGraph(f);
    ASSERT_TRUE(g) << g.error().message();
    for (const Node &n : g->nodes)
      used.insert(std::string(opName(n.op)));
  }
  for (const OpDef &op : allOps())
    EXPECT_TRUE(used.count(op.name)) << "no seed uses op '" << op.name << "'";
}

TEST_P(Seed, VerifiesAndRunsOnTheReference) {
  auto g = loadGraph(GetParam());
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_FALSE(verify(*g));
  int64_t elements = 0;
  for (const ValueInfo &v : g->values)
    elements = std::max(elements, v.type.numElements());
  EXPECT_LT(elements, 4096) << "seeds keep tensors small";

  Inputs inputs = makeInputs(*g, 0);
  EXPECT_EQ(inputs, makeInputs(*g, 0)) << "inputs must be deterministic";
  for (Precision p : {Precision::F64, Precision::Target}) {
    auto out = interpret(*g, inputs, p);
    ASSERT_TRUE(out) << out.error().message();
    ASSERT_EQ(out->size(), g->outputs.size());
    for (size_t i = 0; i < out->size(); ++i) {
      const TensorType &t = g->typeOf(g->outputs[i]);
      EXPECT_EQ((*out)[i].shape(), t.shape);
      if (p == Precision::Target) {
        EXPECT_EQ((*out)[i].dtype(), t.dtype);
      }
    }
  }
}

TEST_P(Seed, PassesTheDifferentialCheckOnEveryNamedPipeline) {
  auto g = loadGraph(GetParam());
  ASSERT_TRUE(g) << g.error().message();
  Inputs inputs = makeInputs(*g, 0);
  std::string name = std::filesystem::path(GetParam()).stem().string();
  for (const NamedPipeline &p : namedPipelines()) {
    auto backend = makeMlirBackend("mlir:" + p.name);
    ASSERT_TRUE(backend) << backend.error().message();
    auto r = runDifferential(*g, inputs, **backend);
    ASSERT_TRUE(r) << p.name << ": " << r.error().message();
    test::CaseFindings findings(test::findKnownBug(kKnownBugs, name, p.name));
    findings.add(p.name, r->verdict);
    findings.finish();
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Seed, testing::ValuesIn(test::seedFiles()),
                         testName);
