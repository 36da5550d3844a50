// The reducer's oracle: re-runs candidates and compares their signature with
// the target, with a cache, a budget and forked parallel evaluation.
#include "reducers/Internal.h"

#include "backends/Registry.h"
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "oracles/Differential.h"
#include "oracles/Program.h"
#ifdef CC_HAVE_SMT
#include "oracles/Tv.h"
#endif
#include "process/Process.h"
#include "process/Wire.h"

#include <filesystem>

namespace cc::reduce {

bool sameFailure(const Signature &a, const Signature &b) {
  // A miscompile's stage is its bisected culprit (a program's), which a
  // candidate's run does not know.
  return a.kind == b.kind && a.detail == b.detail &&
         (a.stage == b.stage || a.kind == Kind::Miscompile);
}

Expected<std::optional<FindingRecord>>
programFinding(const TestCase &c, Backend &cut, bool smtReference) {
  ConsensusOptions o;
  o.limits = c.limits;
  o.smtReference = smtReference;
  auto r = std::move(judgeProgramSets({c}, {&cut}, o).front());
  if (!r)
    return r.error();
  if (r->skipped)
    return Error::failure(r->skipReason, ErrorCode::Unsupported);
  if (r->findings.empty())
    return std::optional<FindingRecord>();
  return std::optional<FindingRecord>(std::move(r->findings.front()));
}

Expected<FindingRecord> judgeLike(const TestCase &c, const Signature &target) {
  if (target.kind == Kind::RefDisagreement && c.program)
    return judgeCase(c, true);
  if (target.kind != Kind::TvIncorrect)
    return judgeCase(c);
#ifdef CC_HAVE_SMT
  for (FindingRecord &f : tvFindings(c, {}))
    if (sameFailure(f.finding.signature, target))
      return std::move(f);
  return Error::failure("translation validation does not prove " +
                            target.stage + " wrong on the case",
                        ErrorCode::NotReproduced);
#else
  return makeError("a tv-incorrect finding needs translation validation, "
                   "and this crosscheck was built without Z3");
#endif
}

CaseOracle::CaseOracle(Signature target, const ReduceOptions &options,
                       ReduceStats &stats)
    : target(std::move(target)), options(options), stats(stats),
      start(std::chrono::steady_clock::now()) {}

double CaseOracle::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

bool CaseOracle::spent() const {
  bool out = elapsed() >= options.budgetSeconds ||
             (options.maxCalls > 0 && stats.oracleCalls >= options.maxCalls);
  if (out)
    stats.budgetExhausted = true;
  return out;
}

Backend *CaseOracle::backendFor(const std::string &cut) {
  auto it = backends.find(cut);
  if (it == backends.end()) {
    auto b = makeBackend(cut);
    it = backends.emplace(cut, b ? std::move(*b) : nullptr).first;
  }
  return it->second.get();
}

namespace {
// What the compiler got wrong, as far as the numeric report says.
std::string fingerprint(const CaseResult &r) {
  if (!r.report)
    return "";
  std::string s;
  for (const OutputReport &o : r.report->outputs)
    s += std::to_string(o.mismatches) + "@" +
         std::to_string(o.first.flatIndex) + "=" +
         std::to_string(o.first.actual) + o.first.reason + ";";
  return s;
}
} // namespace

void CaseOracle::pinOutputs(const TestCase &c) {
  if (target.kind == Kind::TvIncorrect)
    return; // TV names the pass; there are no outputs to pin
  Backend *cut = backendFor(c.cut);
  ++stats.oracleCalls;
  cache.clear();
  if (c.program) { // the message names the first wrong element and value
    auto f =
        cut ? programFinding(c, *cut, smtTarget()) : makeError("no backend");
    pinned = f && *f ? (*f)->finding.message : "";
    return;
  }
  DifferentialOptions o;
  o.limits = c.limits;
  auto r = cut ? runDifferential(c.graph, c.inputs, *cut, o)
               : Expected<CaseResult>(makeError("no backend"));
  pinned = r ? fingerprint(*r) : "";
  cache.clear();
}

Outcome CaseOracle::judge(const TestCase &c) {
  if (target.kind == Kind::TvIncorrect)
    return judgeLike(c, target) ? Outcome::Same : Outcome::Other;
  Backend *cut = backendFor(c.cut);
  if (!cut)
    return Outcome::Invalid;
  if (c.program) {
    // A candidate with undefined behaviour proves nothing (the static gate
    // of the MLIR reducer misses reads of tensor.empty, zero loop steps).
    if (!smtTarget() && !programUndefined(c).empty())
      return Outcome::Invalid;
    auto f = programFinding(c, *cut, smtTarget());
    if (!f)
      return Outcome::Invalid;
    if (!*f)
      return Outcome::Clean;
    if (!sameFailure((*f)->finding.signature, target))
      return Outcome::Other;
    return pinned && (*f)->finding.message != *pinned ? Outcome::Other
                                                      : Outcome::Same;
  }
  DifferentialOptions o;
  o.limits = c.limits;
  auto r = runDifferential(c.graph, c.inputs, *cut, o);
  if (!r)
    return Outcome::Invalid;
  const std::optional<Finding> &f = r->verdict.finding();
  if (!f)
    return Outcome::Clean;
  if (!sameFailure(f->signature, target))
    return Outcome::Other;
  return pinned && fingerprint(*r) != *pinned ? Outcome::Other : Outcome::Same;
}

namespace {
uint64_t caseKey(const TestCase &c) {
  return std::hash<std::string>{}(jsonText(testCaseToJson(c)));
}

// Cheap checks that need no compiler: a valid graph whose reference run is
// defined.
bool plausible(const TestCase &c) {
  if (c.program) // programs are checked by the MLIR reducer's verifier
    return true;
  if (verify(c.graph) || c.inputs.size() != c.graph.inputs.size())
    return false;
  return bool(interpret(c.graph, c.inputs, Precision::F64));
}
} // namespace

// One forked child per candidate of `window`, all at once; each answers
// with its outcome. The compiler itself already runs in a further isolated
// worker, under the case's own limits.
void CaseOracle::judgeForked(const std::vector<TestCase> &cases,
                             const std::vector<size_t> &window,
                             std::vector<std::optional<Outcome>> &outcome) {
  std::vector<process::ChildMain> judges;
  for (size_t i : window)
    judges.push_back([&, i](int fd) {
      process::WireWriter w;
      w.u64(uint64_t(judge(cases[i])));
      return process::writeAll(fd, w.bytes()) ? 0 : 1;
    });
  process::ChildOptions co;
  co.ownProcessGroup = false;
  co.keepStderr = true;
  co.limits = RunLimits::timeOnly(1e9);
  auto results = process::runChildren(judges, co);
  for (size_t k = 0; k < window.size(); ++k) {
    size_t i = window[k];
    if (!results[k]) { // no child: judged here
      outcome[i] = judge(cases[i]);
      continue;
    }
    process::WireReader r(results[k]->out);
    auto o = Outcome(char(r.u64()));
    bool known = o == Outcome::Same || o == Outcome::Clean ||
                 o == Outcome::Other || o == Outcome::Invalid;
    outcome[i] = r.done() && known ? o : Outcome::Other;
  }
}

int CaseOracle::firstWith(const std::vector<TestCase> &cases, Outcome want) {
  size_t jobs = size_t(std::max(1, options.jobs));
  std::vector<std::optional<Outcome>> outcome(cases.size());
  std::vector<uint64_t> keys(cases.size());
  for (size_t i = 0; i < cases.size(); ++i)
    keys[i] = caseKey(cases[i]);
  size_t next = 0;
  while (next < cases.size()) {
    // The next window: up to `jobs` uncached cases; cached and implausible
    // ones are answered on the way.
    std::vector<size_t> window;
    size_t end = next;
    for (; end < cases.size() && window.size() < jobs; ++end) {
      auto hit = cache.find(keys[end]);
      if (hit != cache.end()) {
        ++stats.cacheHits;
        outcome[end] = hit->second;
        if (hit->second == want) {
          ++end;
          break;
        }
        continue;
      }
      if (!plausible(cases[end])) {
        ++stats.invalid;
        outcome[end] = cache[keys[end]] = Outcome::Invalid;
        continue;
      }
      window.push_back(end);
    }
    if (!window.empty() && spent()) {
      // Answers found on the way still count.
      for (size_t i = next; i < window.front(); ++i)
        if (outcome[i] == want)
          return int(i);
      return -1;
    }
    bool cut = false;
    if (options.maxCalls > 0 &&
        int64_t(window.size()) > options.maxCalls - stats.oracleCalls) {
      window.resize(size_t(options.maxCalls - stats.oracleCalls));
      cut = true;
    }
    if (window.size() == 1 || jobs == 1) {
      for (size_t i : window)
        outcome[i] = judge(cases[i]);
    } else {
      judgeForked(cases, window, outcome);
    }
    for (size_t i : window) {
      ++stats.oracleCalls;
      cache[keys[i]] = *outcome[i];
    }
    for (size_t i = next; i < end; ++i)
      if (outcome[i] == want)
        return int(i);
    if (cut)
      return -1;
    next = end;
  }
  return -1;
}

Error BestSoFar::update(const TestCase &c) {
  record.testCase = c;
  if (options.outDir.empty())
    return Error();
  CC_TRY(makeDirectory(options.outDir));
  if (c.program)
    CC_TRY(writeAtomically(options.outDir + "/program.mlir", c.program->mlir));
  else
    CC_TRY(
        writeAtomically(options.outDir + "/graph.json", printGraph(c.graph)));
  return writeAtomically(options.outDir + "/finding.json",
                         jsonText(findingToJson(record), 1) + "\n");
}

} // namespace cc::reduce
