#include "harness/Protocol.h"

#include "core/Json.h"
#include "process/Wire.h"

namespace cc {

using nlohmann::json;
using process::WireReader;
using process::WireWriter;

namespace {
enum class Tag : uint64_t { Cases, Triage };

Error malformed(const char *what) {
  return makeError(std::string("a campaign worker sent a malformed ") + what);
}

// A finding travels in its file format: one reader for every finding.
void writeFinding(WireWriter &w, const FindingRecord &f) {
  w.str(jsonText(findingToJson(f)));
}

Expected<FindingRecord> readFinding(WireReader &r) {
  CC_ASSIGN(j, parseJson(r.str()));
  return findingFromJson(j);
}

template <class Key>
void writeCounts(WireWriter &w, const std::map<Key, int64_t> &counts) {
  w.u64(counts.size());
  for (const auto &[key, n] : counts)
    w.str(key.first).str(key.second).i64(n);
}

template <class Key>
void readCounts(WireReader &r, std::map<Key, int64_t> &counts) {
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    std::string first = r.str(), second = r.str();
    counts[{first, second}] += r.i64();
  }
}

void writeOutcome(WireWriter &w, const CaseOutcome &o) {
  w.u64(o.index).str(o.graphName).i64(o.ops).u64(o.skipped).str(o.skipReason);
  w.u64(o.unsupported.size());
  for (const BackendSkip &u : o.unsupported)
    w.str(u.backend).str(u.reason);
  w.u64(o.findings.size());
  for (const FindingRecord &f : o.findings)
    writeFinding(w, f);
  w.u64(o.times.size());
  for (const auto &[stage, seconds] : o.times)
    w.str(stage).f64(seconds);
  writeCounts(w, o.coverage);
  writeCounts(w, o.passCoverage);
  w.u64(o.tvChecks.size());
  for (const auto &[pass, t] : o.tvChecks)
    w.str(pass).i64(t.correct).i64(t.incorrect).i64(t.unknown).i64(t.timeout);
  w.f64(o.seconds).f64(o.recordedAt);
}

Expected<CaseOutcome> readOutcome(WireReader &r) {
  CaseOutcome o;
  o.index = r.u64();
  o.graphName = r.str();
  o.ops = int(r.i64());
  o.skipped = r.u64();
  o.skipReason = r.str();
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    std::string backend = r.str();
    o.unsupported.push_back({backend, r.str()});
  }
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    CC_ASSIGN(f, readFinding(r));
    o.findings.push_back(std::move(f));
  }
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    std::string stage = r.str();
    o.times[stage] += r.f64();
  }
  readCounts(r, o.coverage);
  readCounts(r, o.passCoverage);
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    TvTally &t = o.tvChecks[r.str()];
    t.correct = r.i64(), t.incorrect = r.i64();
    t.unknown = r.i64(), t.timeout = r.i64();
  }
  o.seconds = r.f64();
  o.recordedAt = r.f64();
  if (!r.ok())
    return malformed("case outcome");
  return o;
}
} // namespace

std::string encodeRequest(const WorkerRequest &request) {
  WireWriter w;
  if (const auto *cases = std::get_if<CasesRequest>(&request))
    w.u64(uint64_t(Tag::Cases)).u64(cases->first).u64(cases->count);
  else
    writeFinding(w.u64(uint64_t(Tag::Triage)),
                 std::get<TriageRequest>(request).finding);
  return w.take();
}

Expected<WorkerRequest> decodeRequest(const std::string &bytes) {
  WireReader r(bytes);
  switch (Tag(r.u64())) {
  case Tag::Cases: {
    CasesRequest c;
    c.first = r.u64();
    c.count = r.u64();
    if (!r.done())
      return makeError("malformed request");
    return WorkerRequest(c);
  }
  case Tag::Triage: {
    CC_ASSIGN(f, readFinding(r));
    if (!r.done())
      return makeError("malformed request");
    return WorkerRequest(TriageRequest{std::move(f)});
  }
  }
  return makeError("malformed request");
}

std::string encodeOutcomes(const std::vector<CaseOutcome> &outcomes) {
  WireWriter w;
  w.u64(outcomes.size());
  for (const CaseOutcome &o : outcomes)
    writeOutcome(w, o);
  return w.take();
}

Expected<std::vector<CaseOutcome>> decodeOutcomes(const std::string &bytes) {
  WireReader r(bytes);
  std::vector<CaseOutcome> out;
  for (uint64_t i = 0, n = r.u64(); r.ok() && i < n; ++i) {
    CC_ASSIGN(o, readOutcome(r));
    out.push_back(std::move(o));
  }
  if (!r.done())
    return malformed("reply");
  return out;
}

std::string encodeTriage(const Expected<FindingRecord> &reduced) {
  WireWriter w;
  w.u64(bool(reduced));
  if (reduced)
    writeFinding(w, *reduced);
  else
    w.str(reduced.error().message());
  return w.take();
}

Expected<FindingRecord> decodeTriage(const std::string &bytes) {
  WireReader r(bytes);
  bool ok = r.u64();
  if (!ok) {
    std::string why = r.str();
    return r.done() ? makeError(why) : malformed("triage reply");
  }
  CC_ASSIGN(f, readFinding(r));
  if (!r.done() || !f.reduction)
    return malformed("triage reply");
  return f;
}

} // namespace cc
