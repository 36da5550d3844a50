// What a campaign's coordinator and its workers (process/Pool.h) say to
// each other, as typed values in the framed codec of process/Wire.h: a
// request is a graph's cases to run or a finding to triage; the answer is
// their outcomes or the reduced finding.
#pragma once

#include "backends/Backend.h"
#include "oracles/Consensus.h"
#include "oracles/FindingFile.h"
#include "oracles/Tv.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cc {

// What a worker learnt about one case of the stream.
struct CaseOutcome {
  uint64_t index = 0;
  std::string graphName;
  int ops = 0;
  bool skipped = false;
  std::string skipReason;
  // Each backend that could not run the case (also when others did).
  std::vector<BackendSkip> unsupported;
  std::vector<FindingRecord> findings;
  StageTimes times;
  // (op, dtype) -> occurrences in the case's graph.
  std::map<std::pair<std::string, std::string>, int64_t> coverage;
  // (kind, name) -> how often it happened in the case: kind "pass" (a pass
  // that changed the IR), "pattern" (a rewrite pattern that fired) or
  // "path" (the passes that changed the IR, hashed).
  PassCoverage passCoverage;
  TvChecks tvChecks;  // fuzz --tv: each pass's checks by verdict
  double seconds = 0; // wall time of the case in its worker
  // When the case happened (unix seconds); 0: when it is recorded. The
  // libFuzzer engine replays its corpus afterwards and dates each input by
  // when it joined the corpus.
  double recordedAt = 0;
};

// Cases first .. first+count-1: one graph on its input sets, or one case
// retried alone.
struct CasesRequest {
  uint64_t first = 0, count = 0;
};
// A new miscompile, to reduce with the triage budget.
struct TriageRequest {
  FindingRecord finding;
};
using WorkerRequest = std::variant<CasesRequest, TriageRequest>;

std::string encodeRequest(const WorkerRequest &r);
Expected<WorkerRequest> decodeRequest(const std::string &bytes);

std::string encodeOutcomes(const std::vector<CaseOutcome> &outcomes);
Expected<std::vector<CaseOutcome>> decodeOutcomes(const std::string &bytes);

// A triage's answer: the reduced finding (its Reduction says how far), or
// why there is none.
std::string encodeTriage(const Expected<FindingRecord> &reduced);
Expected<FindingRecord> decodeTriage(const std::string &bytes);

} // namespace cc
