// The libFuzzer target cc_fuzz_pipeline: every input is a valid graph
// (FuzzCase.h), run through one compiler under test (by default one of the
// named MLIR pipelines, isolated in a forked worker) and the reference. An
// oracle finding is written as crosscheck-finding JSON into
// $CC_FUZZ_FINDINGS_DIR and the target aborts, so libFuzzer keeps the input
// as a crash and `crosscheck fuzz --engine libfuzzer` files the finding in
// its store; a signature that already has its file there does not abort
// again. The compiler's semantic coverage (passes that changed the IR,
// patterns that fired, the lowering path, (op, dtype) pairs) feeds
// libFuzzer through extra counters: Debian's MLIR has no coverage
// instrumentation of its own.
//
// Environment: see harness/fuzz/Target.h (configFromEnv);
// CC_FUZZ_LOAD_MUTANTS=1 registers the test-only cc-mutant-* passes;
// CC_FUZZ_ABORT=0 writes findings but never aborts (long measurements
// without fork mode); CC_FUZZ_COUNTERS=0 leaves the extra counters empty (to
// measure what the semantic coverage adds); CC_FUZZ_COVERAGE_LOG=FILE appends
// "UNIXTIME\tKIND\tNAME" for each pass, pattern or path the first time
// this process sees it (measurements; fork-mode jobs append to one file);
// CC_FUZZ_SCHEDULE=0 keeps the mutator's strategies at their fixed shares
// instead of following which ones find new coverage (Schedule.h);
// CC_FUZZ_EDGES=0 turns the edge-value and splat-constant mutations off
// (FuzzCase.h).
#include "harness/fuzz/Target.h"
#ifdef CC_HAVE_MUTANTS
#include "tests/mutants/Mutants.h"
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace {
constexpr size_t kCounters = 1 << 14;
// libFuzzer treats this section like its own coverage counters (cleared
// before each input, new counts are new coverage).
__attribute__((section("__libfuzzer_extra_counters"),
               used)) uint8_t extraCounters[kCounters];

cc::fuzz::Target *target = nullptr;
bool useCounters = true;
bool abortOnFinding = true;
FILE *coverageLog = nullptr;
cc::fuzz::Schedule schedule;
bool useSchedule = true;
cc::fuzz::MutationOptions mutationOptions;

// The passes, patterns and paths this process has seen; returns those of
// coverage that are new.
std::vector<std::pair<std::string, std::string>>
newCoverage(const cc::PassCoverage &coverage) {
  static std::set<std::pair<std::string, std::string>> seen;
  std::vector<std::pair<std::string, std::string>> fresh;
  for (const auto &[key, count] : coverage)
    if (seen.insert(key).second)
      fresh.push_back(key);
  return fresh;
}

void logNewCoverage(
    const std::vector<std::pair<std::string, std::string>> &keys) {
  double now = std::chrono::duration<double>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  for (const auto &[kind, name] : keys)
    std::fprintf(coverageLog, "%.3f\t%s\t%s\n", now, kind.c_str(),
                 name.c_str());
  if (!keys.empty())
    std::fflush(coverageLog);
}

bool envIs(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "cc_fuzz_pipeline: %s\n", msg.c_str());
  std::exit(2);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
#ifdef CC_HAVE_MUTANTS
  if (envIs("CC_FUZZ_LOAD_MUTANTS", "1"))
    cc::registerMutantPasses();
#endif
  auto config = cc::fuzz::configFromEnv();
  if (!config)
    die(config.error().message());
  auto t = cc::fuzz::Target::make(*config);
  if (!t)
    die(t.error().message());
  target = t->release();
  useCounters = !envIs("CC_FUZZ_COUNTERS", "0");
  abortOnFinding = !envIs("CC_FUZZ_ABORT", "0");
  useSchedule = !envIs("CC_FUZZ_SCHEDULE", "0");
  mutationOptions.edges = !envIs("CC_FUZZ_EDGES", "0");
  if (const char *log = std::getenv("CC_FUZZ_COVERAGE_LOG"); log && *log) {
    coverageLog = std::fopen(log, "a");
    if (!coverageLog)
      die(std::string("cannot open CC_FUZZ_COVERAGE_LOG '") + log + "'");
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cc::fuzz::Execution e = target->run(data, size);
  if (useCounters)
    cc::fuzz::fillCounters(e, extraCounters, kCounters);
  auto fresh = newCoverage(e.passCoverage);
  if (coverageLog)
    logNewCoverage(fresh);
  schedule.credit(!fresh.empty());
  // Now and then, where the schedule stands (libFuzzer's log).
  static uint64_t executions = 0;
  if (useSchedule && ++executions % 2000 == 0)
    std::fprintf(stderr, "cc_fuzz_pipeline: %llu executions, strategies: %s\n",
                 (unsigned long long)executions,
                 schedule.describe(false).c_str());
  if (e.findings.empty())
    return 0;
  auto paths = target->saveFindings(e);
  // A signature already in the findings directory is known: going on
  // keeps one frequent bug from stopping every fork-mode job at once.
  if (!abortOnFinding ||
      (paths && paths->empty() && !target->config().findingsDir.empty()))
    return 0;
  for (const cc::FindingRecord &f : e.findings)
    std::fprintf(stderr, "cc_fuzz_pipeline: finding %s\n  %s\n",
                 f.finding.signature.str().c_str(),
                 f.finding.message.substr(0, 500).c_str());
  if (!paths)
    std::fprintf(stderr, "cc_fuzz_pipeline: %s\n",
                 paths.error().message().c_str());
  else
    for (const std::string &p : *paths)
      std::fprintf(stderr, "cc_fuzz_pipeline: wrote %s\n", p.c_str());
  std::abort();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  return cc::fuzz::mutateBytes(data, size, maxSize, seed,
                               useSchedule ? &schedule : nullptr,
                               mutationOptions);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned int seed) {
  return cc::fuzz::crossOverBytes(data1, size1, data2, size2, out, maxOutSize,
                                  seed, useSchedule ? &schedule : nullptr,
                                  mutationOptions);
}
