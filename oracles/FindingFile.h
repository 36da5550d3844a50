// A test case and a finding as crosscheck stores them: self-contained JSON
// that reproduces the failure without the campaign that found it. The
// campaign's store, the reducer and the bug reports all read this one form.
//
//   {"format": "crosscheck-finding", "version": 1,
//    "signature": {"kind": "miscompile", "backend": "mlir:tosa-O3",
//                  "stage": "", "detail": "add:f32:mismatch"},
//    "message": "...",
//    "case": {"cut": "mlir:tosa-O3", "timeout": 30, "seed": 7, "index": 12,
//             "graph": {...graph JSON...}, "inputs": [{...tensor...}, ...]},
//    "log": "...", "evidence": {...}}
#pragma once

#include "backends/Backend.h"
#include "oracles/Verdict.h"

#include <nlohmann/json.hpp>
#include <string>

namespace cc {

inline constexpr int kFindingFormatVersion = 1;

struct TestCase {
  Graph graph;
  Inputs inputs;   // in the order of graph.inputs
  std::string cut; // backend spec of the compiler under test
  double timeoutSeconds = 30;
  uint64_t seed = 0;  // campaign seed (provenance)
  uint64_t index = 0; // position in the campaign's case stream
};

struct FindingRecord {
  Finding finding;
  TestCase testCase;
  std::string log; // diagnostics, stderr, stack trace
  // What the oracle saw: its numeric report, which side was blamed and why,
  // the outputs of each backend; free-form, for reports.
  nlohmann::json evidence = nlohmann::json::object();
};

nlohmann::json signatureToJson(const Signature &s);
Expected<Signature> signatureFromJson(const nlohmann::json &j);

nlohmann::json testCaseToJson(const TestCase &c);
Expected<TestCase> testCaseFromJson(const nlohmann::json &j);

nlohmann::json findingToJson(const FindingRecord &f);
Expected<FindingRecord> findingFromJson(const nlohmann::json &j);

// Reads a finding file; a path to a directory reads DIR/finding.json.
Expected<FindingRecord> loadFinding(const std::string &path);
Error saveFinding(const std::string &path, const FindingRecord &f);

} // namespace cc
