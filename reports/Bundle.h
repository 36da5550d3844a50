// Bug bundles: one directory per finding that a compiler engineer can file
// upstream as it is.
//
//   README.md     the signature, expected versus actual, the graph as a
//                 picture beside its TOSA module, the culprit pass with the
//                 IR before and after it, the numeric evidence, the SMT
//                 counterexample (when there is one), tool versions
//   repro.sh      reproduces with upstream mlir-opt and mlir-runner only
//                 (an external compiler: its own command first, files
//                 tosa.mlir and driver.mlir; TorchScript: LibTorch only,
//                 files repro.cpp, model.pt, inputs.pt): prints expected
//                 versus actual, exits 1 while the bug is there and 0 once
//                 it is fixed
//   repro.mlir    what repro.sh lowers: the function under test and a
//                 @repro_main that calls it on the inputs and prints the
//                 results (after crosscheck's own test passes, when the
//                 pipeline names some: upstream tools cannot run them)
//   ISSUE.md      the text of an upstream issue: title, pass, input, the
//                 one command, expected versus actual, versions (the
//                 specification's sentence is left to the maintainer)
//   compare.awk, expected.txt   what repro.sh compares the outputs with
//   input.mlir    the same program before any pass
//   inputs/<name>.npy   one per graph input, named as `crosscheck run
//                 --inputs DIR` reads them (inputFile())
//   graph.json, graph.svg, finding.json, expected_<i>.npy
//   culprit-before.mlir, culprit-after.mlir   (when the culprit is known)
//   repro.out     what repro.sh printed when the bundle was written
#pragma once

#include "core/Error.h"
#include "oracles/FindingFile.h"

#include <string>
#include <vector>

namespace cc {

struct BundleOptions {
  // Bisect the cut's pipeline (reducers' pipeline reduction) for the first
  // pass after which the failure shows; the bundle then reproduces with the
  // reduced pipeline.
  bool bisect = true;
  double bisectBudgetSeconds = 60;
  int jobs = 1;
  // Run repro.sh once with the upstream tools found on PATH (output in
  // repro.out): a reduced pipeline that does not reproduce there is
  // replaced by the finding's whole pipeline.
  bool verify = true;
  // Why the compiler under test may not run (a command taken from a file
  // the user did not name, docs/SECURITY.md): the bundle is written
  // without rerunning it or repro.sh, and says so. Empty: it may run.
  std::string notRun;
};

struct BundleResult {
  std::string culprit;  // first failing pass, or empty
  std::string pipeline; // what repro.sh runs (empty: not reproducible)
  std::vector<std::string> notes; // what the bundle could not do, and why
};

// Writes the bundle of `finding` into `dir` (created). An error when dir
// cannot be written or the finding's graph is invalid; what cannot be
// reproduced (another backend, a finding that no longer fails) is said in
// the README and in BundleResult::notes.
Expected<BundleResult> writeBundle(const FindingRecord &finding,
                                   const std::string &dir,
                                   const BundleOptions &options = {});

// DIR/inputs/<name>.npy: where a bundle keeps input `i` of `g`, so that
// `crosscheck run DIR/graph.json --inputs DIR/inputs` replays the case.
std::string inputFile(const std::string &dir, const Graph &g, size_t i);

// The Graphviz source of a graph: inputs, constants, ops and outputs.
std::string graphDot(const Graph &g);

} // namespace cc
