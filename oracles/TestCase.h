// The pipeline's central types: a test case (a graph or a program, its
// inputs, the compiler under test and its limits) and a finding (what an
// oracle saw on a case, and how the case was reduced). Their file format is
// oracles/FindingFile.h.
#pragma once

#include "backends/Backend.h"
#include "oracles/Verdict.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cc {

struct TestCase {
  Graph graph;
  // A generated mid-level program instead of a graph (then `graph` is
  // empty): "program": {"name", "mlir", "args", "results"} in the JSON.
  std::optional<MlirProgram> program;
  Inputs inputs;      // in the order of graph.inputs (program.args)
  std::string cut;    // backend spec of the compiler under test
  RunLimits limits;   // "timeout" (seconds) and "memory" (bytes) in the JSON
  uint64_t seed = 0;  // campaign seed (provenance)
  uint64_t index = 0; // position in the campaign's case stream
};

// How a reduced case was reduced (reducers/Reduce.h), kept with it so that
// whoever reads it (a campaign's --reduce, its root causes, a bundle) goes
// on from there instead of reducing again.
struct Reduction {
  int opsBefore = 0, opsAfter = 0; // ops of the case before and after
  int64_t oracleCalls = 0;
  bool budgetExhausted = false; // its budget stopped it before a fixpoint
  bool quick = false;           // a campaign's triage: ops and outputs only
  bool bisected = false;        // the compiler's pipeline was bisected
  // The first pass after which the failure shows (the bisection's culprit);
  // empty when not bisected or no single pass was isolated.
  std::string culprit;
  // Nothing is left to reduce: neither a triage nor cut by its budget.
  bool whole() const { return !quick && !budgetExhausted; }
  bool operator==(const Reduction &) const = default;
};

struct FindingRecord {
  Finding finding;
  TestCase testCase;
  std::string log; // diagnostics, stderr, stack trace
  // What the oracle saw: its numeric report, which side was blamed and why,
  // the outputs of each backend; free-form, for reports.
  nlohmann::json evidence = nlohmann::json::object();
  std::optional<Reduction> reduction; // set in a reduced case
};

// What a case is called in messages and file names: the graph's or the
// program's name.
std::string caseName(const TestCase &c);
// The types of a case's inputs (graph or program).
std::vector<TensorType> inputTypes(const TestCase &c);

} // namespace cc
