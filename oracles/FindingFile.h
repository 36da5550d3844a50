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
//    (or "program": {"name": "main", "mlir": "...", "args": ["tensor<..>"],
//                    "results": [...]} instead of "graph")
//    "log": "...", "evidence": {...}}
#pragma once

#include "backends/Backend.h"
#include "oracles/Verdict.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cc {

inline constexpr int kFindingFormatVersion = 1;

struct TestCase {
  Graph graph;
  // A generated mid-level program instead of a graph (then `graph` is
  // empty): "program": {"name", "mlir", "args", "results"} in the JSON.
  std::optional<MlirProgram> program;
  Inputs inputs;   // in the order of graph.inputs (program.args)
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

// What a case is called in messages and file names: the graph's or the
// program's name.
std::string caseName(const TestCase &c);
// The types of a case's inputs (graph or program).
std::vector<TensorType> inputTypes(const TestCase &c);

// Outputs as a JSON array of tensors (a finding's evidence).
nlohmann::json outputsToJson(const Outputs &outs);

nlohmann::json findingToJson(const FindingRecord &f);
Expected<FindingRecord> findingFromJson(const nlohmann::json &j);

// Reads a finding file; a path to a directory reads DIR/finding.json.
Expected<FindingRecord> loadFinding(const std::string &path);
Error saveFinding(const std::string &path, const FindingRecord &f);

} // namespace cc
