// The campaign coordinator: hands case indices to the workers, records
// their outcomes, replaces workers that die, and writes the CI outputs.
#include "harness/Campaign.h"

#include "backends/Registry.h"
#include "core/Json.h"
#include "harness/CaseStream.h"
#ifdef CC_HAVE_SMT
#include "oracles/Tv.h"
#endif
#include "harness/CampaignSteps.h"
#include "harness/Store.h"
#include "harness/Workers.h"
#include "oracles/Consensus.h"
#include "oracles/Program.h"
#include "reducers/Reduce.h"
#include "reports/CiOutputs.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <set>
#include <unordered_set>

namespace cc {

using nlohmann::json;

namespace {

// --ref smt: programs are also judged against their encoding's value
// (oracles/Program.h); it is no backend, so no graph runs on it.
constexpr const char *kSmtReference = "smt";
bool usesSmtReference(const CampaignOptions &options) {
  return std::find(options.refs.begin(), options.refs.end(), kSmtReference) !=
         options.refs.end();
}

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t stopRequested = 0;
void onStopSignal(int) { stopRequested = 1; }

// Counts the case's ops by (op, dtype).
void countOps(const Graph &g, CaseOutcome &o) {
  for (const Node &n : g.nodes) {
    if (n.op == "const")
      continue;
    ++o.ops;
    DType d = n.operands.empty() ? g.typeOf(n.results.at(0)).dtype
                                 : g.typeOf(n.operands[0]).dtype;
    o.coverage[{n.op, std::string(dtypeName(d))}]++;
  }
}

// Counts a program's ops by name, as printed (generators/Program.h), under
// the dtype "mlir".
void countOps(const MlirProgram &p, CaseOutcome &o) {
  for (const auto &[name, n] : countProgramOps(p.mlir)) {
    o.ops += n;
    o.coverage[{name, "mlir"}] += n;
  }
}

// fuzz --tv: every pass of each in-process compiler, validated on the
// case's graph; a pass proved wrong is a finding of `o`.
void validatePasses(const TestCase &c, const CampaignOptions &options,
                    CaseOutcome &o) {
#ifdef CC_HAVE_SMT
  TvCaseOptions tv{options.tvPerRewrite, options.tvTimeoutMs,
                   options.tvBudgetSeconds};
  for (const std::string &spec : options.cuts) {
    TestCase tc = c;
    tc.cut = spec;
    for (FindingRecord &f : tvFindings(tc, tv, &o.passCoverage, &o.times["tv"]))
      o.findings.push_back(std::move(f));
  }
#else
  (void)c, (void)options, (void)o; // checkOptions refuses --tv
#endif
}

// The outcomes of cases first .. first+count-1, one graph on as many input
// sets (CaseStream), computed in a worker: each compiler compiles the graph
// once. The compilers' coverage and translation validation are the graph's,
// recorded with its first case.
std::vector<CaseOutcome> runCases(const CaseStream &stream, uint64_t first,
                                  uint64_t count,
                                  const std::vector<Backend *> &cuts,
                                  const std::vector<Backend *> &refs,
                                  const CampaignOptions &options) {
  auto start = Clock::now();
  std::vector<CaseOutcome> outcomes(count);
  std::vector<TestCase> cases;
  std::vector<CaseOutcome *> judged; // the outcome of each case in `cases`
  for (uint64_t k = 0; k < count; ++k) {
    CaseOutcome &o = outcomes[k];
    o.index = first + k;
    auto c = stream.at(o.index);
    if (!c) {
      o.skipped = true;
      o.skipReason = c.error().message();
      continue;
    }
    if (c->program) {
      o.graphName = "program_" + std::to_string(o.index / options.inputSets);
      countOps(*c->program, o);
    } else {
      o.graphName = c->graph.name;
      countOps(c->graph, o);
    }
    cases.push_back(std::move(*c));
    judged.push_back(&o);
  }
  if (cases.empty())
    return outcomes;
  ConsensusOptions co;
  co.smtReference = usesSmtReference(options);
  co.timeoutSeconds = options.caseTimeoutSeconds;
  co.memoryLimitBytes = options.memoryLimitBytes;
  CaseOutcome &head = *judged.front();
  // The compilers' pass and pattern coverage (backends that observe it).
  std::vector<std::unique_ptr<CoverageTap>> taps;
  std::vector<Backend *> tapped;
  for (Backend *b : cuts)
    tapped.push_back(
        taps.emplace_back(std::make_unique<CoverageTap>(*b, head.passCoverage))
            .get());
  auto results = cases.front().program
                     ? judgeProgramSets(cases, tapped, co)
                     : judgeConsensusSets(cases, tapped, refs, co);
  for (size_t j = 0; j < cases.size(); ++j) {
    CaseOutcome &o = *judged[j];
    if (!results[j]) {
      // Not a compiler's fault: crosscheck could not judge the case.
      o.skipped = true;
      o.skipReason = results[j].error().message();
      continue;
    }
    o.skipped = results[j]->skipped;
    o.skipReason = results[j]->skipReason;
    o.findings = std::move(results[j]->findings);
    o.times = std::move(results[j]->times);
  }
  if (options.tv && !head.skipped)
    validatePasses(cases.front(), options, head);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (CaseOutcome &o : outcomes)
    o.seconds = seconds / double(count);
  return outcomes;
}

// A worker died or hung on a case: that is a bug of crosscheck's own (every
// compiler run is isolated further down), recorded as a finding so that it
// is never lost.
CaseOutcome workerFailure(const CaseStream &stream, uint64_t index,
                          const WorkerPool::Event &ev) {
  CaseOutcome o;
  o.index = index;
  FindingRecord f;
  bool hang = ev.kind == WorkerPool::Event::TimedOut;
  std::string sig = ev.detail.substr(0, ev.detail.find(';'));
  f.finding.signature = {hang ? Kind::Timeout : Kind::Crash,
                         "crosscheck-worker", "worker", hang ? "hang" : sig};
  f.finding.message = std::string(hang ? "timeout" : "crash") +
                      ": the campaign worker " +
                      (hang ? "stopped answering" : "died") + " on case " +
                      std::to_string(index) + ": " + ev.detail;
  f.log = ev.detail;
  if (auto c = stream.at(index)) {
    f.testCase = std::move(*c);
    o.graphName = caseName(f.testCase);
  }
  o.findings.push_back(std::move(f));
  return o;
}

std::string fileName(const FindingRecord &f, size_t n) {
  std::string name = std::to_string(n) + "-" +
                     std::string(kindName(f.finding.signature.kind)) + "-" +
                     signatureFingerprint(f.finding.signature);
  return "findings/" + name + ".json";
}

Error writeAtomically(const std::string &path, const std::string &text) {
  std::string tmp = path + ".tmp";
  CC_TRY(writeFile(tmp, text));
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return ec ? makeError("cannot write '" + path + "': " + ec.message())
            : Error();
}

// One root cause of the summary: what it is, then each signature it
// covers, new or known, with its reproducer.
std::string rootCauseText(const CiRun &run, const CiRootCause &c, size_t n,
                          const CompilerLegend &legend) {
  std::string text;
  if (c.knownBug)
    text += "known bug " + c.knownBug->name + ": " + c.knownBug->title +
            "\n  " +
            (c.knownBug->upstream.empty()
                 ? c.knownBug->status
                 : c.knownBug->upstream + " (" + c.knownBug->status + ")");
  else
    text +=
        "root cause " + std::to_string(n) + (c.known ? " (known)" : " (new)");
  if (!c.culprit.empty())
    text += (c.knownBug ? "\n  culprit: " : ": culprit ") + c.culprit;
  text += "\n";
  for (size_t i : c.findings) {
    const CiFinding &f = run.findings[i];
    text +=
        std::string(f.known ? "  known " : "  NEW   ") +
        std::to_string(f.count) + "x " +
        legend.shorten(f.record.finding.signature.str()) + "\n        " +
        legend.shorten(f.record.finding.message).substr(0, 300) + "\n        " +
        f.file +
        (f.reducedFile.empty()
             ? ""
             : std::string("\n        reduced ") +
                   (fullyReduced(*f.reduced) ? "" : "(triage) ") + "to " +
                   std::to_string(f.reducedOps) + " ops: " + f.reducedFile) +
        "\n";
  }
  return text;
}

std::string summaryText(const CiRun &run, const CampaignSummary &s) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%llu cases (%llu skipped) in %.1f s, %.2f cases/s, %llu "
                "graphs, %.2f graphs/s; %llu cases in the store\n",
                (unsigned long long)s.cases, (unsigned long long)s.skipped,
                s.seconds, s.seconds > 0 ? double(s.cases) / s.seconds : 0.0,
                (unsigned long long)s.graphs,
                s.seconds > 0 ? double(s.graphs) / s.seconds : 0.0,
                (unsigned long long)s.totalCases);
  std::string text = line;
  if (!s.tvChecks.empty()) {
    int64_t all = 0;
    std::string parts;
    for (const auto &[verdict, n] : s.tvChecks) {
      all += n;
      parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + verdict;
    }
    text += "translation validation: " + std::to_string(all) +
            " pass checks (" + parts + ")\n";
  }
  size_t fresh = s.newSignatures();
  text += std::to_string(run.findings.size()) + " distinct findings, " +
          std::to_string(fresh) + " new, " +
          std::to_string(run.findings.size() - fresh) + " known\n";
  text += std::to_string(s.rootCauses) + " root causes, " +
          std::to_string(s.newRootCauses) + " new, " +
          std::to_string(s.rootCauses - s.newRootCauses) + " known\n";
  std::vector<Signature> signatures;
  for (const CiFinding &f : run.findings)
    signatures.push_back(f.record.finding.signature);
  CompilerLegend legend(signatures);
  if (!legend.empty())
    text += "compilers:\n" + legend.lines("  ");
  // New root causes first: they are what a nightly run is read for.
  for (bool known : {false, true})
    for (size_t i = 0; i < run.rootCauses.size(); ++i)
      if (run.rootCauses[i].known == known)
        text += rootCauseText(run, run.rootCauses[i], i + 1, legend);
  return text;
}
} // namespace

Expected<std::unique_ptr<Store>>
openCampaignStore(const CampaignOptions &options, const json &identity) {
  auto store = options.resume ? Store::resume(options.outDir, identity)
                              : Store::create(options.outDir, identity);
  if (!store || options.baseline.empty())
    return store;
  CC_ASSIGN(known, loadBaseline(options.baseline));
  (*store)->setKnown(std::move(known));
  return store;
}

Error reduceNewFindings(Store &store, const CampaignOptions &options) {
  CC_ASSIGN(all, store.findings());
  CC_ASSIGN(known, loadKnownBugsIfAny(options.knownBugs));
  for (Store::Stored &f : all) {
    const Signature &s = f.summary.signature;
    if (f.summary.known || !wantsReduction(f.record, false, known) ||
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
    CC_TRY(store.saveReduced(s, r->reduced, r->stats.opsAfter));
  }
  return Error();
}

size_t CampaignSummary::newSignatures() const {
  size_t n = 0;
  for (const SignatureSummary &s : signatures)
    n += !s.known;
  return n;
}

Expected<std::vector<KnownBug>> loadKnownBugsIfAny(const std::string &path) {
  if (path.empty())
    return std::vector<KnownBug>{};
  return loadKnownBugs(path);
}

Expected<CampaignSummary> writeOutputs(Store &store, const std::string &dir,
                                       CampaignSummary summary,
                                       const std::string &knownBugs) {
  CC_ASSIGN(known, loadKnownBugsIfAny(knownBugs));
  CC_ASSIGN(all, store.findings());
  CC_ASSIGN(total, store.caseCount());
  summary.totalCases = total;
  CC_ASSIGN(passes, store.passCoverage());
  for (const Store::PassCoverage &p : passes)
    if (p.kind.rfind("tv:", 0) == 0)
      summary.tvChecks[p.kind.substr(3)] += p.count;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/findings", ec);
  if (ec)
    return makeError("cannot create '" + dir + "/findings': " + ec.message());
  CiRun run{"crosscheck fuzz", total, summary.seconds, {}, {}};
  summary.signatures.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    Store::Stored &f = all[i];
    std::string file = fileName(f.record, i + 1);
    CC_TRY(writeAtomically(dir + "/" + file,
                           findingToJson(f.record).dump(1) + "\n"));
    CiFinding ci{f.record, f.summary.count, f.summary.known, file, "",
                 -1,       f.reduced};
    if (f.reduced) {
      ci.reducedFile = file.substr(0, file.size() - 5) + ".reduced.json";
      ci.reducedOps = f.summary.reducedOps;
      CC_TRY(writeAtomically(dir + "/" + ci.reducedFile,
                             findingToJson(*f.reduced).dump(1) + "\n"));
    }
    run.findings.push_back(std::move(ci));
    summary.signatures.push_back(f.summary);
  }
  groupFindings(run, known);
  for (size_t i = 0; i < run.findings.size(); ++i)
    summary.signatures[i].known = run.findings[i].known;
  summary.rootCauses = run.rootCauses.size();
  summary.newRootCauses = 0;
  for (const CiRootCause &c : run.rootCauses)
    summary.newRootCauses += !c.known;
  CC_TRY(writeAtomically(dir + "/junit.xml", junitXml(run)));
  CC_TRY(writeAtomically(dir + "/findings.sarif", sarifJson(run)));
  CC_TRY(writeAtomically(dir + "/findings.json", findingsJson(run)));
  CC_TRY(writeAtomically(dir + "/summary.txt", summaryText(run, summary)));
  return summary;
}

namespace {

Error checkOptions(const CampaignOptions &options) {
  if (options.cuts.empty() && options.cutBackends.empty())
    return makeError(
        "a campaign needs at least one compiler under test (--cut)");
  if (options.jobs < 1)
    return makeError("--jobs must be at least 1");
  if (options.inputSets < 1)
    return makeError("--input-sets must be at least 1");
  if (options.shardCount < 1 || options.shardIndex >= options.shardCount)
    return makeError("bad shard " + std::to_string(options.shardIndex) + "/" +
                     std::to_string(options.shardCount));
  if (options.refs.empty() || options.refs.front() != "ref")
    return makeError("the first reference must be 'ref' (the interpreter)");
#ifndef CC_HAVE_SMT
  if (options.tv || usesSmtReference(options))
    return makeError("--tv and --ref smt need Z3: this crosscheck was built "
                     "without it");
#endif
  if (usesSmtReference(options) &&
      options.generator == CampaignOptions::Generator::Graph)
    return makeError("--ref smt judges mid-level programs: use it with "
                     "--generator mlir or mixed");
  if (options.tv && options.tvBudgetSeconds <= 0)
    return makeError("--tv-budget must be positive");
  if (auto k = loadKnownBugsIfAny(options.knownBugs); !k)
    return k.error();
  return Error();
}

// Backends are made before the workers fork: a bad spec is an error before
// anything runs, and the workers inherit them ready.
struct CampaignBackends {
  std::vector<std::unique_ptr<Backend>> owned;
  std::vector<Backend *> cuts, refs;
};

Expected<CampaignBackends> makeBackends(const CampaignOptions &options) {
  CampaignBackends r;
  auto add = [&](const std::string &spec, std::vector<Backend *> &to) -> Error {
    CC_ASSIGN(b, makeBackend(spec));
    to.push_back(b.get());
    r.owned.push_back(std::move(b));
    return Error();
  };
  for (const std::string &spec : options.cuts)
    CC_TRY(add(spec, r.cuts));
  for (const std::shared_ptr<Backend> &b : options.cutBackends)
    r.cuts.push_back(b.get());
  for (size_t i = 1; i < options.refs.size(); ++i)
    if (options.refs[i] != kSmtReference)
      CC_TRY(add(options.refs[i], r.refs));
  for (const std::shared_ptr<Backend> &b : options.refBackends)
    r.refs.push_back(b.get());
  return r;
}

// The cases a worker runs for one request: a graph's input sets, or a
// single case (retried alone after its worker failed on the graph).
struct CaseRange {
  uint64_t first = 0, count = 0;
  std::string request() const {
    return std::to_string(first) + " " + std::to_string(count);
  }
};

// The outcomes a worker's reply brings, in the order of the range; none
// when it is not a reply or is malformed.
std::optional<std::vector<CaseOutcome>>
repliedOutcomes(const CaseRange &range, const WorkerPool::Event &ev) {
  if (ev.kind != WorkerPool::Event::Reply)
    return std::nullopt;
  json reply = json::parse(ev.reply, nullptr, false);
  if (!reply.is_array() || reply.size() != range.count)
    return std::nullopt;
  std::vector<CaseOutcome> outcomes;
  for (const json &j : reply) {
    auto o = outcomeFromJson(j);
    if (!o || o->index != range.first + outcomes.size())
      return std::nullopt;
    outcomes.push_back(std::move(*o));
  }
  return outcomes;
}

// SIGINT and SIGTERM ask the campaign to stop after the cases in flight;
// the previous handlers come back at the end.
class StopSignals {
public:
  StopSignals() {
    stopRequested = 0;
    struct sigaction sa{};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &oldInt);
    sigaction(SIGTERM, &sa, &oldTerm);
  }
  ~StopSignals() {
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
  }

private:
  struct sigaction oldInt{}, oldTerm{};
};

// The coordinator's loop: hands this shard's case indices to idle
// workers, records each outcome as it arrives, and reports progress.
class Coordinator {
public:
  Coordinator(const CampaignOptions &options, const CaseStream &stream,
              const CampaignBackends &backends, Store &store, WorkerPool &pool,
              Triage &triage, std::unordered_set<uint64_t> done)
      : options(options), stream(stream), store(store), pool(pool),
        triage(triage), done(std::move(done)), inFlight(size_t(options.jobs)),
        next(options.shardIndex) {
    // A slow compiler must not be mistaken for a dead worker.
    workerTimeout =
        options.caseTimeoutSeconds *
            double(backends.cuts.size() + backends.refs.size() + 1) +
        30 +
        (options.tv ? options.tvBudgetSeconds * double(options.cuts.size())
                    : 0.0);
    progress.budget = options.timeBudgetSeconds;
  }

  Error run() {
    for (bool exhausted = false;;) {
      bool stop = stopRequested || elapsed() >= options.timeBudgetSeconds;
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

  void stopClock() { summary.seconds = elapsed(); }

  // The last statistics, after the optional reduction.
  Error finish() {
    progress.elapsed = summary.seconds;
    countRootCauses();
    progress.casesPerSecond =
        summary.seconds > 0 ? double(summary.cases) / summary.seconds : 0;
    CC_TRY(store.recordStats(progress, options.shardIndex));
    if (options.onProgress)
      options.onProgress(progress);
    return Error();
  }

  CampaignSummary summary;

private:
  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  bool anyBusy() const {
    for (int w = 0; w < pool.size(); ++w)
      if (pool.busy(w))
        return true;
    return false;
  }
  // The next graph's cases not yet recorded (or a case to retry alone).
  std::optional<CaseRange> nextRange() {
    if (!retry.empty()) {
      CaseRange r{retry.back(), 1};
      retry.pop_back();
      return r;
    }
    for (;; next += options.shardCount) {
      CaseRange r{next * options.inputSets, options.inputSets};
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
  // New miscompiles waiting for triage go first. False when the shard has
  // no case left.
  bool fillIdleWorkers(bool casesLeft) {
    for (int w = 0; w < pool.size(); ++w) {
      if (pool.busy(w))
        continue;
      if (triage.waiting()) {
        triage.startOn(pool, w);
        continue;
      }
      // Cases to retry alone come even after the stream ran out.
      std::optional<CaseRange> r =
          casesLeft || !retry.empty() ? nextRange() : std::nullopt;
      if (!r)
        return false;
      inFlight[size_t(w)] = *r;
      pool.submit(w, r->request(), workerTimeout * double(r->count));
    }
    return casesLeft;
  }
  void countRootCauses() {
    progress.signatures = triage.signatures();
    progress.rootCauses = triage.rootCauses();
  }
  Error record(const WorkerPool::Event &ev) {
    if (triage.busyOn(ev.worker))
      return triage.finish(ev);
    CaseRange range = inFlight[size_t(ev.worker)];
    inFlight[size_t(ev.worker)] = {};
    if (auto outcomes = repliedOutcomes(range, ev)) {
      for (const CaseOutcome &o : *outcomes)
        CC_TRY(recordOutcome(o));
      return Error();
    }
    // The worker failed: on its first case, which records the failure; the
    // others run again alone, so that each failure names its case.
    WorkerPool::Event failed = ev;
    if (failed.kind == WorkerPool::Event::Reply) {
      failed.kind = WorkerPool::Event::Died;
      failed.detail = "worker sent a malformed reply";
    }
    for (uint64_t i = range.first + range.count; i-- > range.first + 1;)
      retry.push_back(i);
    return recordOutcome(workerFailure(stream, range.first, failed));
  }
  Error recordOutcome(const CaseOutcome &outcome) {
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
  Error report() {
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

  const CampaignOptions &options;
  const CaseStream &stream;
  Store &store;
  WorkerPool &pool;
  Triage &triage;
  std::unordered_set<uint64_t> done;
  std::vector<CaseRange> inFlight;
  std::vector<uint64_t> retry; // cases to run alone, last first
  std::unordered_set<uint64_t> graphsSeen;
  uint64_t next; // the next graph of this shard
  double workerTimeout = 0;
  CampaignProgress progress;
  Clock::time_point start = Clock::now();
  double lastProgress = 0, lastStats = 0;
};

} // namespace

Expected<CampaignSummary> runCampaign(const CampaignOptions &options) {
  CC_TRY(checkOptions(options));
  CC_ASSIGN(stream, CaseStream::make(options));
  CC_ASSIGN(backends, makeBackends(options));
  CC_ASSIGN(storeOwned, openCampaignStore(options, stream.identity()));
  Store &store = *storeOwned;
  CC_ASSIGN(done, store.recordedCases());

  CC_ASSIGN(triage, Triage::make(options, store, options.jobs));
  WorkerPool pool(options.jobs, [&](const std::string &request) {
    if (isTriageRequest(request))
      return serveTriage(request, options);
    uint64_t first = 0, count = 0;
    std::sscanf(request.c_str(), "%" SCNu64 " %" SCNu64, &first, &count);
    json reply = json::array();
    for (const CaseOutcome &o :
         runCases(stream, first, count, backends.cuts, backends.refs, options))
      reply.push_back(outcomeToJson(o));
    return reply.dump();
  });
  CC_TRY(pool.start());
  Coordinator coordinator(options, stream, backends, store, pool, *triage,
                          std::move(done));
  Error failure;
  {
    StopSignals signals;
    failure = coordinator.run();
    pool.stop();
  }
  CC_TRY(failure);
  coordinator.stopClock();
  if (options.reduce && !stopRequested)
    CC_TRY(reduceNewFindings(store, options));
  CC_TRY(coordinator.finish());
  return writeOutputs(store, options.outDir, coordinator.summary,
                      options.knownBugs);
}

Expected<CampaignSummary> mergeCampaigns(const std::vector<std::string> &dirs,
                                         const std::string &outDir,
                                         const std::string &baseline,
                                         const std::string &knownBugs) {
  if (auto k = loadKnownBugsIfAny(knownBugs); !k)
    return k.error();
  if (dirs.empty())
    return makeError("merge needs at least one campaign directory");
  std::vector<std::unique_ptr<Store>> inputs;
  json identity;
  for (const std::string &d : dirs) {
    CC_ASSIGN(s, Store::open(Store::dbPath(d)));
    CC_ASSIGN(id, s->identity());
    // Shards of one campaign differ only in their shard.
    id.erase("shard");
    if (identity.is_null())
      identity = id;
    else if (id != identity)
      return makeError("'" + d +
                       "' is a different campaign (its seed, compilers or "
                       "generator options differ) and cannot be merged");
    inputs.push_back(std::move(s));
  }
  identity["shard"] = "merged";
  CC_ASSIGN(out, Store::create(outDir, identity,
                               "merge writes a new campaign directory: "
                               "choose another -o"));
  if (!baseline.empty()) {
    CC_ASSIGN(known, loadBaseline(baseline));
    out->setKnown(std::move(known));
  }
  for (auto &in : inputs)
    CC_TRY(out->mergeFrom(*in));
  CampaignSummary summary;
  return writeOutputs(*out, outDir, summary, knownBugs);
}

} // namespace cc
