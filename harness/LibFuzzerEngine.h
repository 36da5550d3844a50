// `crosscheck fuzz --engine libfuzzer`: runs the libFuzzer target
// (cc_fuzz_pipeline, built with -DCC_LIBFUZZER=ON) on a corpus directory
// for a time budget, in libFuzzer's fork mode with N jobs so that a finding
// does not stop the campaign, optionally minimizes the corpus (-merge=1),
// and files what it found in the campaign's store (DIR/campaign.db) like
// the generator's campaign: the same deduplication by signature, reducer,
// and CI outputs. The corpus is replayed through the target's execution to
// record pass and pattern coverage in the store.
#pragma once

#include "harness/Campaign.h"

#include <string>
#include <vector>

namespace cc::fuzz {

struct LibFuzzerOptions {
  std::string fuzzer;         // path of cc_fuzz_pipeline
  std::string corpus;         // default DIR/corpus
  bool merge = false;         // minimize the corpus afterwards
  bool loadMutants = false;   // CC_FUZZ_LOAD_MUTANTS=1 (tests)
  bool replayCoverage = true; // record the corpus' pass/pattern coverage
  std::vector<std::string> extraArgs; // passed to libFuzzer as they are
};

struct LibFuzzerSummary {
  CampaignSummary campaign;
  uint64_t executions = 0; // libFuzzer's own count (its log)
  double execsPerSecond = 0;
  size_t corpusSize = 0;
};

// Uses of CampaignOptions: cuts (the target's compilers), timeBudgetSeconds,
// jobs, seed, outDir, resume, baseline, caseLimits, reduce and
// reduceBudgetSeconds; seedCorpus (its .json graphs within the fuzzer's limits)
// fills an empty corpus.
Expected<LibFuzzerSummary> runLibFuzzer(const LibFuzzerOptions &lf,
                                        const CampaignOptions &options);

// The fuzzer's path: the flag, else $CC_LIBFUZZER_TARGET, else
// cc_fuzz_pipeline next to `self` (the running crosscheck) or on PATH.
Expected<std::string> findFuzzer(const std::string &flag,
                                 const std::string &self);

} // namespace cc::fuzz
