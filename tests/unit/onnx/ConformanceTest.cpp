// ONNX's backend node tests: every test whose ops the importer maps passes
// on the reference path and on MLIR's tosa-O0, except the listed ones.
#include "backends/onnx/Conformance.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

namespace cc {
namespace {

const char *kNodeTests = "/usr/share/libonnx-testdata/data/node";

// Tests that import but fail, each with its cause.
const std::map<std::string, std::string> kExpectedFailures = {
};

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
          << c.name << " (" << (p == &c.ref ? "ref" : "mlir") << "): "
          << caseStatusName(p->status) << ": " << p->detail;
    }
  }
  std::printf("ref: %d pass, %d fail, %d unsupported; mlir: %d pass, %d fail, "
              "%d unsupported\n",
              report->count(0, CaseStatus::Pass), report->count(0, CaseStatus::Fail),
              report->count(0, CaseStatus::Unsupported),
              report->count(1, CaseStatus::Pass), report->count(1, CaseStatus::Fail),
              report->count(1, CaseStatus::Unsupported));
  EXPECT_GE(imported, 100); // a broad share of ONNX's node tests maps
}

} // namespace
} // namespace cc
