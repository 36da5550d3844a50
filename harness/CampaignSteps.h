// The steps a campaign engine shares with the others (the generator's case
// stream in Campaign.cpp, libFuzzer in fuzz/Engine.cpp): one store, one
// reducer pass, one set of CI outputs. Internal to harness/.
#pragma once

#include "harness/Campaign.h"
#include "harness/Store.h"
#include "harness/Workers.h"
#include "reports/RootCause.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace cc {

// Creates (or resumes) the campaign's store with the baseline's signatures
// known.
Expected<std::unique_ptr<Store>>
openCampaignStore(const CampaignOptions &options,
                  const nlohmann::json &identity);
// The known bugs of a corpus/known/*.json file; none for "".
Expected<std::vector<KnownBug>> loadKnownBugsIfAny(const std::string &path);
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
// Whether a reduced case's reduction was whole: not a triage, not cut by
// its budget.
bool fullyReduced(const FindingRecord &reduced);

// Runs in a worker: whether a request is a triage (not a case index), and
// its answer: the finding reduced with the triage budget.
bool isTriageRequest(const std::string &request);
std::string serveTriage(const std::string &request,
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

// Writes the per-finding files and the CI outputs from the store, its
// findings grouped by root cause and matched against the known bugs of
// `knownBugs` (a corpus/known/*.json file, or "").
Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary,
                                       const std::string &knownBugs);

} // namespace cc
