// The campaign coordinator: hands case indices to the workers, records
// their outcomes as they arrive, replaces workers that die, and stops on
// the budget, the end of the stream or SIGINT/SIGTERM.
#include "harness/CampaignSteps.h"

#include "harness/CaseStream.h"

#include <algorithm>
#include <chrono>
#include <csignal>

namespace cc {

namespace {

volatile sig_atomic_t stopRequested = 0;
void onStopSignal(int) { stopRequested = 1; }

// How a campaign worker failed on a request: it hung, died, or answered
// with something that is not an answer.
struct WorkerFault {
  bool hang = false;
  std::string how;    // "worker killed by signal 11 (Segmentation fault)"
  std::string detail; // how, then its stderr tail
  static WorkerFault of(const WorkerPool::Event &ev) {
    if (ev.kind == WorkerPool::Event::Reply)
      return {false, "worker sent a malformed reply",
              "worker sent a malformed reply"};
    return {ev.kind == WorkerPool::Event::TimedOut, ev.how(), ev.detail()};
  }
};

// A worker died or hung on a case: that is a bug of crosscheck's own (every
// compiler run is isolated further down), recorded as a finding so that it
// is never lost.
CaseOutcome workerFailure(const CaseStream &stream, uint64_t index,
                          const WorkerFault &fault) {
  CaseOutcome o;
  o.index = index;
  FindingRecord f;
  bool hang = fault.hang;
  f.finding.signature = {hang ? Kind::Timeout : Kind::Crash,
                         "crosscheck-worker", "worker",
                         hang ? "hang" : fault.how};
  f.finding.message = std::string(hang ? "timeout" : "crash") +
                      ": the campaign worker " +
                      (hang ? "stopped answering" : "died") + " on case " +
                      std::to_string(index) + ": " + fault.detail;
  f.log = fault.detail;
  if (auto c = stream.at(index)) {
    f.testCase = std::move(*c);
    o.graphName = caseName(f.testCase);
  }
  o.findings.push_back(std::move(f));
  return o;
}

// The outcomes a worker's reply brings, in the order of the range; none
// when it is not a reply or is malformed.
std::optional<std::vector<CaseOutcome>>
repliedOutcomes(const CasesRequest &range, const WorkerPool::Event &ev) {
  if (ev.kind != WorkerPool::Event::Reply)
    return std::nullopt;
  auto outcomes = decodeOutcomes(ev.reply);
  if (!outcomes || outcomes->size() != range.count)
    return std::nullopt;
  for (size_t k = 0; k < outcomes->size(); ++k)
    if ((*outcomes)[k].index != range.first + k)
      return std::nullopt;
  return std::move(*outcomes);
}
} // namespace

StopSignals::StopSignals() {
  stopRequested = 0;
  struct sigaction sa{};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &oldInt);
  sigaction(SIGTERM, &sa, &oldTerm);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);
}

bool StopSignals::requested() { return stopRequested; }

Coordinator::Coordinator(const CampaignOptions &options,
                         const CaseStream &stream, size_t compilers,
                         Store &store, WorkerPool &pool, Triage &triage,
                         std::unordered_set<uint64_t> done)
    : options(options), stream(stream), store(store), pool(pool),
      triage(triage), done(std::move(done)), inFlight(size_t(options.jobs)),
      next(options.shardIndex) {
  // A slow compiler must not be mistaken for a dead worker.
  workerTimeout =
      options.caseLimits.timeoutSeconds * double(compilers + 1) + 30 +
      (options.tv ? options.tvBudgetSeconds * double(options.cuts.size())
                  : 0.0);
  progress.budget = options.timeBudgetSeconds;
}

Error Coordinator::run() {
  for (bool exhausted = false;;) {
    bool stop =
        StopSignals::requested() || elapsed() >= options.timeBudgetSeconds;
    if (!stop)
      exhausted = !fillIdleWorkers(!exhausted);
    if ((stop || (exhausted && retry.empty() && !triage.waiting())) &&
        !anyBusy())
      return Error();
    CC_ASSIGN(events, pool.wait(0.25));
    for (const WorkerPool::Event &ev : events)
      CC_TRY(record(ev));
    CC_TRY(report());
  }
}

Error Coordinator::finish() {
  progress.elapsed = summary.seconds;
  countRootCauses();
  progress.casesPerSecond =
      summary.seconds > 0 ? double(summary.cases) / summary.seconds : 0;
  CC_TRY(store.recordStats(progress, options.shardIndex));
  if (options.onProgress)
    options.onProgress(progress);
  return Error();
}

double Coordinator::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool Coordinator::anyBusy() const {
  for (int w = 0; w < pool.size(); ++w)
    if (pool.busy(w))
      return true;
  return false;
}

std::optional<CasesRequest> Coordinator::nextRange() {
  if (!retry.empty()) {
    CasesRequest r{retry.back(), 1};
    retry.pop_back();
    return r;
  }
  for (;; next += options.shardCount) {
    CasesRequest r{next * options.inputSets, options.inputSets};
    if (options.maxCases)
      r.count = std::min(r.count, options.maxCases -
                                      std::min(options.maxCases, r.first));
    if (!r.count)
      return std::nullopt;
    while (r.count && done.count(r.first))
      ++r.first, --r.count;
    while (r.count && done.count(r.first + r.count - 1))
      --r.count;
    if (r.count) {
      next += options.shardCount;
      return r;
    }
  }
}

bool Coordinator::fillIdleWorkers(bool casesLeft) {
  for (int w = 0; w < pool.size(); ++w) {
    if (pool.busy(w))
      continue;
    if (triage.waiting()) {
      triage.startOn(pool, w);
      continue;
    }
    // Cases to retry alone come even after the stream ran out.
    std::optional<CasesRequest> r =
        casesLeft || !retry.empty() ? nextRange() : std::nullopt;
    if (!r)
      return false;
    inFlight[size_t(w)] = *r;
    pool.submit(w, encodeRequest(*r), workerTimeout * double(r->count));
  }
  return casesLeft;
}

void Coordinator::countRootCauses() {
  progress.signatures = triage.signatures();
  progress.rootCauses = triage.rootCauses();
}

Error Coordinator::record(const WorkerPool::Event &ev) {
  if (triage.busyOn(ev.worker))
    return triage.finish(ev);
  CasesRequest range = inFlight[size_t(ev.worker)];
  inFlight[size_t(ev.worker)] = {};
  if (auto outcomes = repliedOutcomes(range, ev)) {
    for (const CaseOutcome &o : *outcomes)
      CC_TRY(recordOutcome(o));
    return Error();
  }
  // The worker failed: on its first case, which records the failure; the
  // others run again alone, so that each failure names its case.
  for (uint64_t i = range.first + range.count; i-- > range.first + 1;)
    retry.push_back(i);
  return recordOutcome(workerFailure(stream, range.first, WorkerFault::of(ev)));
}

Error Coordinator::recordOutcome(const CaseOutcome &outcome) {
  if (done.count(outcome.index))
    return Error();
  CC_TRY(store.record(outcome, options.shardIndex));
  done.insert(outcome.index);
  ++summary.cases;
  if (graphsSeen.insert(outcome.index / options.inputSets).second)
    ++summary.graphs;
  summary.skipped += outcome.skipped;
  progress.findings += !outcome.findings.empty();
  for (const FindingRecord &f : outcome.findings)
    triage.noteFinding(f);
  return Error();
}

Error Coordinator::report() {
  double t = elapsed();
  progress.cases = summary.cases;
  progress.elapsed = t;
  progress.casesPerSecond = t > 0 ? double(summary.cases) / t : 0;
  bool show = options.onProgress && t - lastProgress >= 1;
  if (!show && t - lastStats < 10)
    return Error();
  countRootCauses();
  if (show) {
    options.onProgress(progress);
    lastProgress = t;
  }
  if (t - lastStats < 10)
    return Error();
  lastStats = t;
  return store.recordStats(progress, options.shardIndex);
}

} // namespace cc
