// One execution of the libFuzzer target, without libFuzzer: decode the
// bytes into a case, run it through a compiler under test (the in-process
// MLIR pipeline, isolated in a forked worker by default) and the reference,
// judge it with the oracles, and turn what the compiler did into features
// for libFuzzer's extra counters. LibFuzzerMain.cpp is the thin libFuzzer
// glue; the unit tests drive this directly.
#pragma once

#include "backends/Backend.h"
#include "harness/fuzz/FuzzCase.h"
#include "oracles/FindingFile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cc::fuzz {

struct TargetConfig {
  // Compilers under test (mlir:... specs: the in-process pipeline, or
  // mlir-ext:...); a case picks one (FuzzCase::cut modulo their count).
  std::vector<std::string> cuts;
  // Where a finding is written (crosscheck-finding JSON) before the target
  // aborts; empty: not written.
  std::string findingsDir;
  bool isolate = true;
  RunLimits limits;
};

// From the environment: CC_FUZZ_CUTS (specs separated by ';', default every
// named pipeline), CC_FUZZ_FINDINGS_DIR, CC_FUZZ_ISOLATE (0 runs the
// pipeline in the fuzzer's process: faster, but a compiler crash then kills
// the fuzzer without a finding file), CC_FUZZ_TIMEOUT (seconds);
// CC_FUZZ_LOAD_MUTANTS=1 is handled by the caller (tests only).
Expected<TargetConfig> configFromEnv();

struct Execution {
  FuzzCase fuzzCase;
  std::string cut;      // the compiler that ran
  bool skipped = false; // not judged (undefined on the reference, ...)
  std::string skipReason;
  std::vector<FindingRecord> findings;
  PassCoverage passCoverage;
  std::map<std::pair<std::string, std::string>, int64_t> opCoverage;
  // The graph's def-use pairs: "producer:dtype>consumer" ("input" for a
  // graph input).
  std::set<std::string> edgeCoverage;
};

class Target {
public:
  static Expected<std::unique_ptr<Target>> make(const TargetConfig &config);
  Execution run(const uint8_t *data, size_t size);
  Execution run(const FuzzCase &c);
  // Writes each finding of e into config.findingsDir (one file per
  // signature: "<kind>-<hash of the signature>.json"); returns the paths of
  // the signatures that had no file there yet (the first occurrence of a
  // bug; a known one need not stop the fuzzer again).
  Expected<std::vector<std::string>> saveFindings(const Execution &e) const;
  const TargetConfig &config() const { return cfg; }

private:
  TargetConfig cfg;
  std::vector<std::unique_ptr<Backend>> cuts;
};

// The execution as libFuzzer extra counters: each feature (a pass that
// changed the IR, a pattern that fired, the lowering path, an (op, dtype)
// pair and a def-use pair of the graph, the compiler) adds 1 to
// counters[hash(feature) % n], however often it fired: a new feature is new
// coverage, more of a known one is not. counters is cleared first.
void fillCounters(const Execution &e, uint8_t *counters, size_t n);
// The counter slot of a feature (kind, name).
size_t counterSlot(const std::string &kind, const std::string &name, size_t n);

} // namespace cc::fuzz
