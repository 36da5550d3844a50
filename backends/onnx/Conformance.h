// ONNX's backend node tests (one folder per test: model.onnx and
// test_data_set_0) through the importer, then the reference interpreter and
// an MLIR compiler, compared with ONNX's expected outputs.
#pragma once

#include "backends/Backend.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cc {

enum class CaseStatus { Pass, Fail, Unsupported };
std::string_view caseStatusName(CaseStatus s);

struct PathResult {
  CaseStatus status = CaseStatus::Unsupported;
  std::string detail; // why it failed or is unsupported
};

struct ConformanceCase {
  std::string name;
  std::vector<std::string> opTypes;
  PathResult ref, mlir;
  double seconds = 0;
};

struct ConformanceOptions {
  std::string cut = "mlir:tosa-O0"; // empty: reference path only
  std::string filter;               // ECMAScript regex on the test name
  double timeoutSeconds = 30;
};

struct ConformanceReport {
  std::vector<ConformanceCase> cases;
  // [path][status] counts; path 0 = ref, 1 = mlir.
  int count(int path, CaseStatus s) const;
  nlohmann::json toJson() const;
};

// Runs every test folder under `dir` (sorted by name).
Expected<ConformanceReport> runOnnxConformance(const std::string &dir,
                                               const ConformanceOptions &options);

// Compares outputs with ONNX's expected ones: integers and booleans exactly
// (ONNX int64 against our i32 by value), floats with ONNX's backend-test
// tolerance (rtol 1e-3, atol 1e-7), widened to a few epsilons of f16/bf16;
// NaN and Inf must agree. Returns "" on agreement, else the first mismatch.
std::string compareWithExpected(const Outputs &actual, const Outputs &expected);

} // namespace cc
