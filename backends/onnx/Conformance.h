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
  // Why the test is outside what DL inference models use (training,
  // random, signal or text processing, control flow, sequences, shapes
  // that depend on data, f64 or string data); empty when inside.
  std::string outOfScope;
  PathResult ref, mlir;
  double seconds = 0;
};

struct ConformanceOptions {
  std::string cut = "mlir:tosa-O0"; // empty: reference path only
  std::string filter;               // ECMAScript regex on the test name
  RunLimits limits;                 // of each compiler run
};

struct ConformanceReport {
  std::vector<ConformanceCase> cases;
  // [path][status] counts; path 0 = ref, 1 = mlir. With `inScope`, only
  // the tests that DL inference models' ops and dtypes cover.
  int count(int path, CaseStatus s, bool inScope = false) const;
  int inScope() const;
  nlohmann::json toJson() const;
};

// Runs every test folder under `dir` (sorted by name).
Expected<ConformanceReport>
runOnnxConformance(const std::string &dir, const ConformanceOptions &options);

} // namespace cc
