// A campaign's reductions: triage, a cheap reduction of each new miscompile
// while the campaign runs, on an idle worker, so that the campaign's root
// causes (culprit + reduced form, reports/RootCause.h) are known as it
// goes; and --reduce after the cases, which goes on from where a triage
// stopped. Either keeps its Reduction with the reduced case in the store.
#include "harness/CampaignSteps.h"

#include "backends/Registry.h"
#include "reducers/Reduce.h"

#include <cstdio>

namespace cc {

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

bool mayReplay(const FindingRecord &f, const CampaignOptions &options) {
  return !checkTrustedSpec(f.testCase.cut, "a stored finding", options.cuts,
                           false);
}

bool fullyReduced(const FindingRecord &reduced) {
  return !reduced.reduction || reduced.reduction->whole();
}

Expected<FindingRecord> triageFinding(const FindingRecord &f,
                                      const CampaignOptions &options) {
  ReduceOptions ro;
  ro.maxCalls = options.triageCalls;
  ro.budgetSeconds = options.triageSeconds;
  ro.quick = true;
  CC_ASSIGN(r, reduceFinding(f, ro));
  return std::move(r.reduced);
}

Error reduceNewFindings(Store &store, const CampaignOptions &options) {
  CC_ASSIGN(all, store.findings());
  CC_ASSIGN(known, loadKnownBugsIfAny(options.knownBugs));
  for (Store::Stored &f : all) {
    const Signature &s = f.summary.signature;
    if (f.summary.known || !wantsReduction(f.record, false, known) ||
        !mayReplay(f.record, options) ||
        (f.reduced && fullyReduced(*f.reduced)))
      continue;
    ReduceOptions ro;
    ro.budgetSeconds = options.reduceBudgetSeconds;
    ro.jobs = options.jobs;
    // A triaged case goes on from where its budget stopped it.
    auto r = reduceFinding(f.reduced ? *f.reduced : f.record, ro);
    if (!r) {
      // A finding that does not replay alone (flaky, or it needed another
      // case's state) stays unreduced; the campaign goes on.
      std::fprintf(stderr, "crosscheck fuzz: not reduced: %s: %s\n",
                   s.str().c_str(), r.error().message().c_str());
      continue;
    }
    CC_TRY(store.saveReduced(s, r->reduced));
  }
  return Error();
}

namespace {
// The reduced case a worker's triage reply holds, or why there is none.
Expected<FindingRecord> triageReply(const WorkerPool::Event &ev) {
  if (ev.kind != WorkerPool::Event::Reply)
    return makeError(std::string(ev.kind == WorkerPool::Event::TimedOut
                                     ? "the worker stopped answering"
                                     : "the worker died") +
                     ": " + ev.detail());
  return decodeTriage(ev.reply);
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
        mayReplay(f.record, t->options) &&
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
  pool.submit(worker, encodeRequest(TriageRequest{seen.at(sig).record}),
              options.triageSeconds + 3 * options.caseLimits.timeoutSeconds +
                  30);
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
  CC_TRY(store.saveReduced(s.record.finding.signature, *r));
  s.reduced = std::move(*r);
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
