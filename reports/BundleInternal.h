// The pieces of a bug bundle (Bundle.h), one job per translation unit:
// the driver program (BundleDriver.cpp), the expected values
// (BundleExpected.cpp), repro.sh and its files (BundleRepro.cpp), the
// README (BundleReadme.cpp) and the graph picture (GraphDot.cpp);
// Bundle.cpp runs them in order. Not a public header.
#pragma once

#include "backends/Backend.h"
#include "oracles/FindingFile.h"
#include "reports/Bundle.h"
#include "reports/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace cc::bundle {

// ---- The driver (BundleDriver.cpp) ----

// @repro_main: calls `func` on the inputs and prints every output element
// as an integer (floats by their bit pattern, f64 as two 32-bit halves),
// one per line, so that nothing is lost to printing.
std::string driverText(const Graph &g, const Inputs &inputs,
                       const std::string &func);
// The same for a function of `args` to `results`.
std::string driverText(const std::vector<TensorType> &args,
                       const std::vector<TensorType> &results,
                       const Inputs &inputs, const std::string &func);
// The name of the (first) function of an emitted module.
Expected<std::string> functionName(const std::string &module);
struct Program {
  std::string tosa;    // the emitted module
  std::string program; // it with @repro_main added to its body
};
Expected<Program> programText(const Graph &g, const Inputs &inputs);
// A generated mid-level program with @repro_main added to its module.
std::string programText(const MlirProgram &p, const Inputs &inputs);

// ---- Expected values (BundleExpected.cpp) ----

struct Expectation {
  std::string table;           // repro.sh's table, one line per element
  std::vector<double> allowed; // per element, flattened over outputs
};
Expectation expectations(const Graph &g, const Outputs &ref,
                         const Outputs &target, const Outputs &magnitudes);
// A program's expected values: exactly these (the straight lowering's),
// the sign of a zero included unless the program leaves it open.
Expectation exactExpectations(const Outputs &expected, bool zeroSignOpen);

// An element of `actual` that repro.sh would judge wrong.
struct Mismatch {
  size_t output;
  int64_t index;
  double expected, actual, allowed;
};
std::vector<Mismatch> mismatches(const Graph &g, const Outputs &actual,
                                 const Outputs &ref, const Outputs &target,
                                 const std::vector<double> &allowed);

// ---- repro.sh (BundleRepro.cpp) ----

Error writeText(const std::string &path, const std::string &text);

// What a bundle's repro.sh needs besides the pipeline.
struct ReproSpec {
  std::string dir, title, program, table;
  bool compare;        // expected values are known
  bool passesComplete; // the pipeline runs to completion (no crash)
};

struct Repro {
  std::string pipeline;  // what repro.sh runs (empty: not reproducible)
  std::string splitNote; // for the README, when crosscheck's passes ran here
};

// Writes repro.mlir and repro.sh for `pipeline`. Passes that upstream
// mlir-opt lacks (crosscheck's cc-* test passes) run here, in-process, and
// repro.mlir is the program after them; repro.sh runs the upstream rest.
Expected<Repro> writeRepro(const ReproSpec &spec, const std::string &pipeline,
                           int optLevel, std::vector<std::string> &notes);

// The repro.sh of a compiler that is not an in-process MLIR pipeline: an
// external *-opt command (rerun on tosa.mlir, its output completed by
// upstream mlir-opt) or TorchScript (a LibTorch program on the traced
// module). Returns the README's words on how it reproduces; empty for other
// compilers (the exit-2 repro.sh stays).
Expected<std::string> writeOtherRepro(const ReproSpec &spec,
                                      const std::string &cut, const Graph &g,
                                      const Inputs &inputs);
// The same for a program through an external *-opt command (program.mlir),
// its output completed by `completion` (the straight lowering in upstream
// passes, as the campaign completed it).
Expected<std::string> writeExternalProgramRepro(const ReproSpec &spec,
                                                const std::string &cut,
                                                const MlirProgram &p,
                                                const Inputs &inputs,
                                                const std::string &completion);

// Runs DIR/repro.sh (output into DIR/repro.out); its exit status, or -1.
// Exit status 1 that does not show the finding's own kind of failure (a
// reduced pipeline that no longer lowers @repro_main's loops makes
// mlir-runner fail, not the program compute wrong values) counts as 3.
int runRepro(const std::string &dir, Kind kind);

// ---- The graph picture (GraphDot.cpp) ----

// Renders DIR/graph.dot to DIR/graph.svg with Graphviz's dot, when
// installed.
bool renderSvg(const std::string &dir);

// ---- README.md (BundleReadme.cpp) ----

// What the README says, gathered while the bundle was written.
struct ReadmeFacts {
  const FindingRecord *original;
  const BundleOptions *options;
  const BundleResult *result;
  std::string dir;
  std::string cut;      // the compiler under test of the (reduced) case
  std::string pipeline; // the in-process pipeline the bundle ran, or empty
  int optLevel = 0;
  std::string splitNote; // Repro::splitNote
  std::string otherHow;  // writeOtherRepro's words, or empty
  int status = -1;       // runRepro's, or -1 when repro.sh did not run
  bool svg = false;      // graph.svg was rendered
  bool program = false;  // a mid-level program's finding (no graph)
  std::string tosa;      // the module under test (TOSA, or the program)
  std::optional<PassStep> culprit; // the IR around the culprit pass
  std::vector<Mismatch> wrong;     // of the outputs re-run now
  std::string runNote;             // why the re-run failed
};
std::string readmeText(const ReadmeFacts &facts);

// ---- ISSUE.md (BundleIssue.cpp) ----

// The upstream issue: title, pass, input, the one command, expected versus
// actual, a placeholder for the specification's sentence, versions; no
// names of the tool that found it.
std::string issueText(const ReadmeFacts &facts);

} // namespace cc::bundle
