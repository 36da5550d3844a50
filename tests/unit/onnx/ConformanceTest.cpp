// ONNX's backend node tests: every test the importer maps passes on the
// reference path (ONNX's expected outputs within what the imported graph
// permits) and on MLIR's tosa-O0 (against the reference), except the
// listed ones.
#include "backends/onnx/Conformance.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

namespace cc {
namespace {

const char *kNodeTests = "/usr/share/libonnx-testdata/data/node";

// Tests that import but fail, each with its cause.
const std::map<std::string, std::string> kExpectedFailures = {};

TEST(OnnxConformanceTest, MappedNodeTestsPass) {
  if (!std::filesystem::exists(kNodeTests))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  ConformanceOptions options;
  // CC_ONNX_CONFORMANCE_CUT=none skips the (JIT) MLIR path.
  if (const char *cut = std::getenv("CC_ONNX_CONFORMANCE_CUT"))
    options.cut = std::string(cut) == "none" ? "" : cut;
  auto report = runOnnxConformance(kNodeTests, options);
  ASSERT_TRUE(report) << report.error().message();
  int imported = 0;
  for (const ConformanceCase &c : report->cases) {
    if (c.ref.status == CaseStatus::Unsupported)
      continue;
    ++imported;
    bool expected = kExpectedFailures.count(c.name) != 0;
    for (const PathResult *p : {&c.ref, &c.mlir}) {
      if (p == &c.mlir && options.cut.empty())
        continue;
      bool failed = p->status != CaseStatus::Pass;
      EXPECT_EQ(failed, expected)
          << c.name << " (" << (p == &c.ref ? "ref" : "mlir")
          << "): " << caseStatusName(p->status) << ": " << p->detail;
    }
  }
  std::printf(
      "ref: %d pass, %d fail, %d unsupported; mlir: %d pass, %d fail, "
      "%d unsupported\n",
      report->count(0, CaseStatus::Pass), report->count(0, CaseStatus::Fail),
      report->count(0, CaseStatus::Unsupported),
      report->count(1, CaseStatus::Pass), report->count(1, CaseStatus::Fail),
      report->count(1, CaseStatus::Unsupported));
  // Of the tests whose ops and dtypes DL inference models use, at least
  // 80% import (the rest need ops the table lacks, unsigned or empty
  // tensors: docs/BACKENDS.md lists them).
  int scope = report->inScope();
  int inScopeImported = report->count(0, CaseStatus::Pass, true) +
                        report->count(0, CaseStatus::Fail, true);
  std::printf("in scope: %d of %d tests, %d imported\n", scope,
              int(report->cases.size()), inScopeImported);
  EXPECT_GE(imported, 590);
  EXPECT_GE(inScopeImported * 5, scope * 4);
}

// Tests outside DL inference are told apart by their ops and dtypes, not
// by name.
TEST(OnnxConformanceTest, ScopeFollowsOpsAndDtypes) {
  if (!std::filesystem::exists(kNodeTests))
    GTEST_SKIP() << "libonnx-testdata is not installed";
  ConformanceOptions options;
  options.cut.clear();
  options.filter =
      "^test_(nllloss_NC|bernoulli|cumsum_1d|relu|softmax_axis_0)$";
  auto report = runOnnxConformance(kNodeTests, options);
  ASSERT_TRUE(report) << report.error().message();
  std::map<std::string, std::string> scope;
  for (const ConformanceCase &c : report->cases)
    scope[c.name] = c.outOfScope;
  EXPECT_EQ(scope["test_nllloss_NC"], "training");
  EXPECT_EQ(scope["test_bernoulli"], "random");
  EXPECT_EQ(scope["test_cumsum_1d"], "f64 data");
  EXPECT_EQ(scope["test_relu"], "");
  EXPECT_EQ(scope["test_softmax_axis_0"], "");
}

// Zero cases run is an error, not "0 pass".
TEST(OnnxConformanceTest, NoCaseIsAnError) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("cc-conformance-empty-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ConformanceOptions options;
  options.cut.clear();
  auto empty = runOnnxConformance(dir.string(), options);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message().find("no ONNX test case"),
            std::string::npos);
  fs::create_directories(dir / "test_x");
  std::ofstream(dir / "test_x" / "model.onnx") << "";
  options.filter = "no-such-test";
  auto filtered = runOnnxConformance(dir.string(), options);
  ASSERT_FALSE(filtered);
  EXPECT_NE(filtered.error().message().find("matches --filter 'no-such-test'"),
            std::string::npos)
      << filtered.error().message();
  fs::remove_all(dir);
}

} // namespace
} // namespace cc
