// The seed corpus: every seed loads, verifies and runs on the reference
// without undefined behaviour, together the seeds use every op of the op
// table, and each one passes the differential check on tosa-O0 and tosa-O3.
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace cc;

namespace {

std::vector<std::string> seedFiles() {
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(
           std::string(CC_SOURCE_DIR) + "/corpus/seeds"))
    if (e.path().extension() == ".json")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string testName(const testing::TestParamInfo<std::string> &info) {
  return std::filesystem::path(info.param).stem().string();
}

class Seed : public testing::TestWithParam<std::string> {};

} // namespace

TEST(SeedCorpus, HasAtLeastTwentySeedsCoveringEveryOp) {
  std::vector<std::string> files = seedFiles();
  EXPECT_GE(files.size(), 20u);
  std::set<std::string> used;
  for (const std::string &f : files) {
    auto g = loadGraph(f);
    ASSERT_TRUE(g) << g.error().message();
    for (const Node &n : g->nodes)
      used.insert(n.op);
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

TEST_P(Seed, PassesTheDifferentialCheckAtO0AndO3) {
  auto g = loadGraph(GetParam());
  ASSERT_TRUE(g) << g.error().message();
  Inputs inputs = makeInputs(*g, 0);
  for (const char *spec : {"mlir:tosa-O0", "mlir:tosa-O3"}) {
    auto backend = makeMlirBackend(spec);
    ASSERT_TRUE(backend) << backend.error().message();
    auto r = runDifferential(*g, inputs, **backend);
    ASSERT_TRUE(r) << spec << ": " << r.error().message();
    const auto &f = r->verdict.finding();
    EXPECT_TRUE(r->verdict.passed()) << spec << ": " << (f ? f->message : "");
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Seed, testing::ValuesIn(seedFiles()),
                         testName);
