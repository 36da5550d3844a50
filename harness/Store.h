// The campaign's findings store: one SQLite database per campaign directory
// (WAL mode). A case and its findings are written in one transaction, so a
// campaign killed at any moment has either recorded a case completely or
// not at all; findings are deduplicated by signature. A store opened to
// write holds its directory's lock (DirLock) for its whole life.
#pragma once

#include "core/Error.h"
#include "harness/Campaign.h"
#include "harness/DirLock.h"
#include "harness/Protocol.h"
#include "oracles/FindingFile.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

struct sqlite3;

namespace cc {

class Store {
public:
  // Creates DIR/campaign.db with the campaign's identity (the options that
  // define its case stream), or opens it to resume, checking that identity.
  // `advice` says what to do when DIR already holds a campaign.
  static Expected<std::unique_ptr<Store>>
  create(const std::string &dir, const nlohmann::json &identity,
         const std::string &advice =
             "pass --resume to continue it, or choose another --out");
  static Expected<std::unique_ptr<Store>>
  resume(const std::string &dir, const nlohmann::json &identity);
  // Opens an existing store to read it (merge, baseline, reports): nothing
  // is written to it or beside it, so its directory may be read-only.
  static Expected<std::unique_ptr<Store>> open(const std::string &dbPath);
  ~Store();

  static std::string dbPath(const std::string &dir) {
    return dir + "/campaign.db";
  }

  // Marks signatures known (from a baseline); they are kept, not new.
  void setKnown(std::set<std::string> signatures) {
    known = std::move(signatures);
  }
  bool inBaseline(const Signature &s) const { return known.count(s.str()); }

  Expected<std::unordered_set<uint64_t>> recordedCases();
  // Records the case, its findings (deduplicated) and its coverage in one
  // durable transaction.
  Error record(const CaseOutcome &outcome, uint32_t shard);
  Error recordStats(const CampaignProgress &p, uint32_t shard);

  Expected<uint64_t> caseCount();
  // Seconds per stage summed over every recorded case, plus "case" (the
  // cases' wall time in their workers).
  Expected<StageTimes> stageTimes();
  Expected<std::vector<SignatureSummary>> signatures();
  struct PassCoverage {
    std::string kind, name; // "pass" | "pattern" | "path"
    int64_t count = 0;
    uint64_t firstCase = 0; // the lowest case index that showed it
    double firstSeen = 0;   // when that case was recorded (unix seconds)
  };
  Expected<std::vector<PassCoverage>> passCoverage();
  // fuzz --tv: each pass's checks by verdict, over every recorded case.
  Expected<TvChecks> tvChecks();
  // The cases each backend could not run, by reason (its class: the
  // first line, without the node it names), most cases first.
  struct BackendSkips {
    std::string backend, reason;
    int64_t cases = 0;
  };
  Expected<std::vector<BackendSkips>> backendSkips();
  // Read-only views for reports (crosscheck report).
  struct CaseTime {
    double at = 0; // unix seconds when the case was recorded
    bool skipped = false;
  };
  Expected<std::vector<CaseTime>> caseTimeline(); // ordered by time
  struct OpCoverage {
    std::string op, dtype;
    int64_t count = 0;
  };
  Expected<std::vector<OpCoverage>> opCoverage();
  struct FindingTimes {
    double firstSeen = 0, lastSeen = 0;
  };
  // Signature string -> when it was first and last seen.
  Expected<std::map<std::string, FindingTimes>> findingTimes();
  struct Stored {
    FindingRecord record; // its first occurrence
    SignatureSummary summary;
    std::optional<FindingRecord> reduced;
  };
  // The first recorded finding of each signature, with its count.
  Expected<std::vector<Stored>> findings();
  // Keeps the reduced case of a signature (its Reduction says how far).
  Error saveReduced(const Signature &s, const FindingRecord &reduced);
  // Copies every row of another store into this one, deduplicating
  // findings and skipping cases already present.
  Error mergeFrom(Store &other);
  Expected<nlohmann::json> identity();

private:
  Store(sqlite3 *db, std::string uri) : db(db), uri(std::move(uri)) {}
  static Expected<std::unique_ptr<Store>>
  openToWrite(const std::string &dir, std::unique_ptr<DirLock> lock,
              bool create);
  Error exec(const std::string &sql);
  Error checkFormat(const std::string &dbPath);
  sqlite3 *db;
  std::string uri; // what it was opened with (ATTACHed the same way)
  std::unique_ptr<DirLock> lock;
  std::set<std::string> known;
  uint64_t progressSteps = 0; // of the read budget (Store::open)
};

// Signatures of an earlier campaign: its directory, its campaign.db or its
// findings.json.
Expected<std::set<std::string>> loadBaseline(const std::string &path);

} // namespace cc
