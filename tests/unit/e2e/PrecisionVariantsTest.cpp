// Precision variants of the float seeds through MLIR: the emitted TOSA passes
// MLIR's verifier and tosa-O0 agrees with the reference under the numeric
// oracle.
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "oracles/Differential.h"

#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace cc;

namespace {

class FloatSeed : public testing::TestWithParam<std::string> {};

std::string testName(const testing::TestParamInfo<std::string> &info) {
  return std::filesystem::path(info.param).stem().string();
}

// The seeds with float values: precision variants are derived from those.
std::vector<std::string> floatSeedFiles() {
  std::vector<std::string> files;
  for (const std::string &f : test::seedFiles()) {
    auto g = loadGraph(f);
    if (!g || hasFloatValues(*g))
      files.push_back(f); // a broken seed fails the test instead of vanishing
  }
  return files;
}

} // namespace

TEST_P(FloatSeed, PrecisionVariantsVerifyInMlirAndAgreeOnTosaO0) {
  auto seed = loadGraph(GetParam());
  ASSERT_TRUE(seed) << seed.error().message();
  auto backend = makeMlirBackend("mlir:tosa-O0");
  ASSERT_TRUE(backend) << backend.error().message();
  for (PrecisionKind k : allPrecisionKinds()) {
    SCOPED_TRACE(std::string(precisionKindName(k)));
    auto v = makePrecisionVariant(*seed, k, 11);
    ASSERT_TRUE(v) << v.error().message();
    auto module = emitModule(*v);
    ASSERT_TRUE(module) << module.error().message();
    Error verified = verifyMlir(*module);
    EXPECT_FALSE(verified) << (verified ? verified.message() : "");
    auto r = runDifferential(*v, makeInputs(*v, 0), **backend);
    ASSERT_TRUE(r) << r.error().message();
    const auto &f = r->verdict.finding();
    EXPECT_TRUE(r->verdict.passed())
        << (f ? f->signature.str() + ": " + f->message
              : r->verdict.skipReason())
        << "\n"
        << printGraph(*v);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, FloatSeed, testing::ValuesIn(floatSeedFiles()),
                         testName);
