// The steps of a campaign, one file each; internal to harness/.
//
//   Campaign.cpp     runCampaign: options, backends, store, pool, the rest
//   CaseWorker.cpp   a worker's answer to a request (cases, or a triage)
//   Coordinator.cpp  the coordinator's loop, stop signals, dead workers
//   Reduction.cpp    triage as the campaign goes, --reduce after it
//   Outputs.cpp      the finding files and the CI outputs from the store
//   Merge.cpp        merging shards' stores
//   Protocol.h       what coordinator and workers send each other
//   Store.h          the SQLite store
//
// The libFuzzer engine (LibFuzzerEngine.cpp) shares the store, the
// reduction and the outputs.
#pragma once

#include "harness/Campaign.h"
#include "harness/Protocol.h"
#include "harness/Store.h"
#include "process/Pool.h"
#include "reports/RootCause.h"

#include <chrono>
#include <csignal>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

namespace cc {

using process::WorkerPool;
class CaseStream;

// --ref smt: programs are also judged against their encoding's value
// (oracles/Program.h); it is no backend, so no graph runs on it.
inline constexpr const char *kSmtReference = "smt";
bool usesSmtReference(const CampaignOptions &options);

// The campaign's backends, made before the workers fork.
struct CampaignBackends {
  std::vector<std::unique_ptr<Backend>> owned;
  std::vector<Backend *> cuts, refs;
};

// ---- Store.cpp, Outputs.cpp ----

// Creates (or resumes) the campaign's store with the baseline's signatures
// known.
Expected<std::unique_ptr<Store>>
openCampaignStore(const CampaignOptions &options,
                  const nlohmann::json &identity);
// The known bugs of a corpus/known/*.json file; none for "".
Expected<std::vector<KnownBug>> loadKnownBugsIfAny(const std::string &path);
// Writes the per-finding files and the CI outputs from the store, its
// findings grouped by root cause and matched against the known bugs of
// `knownBugs` (a corpus/known/*.json file, or "").
Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary,
                                       const std::string &knownBugs);

// ---- CaseWorker.cpp ----

// In a worker: the answer to an encoded request (Protocol.h); "" (a
// malformed reply to the coordinator) when the request is malformed.
std::string serveRequest(const std::string &request, const CaseStream &stream,
                         const CampaignBackends &backends,
                         const CampaignOptions &options);

// ---- Reduction.cpp ----

// Reduces every new, not yet reduced finding that replays on its own.
Error reduceNewFindings(Store &store, const CampaignOptions &options);
// Whether a finding is reduced (by --reduce): not in the baseline, not a
// known bug, a compiler's own (not a worker's, not the references').
bool wantsReduction(const FindingRecord &f, bool inBaseline,
                    const std::vector<KnownBug> &known);
// Whether a new finding is triaged as the campaign goes
// (CampaignOptions::triageCalls): a miscompile that wants reduction.
bool wantsTriage(const FindingRecord &f, bool inBaseline,
                 const std::vector<KnownBug> &known);
// Whether a stored finding may be replayed by this campaign: its compiler
// is not a command (mlir-ext:CMD) other than the campaign's own --cut
// (a store may come from anyone, docs/SECURITY.md).
bool mayReplay(const FindingRecord &f, const CampaignOptions &options);
// Whether a reduced case's reduction was whole: not a triage, not cut by
// its budget.
bool fullyReduced(const FindingRecord &reduced);
// In a worker: the finding reduced with the triage budget.
Expected<FindingRecord> triageFinding(const FindingRecord &f,
                                      const CampaignOptions &options);

// The coordinator's triage: new miscompiles waiting for an idle worker,
// the ones being reduced, and the root causes of all signatures so far.
class Triage {
public:
  // Resuming, the store's unreduced miscompiles wait for triage again.
  static Expected<std::unique_ptr<Triage>> make(const CampaignOptions &options,
                                                Store &store, int workers);
  // A finding of a recorded case: a new signature may wait for triage.
  void noteFinding(const FindingRecord &f);
  bool waiting() const { return !queue.empty(); }
  // Hands the next waiting finding to an idle worker.
  void startOn(WorkerPool &pool, int worker);
  bool busyOn(int worker) const { return bool(running[size_t(worker)]); }
  // The worker's answer: the reduced case goes to the store. A finding
  // that does not reduce stays as it is; only the store failing is an
  // error.
  Error finish(const WorkerPool::Event &ev);
  size_t signatures() const { return seen.size(); }
  size_t rootCauses(); // regrouped only after a change

private:
  Triage(const CampaignOptions &o, Store &s, std::vector<KnownBug> k)
      : options(o), store(s), known(std::move(k)) {}
  struct Seen {
    FindingRecord record;
    std::optional<FindingRecord> reduced;
  };
  const CampaignOptions &options;
  Store &store;
  std::vector<KnownBug> known;
  std::map<std::string, Seen> seen;                // by signature
  std::vector<std::string> order;                  // signatures as first seen
  std::deque<std::string> queue;                   // signatures waiting
  std::vector<std::optional<std::string>> running; // per worker
  std::optional<size_t> grouped; // rootCauses() since the last change
};

// ---- Coordinator.cpp ----

// SIGINT and SIGTERM ask the campaign to stop after the cases in flight;
// the previous handlers come back at the end.
class StopSignals {
public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals &) = delete;
  StopSignals &operator=(const StopSignals &) = delete;
  static bool requested(); // since the last StopSignals began

private:
  struct sigaction oldInt{}, oldTerm{};
};

// The coordinator's loop: hands this shard's case indices to idle
// workers, records each outcome as it arrives, and reports progress.
class Coordinator {
public:
  // `compilers`: the backends a case runs on, which bound a worker's time.
  Coordinator(const CampaignOptions &options, const CaseStream &stream,
              size_t compilers, Store &store, WorkerPool &pool, Triage &triage,
              std::unordered_set<uint64_t> done);
  // Until the budget, the end of the stream or a stop signal.
  Error run();
  void stopClock() { summary.seconds = elapsed(); }
  // The last statistics, after the optional reduction.
  Error finish();

  CampaignSummary summary;

private:
  using Clock = std::chrono::steady_clock;
  double elapsed() const;
  bool anyBusy() const;
  // The next graph's cases not yet recorded (or a case to retry alone).
  std::optional<CasesRequest> nextRange();
  // New miscompiles waiting for triage go first. False when the shard has
  // no case left.
  bool fillIdleWorkers(bool casesLeft);
  void countRootCauses();
  Error record(const WorkerPool::Event &ev);
  Error recordOutcome(const CaseOutcome &outcome);
  Error report();

  const CampaignOptions &options;
  const CaseStream &stream;
  Store &store;
  WorkerPool &pool;
  Triage &triage;
  std::unordered_set<uint64_t> done;
  std::vector<CasesRequest> inFlight;
  std::vector<uint64_t> retry; // cases to run alone, last first
  std::unordered_set<uint64_t> graphsSeen;
  uint64_t next; // the next graph of this shard
  double workerTimeout = 0;
  CampaignProgress progress;
  Clock::time_point start = Clock::now();
  double lastProgress = 0, lastStats = 0;
};

} // namespace cc
