// Triage: a cheap reduction of each new miscompile while the campaign runs,
// on an idle worker, so that the campaign's root causes (culprit + reduced
// form, reports/RootCause.h) are known as it goes.
#include "harness/CampaignSteps.h"

#include "core/Json.h"
#include "reducers/Reduce.h"

#include <cstdio>

namespace cc {

using nlohmann::json;

namespace {
// A case index is all digits; a triage request is a JSON object.
constexpr char kTriagePrefix = '{';
} // namespace

bool wantsReduction(const FindingRecord &f, bool inBaseline,
                    const std::vector<KnownBug> &known) {
  const Signature &s = f.finding.signature;
  return !inBaseline && s.backend != "crosscheck-worker" &&
         s.kind != Kind::RefDisagreement && !matchKnownBug(known, f);
}

bool wantsTriage(const FindingRecord &f, bool inBaseline,
                 const std::vector<KnownBug> &known) {
  // A crash, hang or pass failure is grouped by its stage and message; a
  // miscompile needs its reduced form and culprit.
  return f.finding.signature.kind == Kind::Miscompile &&
         wantsReduction(f, inBaseline, known);
}

bool fullyReduced(const FindingRecord &reduced) {
  const json &e = reduced.evidence;
  if (!e.is_object() || !e.contains("reduced") || !e["reduced"].is_object())
    return true;
  const json &r = e["reduced"];
  return !r.value("budget_exhausted", false) && !r.value("quick", false);
}

bool isTriageRequest(const std::string &request) {
  return !request.empty() && request[0] == kTriagePrefix;
}

std::string serveTriage(const std::string &request,
                        const CampaignOptions &options) {
  auto f = findingFromJson(json::parse(request, nullptr, false));
  if (!f)
    return json{{"error", f.error().message()}}.dump();
  ReduceOptions ro;
  ro.maxCalls = options.triageCalls;
  ro.budgetSeconds = options.triageSeconds;
  ro.quick = true;
  auto r = reduceFinding(*f, ro);
  if (!r)
    return json{{"error", r.error().message()}}.dump();
  return json{{"ops", r->stats.opsAfter},
              {"reduced", findingToJson(r->reduced)}}
      .dump();
}

namespace {

struct Reduced {
  FindingRecord record;
  int ops = 0;
};

// The reduced case a worker's triage reply holds, or why there is none.
Expected<Reduced> triageReply(const WorkerPool::Event &ev) {
  if (ev.kind != WorkerPool::Event::Reply)
    return makeError(std::string(ev.kind == WorkerPool::Event::TimedOut
                                     ? "the worker stopped answering"
                                     : "the worker died") +
                     ": " + ev.detail);
  json j = json::parse(ev.reply, nullptr, false);
  if (j.is_object() && j.contains("error") && j["error"].is_string())
    return makeError(j["error"].get<std::string>());
  if (!j.is_object() || !j.contains("reduced") || !j["ops"].is_number())
    return makeError("the worker sent a malformed reply");
  CC_ASSIGN(reduced, findingFromJson(j["reduced"]));
  return Reduced{std::move(reduced), j["ops"].get<int>()};
}

} // namespace

Expected<std::unique_ptr<Triage>> Triage::make(const CampaignOptions &options,
                                               Store &store, int workers) {
  CC_ASSIGN(known, loadKnownBugsIfAny(options.knownBugs));
  std::unique_ptr<Triage> t(new Triage(options, store, std::move(known)));
  t->running.resize(size_t(workers));
  CC_ASSIGN(stored, store.findings());
  for (Store::Stored &f : stored) {
    std::string sig = f.summary.signature.str();
    t->order.push_back(sig);
    if (!f.reduced && t->options.triageCalls > 0 &&
        wantsTriage(f.record, store.inBaseline(f.summary.signature), t->known))
      t->queue.push_back(sig);
    t->seen[sig] = {std::move(f.record), std::move(f.reduced)};
  }
  return t;
}

void Triage::noteFinding(const FindingRecord &f) {
  std::string sig = f.finding.signature.str();
  if (!seen.emplace(sig, Seen{f, std::nullopt}).second)
    return;
  order.push_back(sig);
  grouped.reset();
  if (options.triageCalls > 0 &&
      wantsTriage(f, store.inBaseline(f.finding.signature), known))
    queue.push_back(sig);
}

void Triage::startOn(WorkerPool &pool, int worker) {
  std::string sig = queue.front();
  queue.pop_front();
  running[size_t(worker)] = sig;
  pool.submit(worker, findingToJson(seen.at(sig).record).dump(),
              options.triageSeconds + 3 * options.caseTimeoutSeconds + 30);
}

Error Triage::finish(const WorkerPool::Event &ev) {
  std::string sig = *running[size_t(ev.worker)];
  running[size_t(ev.worker)].reset();
  auto r = triageReply(ev);
  if (!r) {
    std::fprintf(stderr, "crosscheck fuzz: not triaged: %s: %s\n", sig.c_str(),
                 r.error().message().c_str());
    return Error();
  }
  Seen &s = seen.at(sig);
  CC_TRY(store.saveReduced(s.record.finding.signature, r->record, r->ops));
  s.reduced = std::move(r->record);
  grouped.reset();
  return Error();
}

size_t Triage::rootCauses() {
  if (grouped)
    return *grouped;
  std::vector<FindingForGrouping> in;
  for (const std::string &sig : order) {
    const Seen &s = seen.at(sig);
    in.push_back({&s.record, s.reduced ? &*s.reduced : nullptr});
  }
  grouped = groupRootCauses(in, known).size();
  return *grouped;
}

} // namespace cc
