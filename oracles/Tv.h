// The SMT oracle: translation validation of a test case's compilation.
// Every pass of an in-process MLIR compiler's pipeline is checked with Z3 on
// the case's TOSA module, under a time budget (crosscheck fuzz --tv, and the
// reducer's judge for tv-incorrect findings). Built when Z3 is (CC_HAVE_SMT).
#pragma once

#include "backends/Backend.h"
#include "oracles/FindingFile.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cc {

// How a campaign's translation validation of one pass went: its checks by
// verdict.
struct TvTally {
  int64_t correct = 0, incorrect = 0, unknown = 0, timeout = 0;
  TvTally &operator+=(const TvTally &o) {
    correct += o.correct, incorrect += o.incorrect;
    unknown += o.unknown, timeout += o.timeout;
    return *this;
  }
  bool operator==(const TvTally &) const = default;
};
using TvChecks = std::map<std::string, TvTally>; // by pass

struct TvCaseOptions {
  bool perRewrite = false;   // canonicalize one rewrite at a time
  unsigned timeoutMs = 2000; // per solver query
  double budgetSeconds = 20; // the whole pipeline's checks (then killed)
};

// The pass pipeline of an in-process MLIR spec (mlir:NAME,
// mlir:pipeline=TEXT); empty for a compiler TV cannot follow (external
// commands, TorchScript).
std::string tvPipelineOf(const std::string &spec);

// A tv-incorrect finding for each step of c.cut's pipeline proved wrong
// (with a counterexample confirmed by running both sides). The signature
// names the pass and, for a single rewrite, the pattern and the op kinds it
// removed, so that one wrong rewrite is one finding whatever graph shows it.
// `checks` (when set) counts each pass's checks by verdict; `seconds` (when
// set) adds the time spent.
std::vector<FindingRecord> tvFindings(const TestCase &c,
                                      const TvCaseOptions &options,
                                      TvChecks *checks = nullptr,
                                      double *seconds = nullptr);

// The op names of MLIR text with their counts ("tosa.mul" -> 2): what a
// rewrite removed names it. Linear in the text.
std::map<std::string, int> irOpCounts(const std::string &ir);

// What `pipeline` does wrong on MLIR text, for reducing MLIR input: the
// first pass (or rewrite) translation validation proves wrong ("tv-incorrect
// PASS" or "tv-incorrect PASS/PATTERN"), else the pipeline's own failure
// ("pipeline fails: FIRST LINE", "pipeline crashes: SIGNAL"); empty when
// nothing is wrong (also when the budget ran out first).
std::string mlirTvFailure(const std::string &module,
                          const std::string &pipeline,
                          const TvCaseOptions &options);

} // namespace cc
