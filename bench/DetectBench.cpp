// detect_bench: the bug-finding benchmark on seeded bugs. For each mutant
// pass (tests/mutants) a fuzz campaign (harness/Campaign.h) runs against
// tosa-O0 with the mutant first,
//   mlir:pipeline=builtin.module(func.func(<mutant>,<rest of tosa-O0>))
// for a fixed budget, with one generator configuration for every mutant
// (no graph is picked per mutant). A finding counts for the mutant only if
// it breaks an output that plain tosa-O0 gets right on the same case
// (upstream bugs do not count), and timeouts never count (they measure the
// machine's load). Recorded per mutant: found, seconds from the campaign's
// start (workers included) to the first such finding, the oracle that
// reported it (its kind), and the ops of its case before and after
// reduction (reducers/Reduce.h). Prints one JSON object.
//
// A campaign stops at its first finding that counts (--full-budget runs it
// to its budget instead); a finding that does not count is remembered and
// the campaign resumes (--resume semantics: no case is run twice).
//
//   detect_bench [--mutants a,b,...] [--budget 60s] [--jobs 2] [--seed 1]
//                [--reduce-budget 30s] [--no-reduce] [--full-budget]
//                [--seed-corpus DIR]  (graphs that open each campaign's
//                                      stream, as `crosscheck fuzz` takes)
#include "backends/Registry.h"
#include "backends/mlir/MlirBackend.h"
#include "harness/Campaign.h"
#include "harness/Store.h"
#include "oracles/Differential.h"
#include "reducers/Reduce.h"
#include "tests/mutants/Mutants.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace cc;
using nlohmann::json;

namespace {

struct Options {
  std::vector<std::string> mutants; // empty: all
  double budget = 60;
  int jobs = 2;
  uint64_t seed = 1;
  double reduceBudget = 30;
  bool reduce = true;
  bool fullBudget = false;
  std::string seedCorpus; // graphs that open every campaign's stream
};

[[noreturn]] void fail(const std::string &message) {
  std::cerr << "detect_bench: " << message << "\n";
  std::exit(2);
}

// "60", "60s", "2m" -> seconds.
double parseSeconds(const std::string &flag, const std::string &text) {
  size_t used = 0;
  double v = -1;
  try {
    v = std::stod(text, &used);
  } catch (...) {
  }
  std::string unit = text.substr(used);
  double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : -1;
  if (v <= 0 || scale < 0)
    fail(flag + " expects a positive duration such as 60s or 2m, got '" + text +
         "'");
  return v * scale;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(a + " needs a value");
      return argv[++i];
    };
    if (a == "--mutants") {
      std::stringstream ss(value());
      for (std::string m; std::getline(ss, m, ',');)
        if (!m.empty())
          o.mutants.push_back(m);
    } else if (a == "--budget") {
      o.budget = parseSeconds(a, value());
    } else if (a == "--reduce-budget") {
      o.reduceBudget = parseSeconds(a, value());
    } else if (a == "--jobs") {
      o.jobs = std::atoi(value().c_str());
      if (o.jobs < 1)
        fail("--jobs expects a positive number");
    } else if (a == "--seed") {
      o.seed = std::strtoull(value().c_str(), nullptr, 10);
    } else if (a == "--no-reduce") {
      o.reduce = false;
    } else if (a == "--full-budget") {
      o.fullBudget = true;
    } else if (a == "--seed-corpus") {
      o.seedCorpus = value();
    } else if (a == "--help" || a == "-h") {
      std::cout
          << "usage: detect_bench [--mutants a,b,...] [--budget 60s] "
             "[--jobs 2] [--seed 1]\n"
             "                    [--reduce-budget 30s] [--no-reduce] "
             "[--full-budget] [--seed-corpus DIR]\n"
             "One fuzz campaign per mutant pass against tosa-O0; prints one "
             "JSON object.\n";
      std::exit(0);
    } else {
      fail("unknown flag '" + a + "' (see --help)");
    }
  }
  std::set<std::string> known;
  for (const MutantInfo &m : mutantPasses())
    known.insert(m.name);
  for (const std::string &m : o.mutants)
    if (!known.count(m))
      fail("unknown mutant '" + m + "'");
  if (o.mutants.empty())
    for (const MutantInfo &m : mutantPasses())
      o.mutants.push_back(m.name);
  return o;
}

std::string mutantCut(const std::string &mutant) {
  const std::string prefix = "builtin.module(";
  for (const NamedPipeline &p : namedPipelines())
    if (p.name == "tosa-O0" && p.pipeline.rfind(prefix, 0) == 0)
      return "mlir:pipeline=" + prefix + "func.func(" + mutant + ")," +
             p.pipeline.substr(prefix.size());
  fail("no tosa-O0 pipeline of the form builtin.module(...)");
}

// The generator configuration of every campaign: mixed graphs of 5-10 ops
// (casts, negate, add and sub drawn more often: chains of cheap
// elementwise ops and casts are where folds go wrong), each used as is or
// (in turn) in bf16, mixed precision or int8, with edge values and some
// NaN/Inf/denormal inputs.
const std::map<std::string, double> kWeights = {
    {"cast", 3}, {"negate", 2}, {"add", 2}, {"sub", 2}};

void configure(CampaignOptions &o) {
  o.gen.minOps = 5;
  o.gen.maxOps = 10;
  o.gen.weights = kWeights;
  o.precisions = {PrecisionKind::BF16, PrecisionKind::Mixed,
                  PrecisionKind::Int8};
  o.inputs.edgeRate = 0.15;
  o.inputs.specialRate = 0.05;
  o.caseLimits.timeoutSeconds = 20;
}

double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// When each signature was first recorded (unix seconds), from the store.
std::map<std::string, double> firstSeen(const std::string &dir) {
  std::map<std::string, double> seen;
  sqlite3 *db = nullptr;
  if (sqlite3_open_v2(Store::dbPath(dir).c_str(), &db, SQLITE_OPEN_READONLY,
                      nullptr) == SQLITE_OK) {
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT signature, first_seen FROM findings", -1,
                           &st, nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW)
        seen[reinterpret_cast<const char *>(sqlite3_column_text(st, 0))] =
            sqlite3_column_double(st, 1);
      sqlite3_finalize(st);
    }
  }
  sqlite3_close(db);
  return seen;
}

// What fails when the case runs on `cut`: the outputs the numeric oracle
// rejects, or "*" for a finding without outputs (crash, verifier, ...).
std::set<std::string> failures(const TestCase &c, const std::string &cut) {
  std::set<std::string> failed;
  auto backend = makeBackend(cut);
  if (!backend)
    return failed;
  DifferentialOptions o;
  o.limits = c.limits;
  auto r = runDifferential(c.graph, c.inputs, **backend, o);
  if (!r)
    return failed;
  if (r->report)
    for (const OutputReport &out : r->report->outputs)
      if (!out.ok)
        failed.insert(out.name);
  if (failed.empty() && r->verdict.finding())
    failed.insert("*");
  return failed;
}

// The campaign's coordinator stops (as on Ctrl-C) when this process gets
// SIGINT; outside a campaign the signal is ignored.
void ignoreSignal(int) {}

// The signatures a mutant's campaign found, judged once each: the first
// found by the mutant (not an upstream bug, a timeout or a reference
// disagreement), and when.
struct Detection {
  std::set<std::string> judged;
  std::optional<FindingRecord> first;
  double firstSeconds = -1;
  int upstream = 0, timeouts = 0;
  std::vector<std::string> kinds;

  // The campaign in `dir` ran from `start` (unix seconds) for `took`
  // seconds, after `spent` seconds of earlier runs.
  Error scan(const std::string &dir, double spent, double start, double took) {
    CC_ASSIGN(store, Store::open(Store::dbPath(dir)));
    CC_ASSIGN(stored, store->findings());
    std::map<std::string, double> seen = firstSeen(dir);
    for (const Store::Stored &f : stored) {
      std::string sig = f.record.finding.signature.str();
      if (!judged.insert(sig).second)
        continue;
      // A case that ran out of time says more about the machine's load
      // than about the mutant (no mutant makes the compiler loop); a
      // disagreement of the references is not about the compiler at all.
      Kind kind = f.record.finding.signature.kind;
      if (kind == Kind::Timeout || kind == Kind::RefDisagreement) {
        ++timeouts;
        continue;
      }
      if (!byMutant(f.record.testCase)) {
        ++upstream;
        continue;
      }
      kinds.push_back(std::string(kindName(kind)));
      double at = seen.count(sig) ? spent + seen[sig] - start : spent + took;
      if (!first || at < firstSeconds) {
        first = f.record;
        firstSeconds = std::max(0.0, at);
      }
    }
    return Error();
  }

  // Something fails that plain tosa-O0 gets right on the same case (an
  // upstream bug may break another output).
  static bool byMutant(const TestCase &c) {
    std::set<std::string> plain = failures(c, "mlir:tosa-O0");
    for (const std::string &out : failures(c, c.cut))
      if (!plain.count(out) && !plain.count("*"))
        return true;
    return false;
  }
};

// What the first finding is, and how far it reduces.
void describeFirst(json &r, const Detection &d, const Options &opt) {
  const FindingRecord &first = *d.first;
  r["found"] = true;
  r["seconds_to_detect"] = d.firstSeconds;
  r["oracle"] = std::string(kindName(first.finding.signature.kind));
  // The signature without its backend (the mutated pipeline).
  const Signature &sig = first.finding.signature;
  r["signature"] =
      std::string(kindName(sig.kind)) + "|" + sig.stage + "|" + sig.detail;
  r["oracles"] = d.kinds;
  r["ops_before"] = countOps(first.testCase.graph);
  if (!opt.reduce)
    return;
  ReduceOptions ro;
  ro.budgetSeconds = opt.reduceBudget;
  ro.reducePipeline = false;
  auto red = reduceFinding(first, ro);
  if (red) {
    r["reduced_ops"] = red->stats.opsAfter;
    r["reduce_oracle_calls"] = red->stats.oracleCalls;
    r["reduce_seconds"] = red->stats.seconds;
  } else {
    r["reduce_error"] = red.error().message();
  }
}

json runMutant(const Options &opt, const MutantInfo &mutant) {
  std::string dir =
      (std::filesystem::temp_directory_path() /
       ("cc-detect-" + std::to_string(getpid()) + "-" + mutant.name))
          .string();
  std::filesystem::remove_all(dir);
  CampaignOptions o;
  configure(o);
  o.cuts = {mutantCut(mutant.name)};
  o.outDir = dir;
  o.jobs = opt.jobs;
  o.seed = opt.seed;
  o.seedCorpus = opt.seedCorpus;
  size_t knownSignatures = 0;
  o.onProgress = [&](const CampaignProgress &p) {
    if (!opt.fullBudget && p.signatures > knownSignatures)
      std::raise(SIGINT);
  };

  json r = {{"mutant", mutant.name},
            {"description", mutant.description},
            {"found", false}};
  Detection d;
  double spent = 0;
  uint64_t cases = 0, skipped = 0;
  while (spent < opt.budget - 0.5) {
    o.timeBudgetSeconds = opt.budget - spent;
    double start = unixNow();
    auto s = runCampaign(o);
    double took = unixNow() - start;
    if (!s) {
      r["error"] = s.error().message();
      break;
    }
    cases += s->cases;
    skipped += s->skipped;
    if (Error e = d.scan(dir, spent, start, took)) {
      r["error"] = e.message();
      break;
    }
    spent += took;
    knownSignatures = d.judged.size();
    if (d.first && !opt.fullBudget)
      break;
    if (s->cases == 0 || opt.fullBudget)
      break; // the budget is spent (or no case runs at all)
    o.resume = true;
  }
  r["cases"] = cases;
  r["skipped"] = skipped;
  r["campaign_seconds"] = spent;
  r["upstream_signatures"] = d.upstream;
  r["timeout_signatures"] = d.timeouts; // and reference disagreements
  if (d.first)
    describeFirst(r, d, opt);
  std::filesystem::remove_all(dir);
  return r;
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  // An even count averages the two middle values.
  return v.size() % 2 ? *mid : (*mid + *std::max_element(v.begin(), mid)) / 2;
}

} // namespace

int main(int argc, char **argv) {
  registerMutantPasses();
  Options opt = parseArgs(argc, argv);
  struct sigaction sa{};
  sa.sa_handler = ignoreSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);

  json results = json::array();
  std::vector<double> times, reducedOps;
  int found = 0;
  for (const std::string &name : opt.mutants) {
    const MutantInfo &m =
        *std::find_if(mutantPasses().begin(), mutantPasses().end(),
                      [&](const MutantInfo &i) { return i.name == name; });
    std::cerr << "detect_bench: " << name << " ..." << std::flush;
    json r = runMutant(opt, m);
    if (r["found"].get<bool>()) {
      ++found;
      times.push_back(r["seconds_to_detect"].get<double>());
      if (r.contains("reduced_ops"))
        reducedOps.push_back(r["reduced_ops"].get<double>());
      std::cerr << " found in " << r["seconds_to_detect"].get<double>()
                << " s\n";
    } else {
      std::cerr << " not found\n";
    }
    results.push_back(std::move(r));
  }
  size_t n = opt.mutants.size();
  json summary = {
      {"mutants", n},
      {"detected", found},
      {"detection_rate", n ? double(found) / double(n) : 0.0},
      {"median_seconds_to_detect", median(times)},
      {"max_seconds_to_detect",
       times.empty() ? 0.0 : *std::max_element(times.begin(), times.end())},
      {"median_reduced_ops", median(reducedOps)}};
  json out = {{"benchmark", "detect"},
              {"budget_seconds", opt.budget},
              {"jobs", opt.jobs},
              {"seed", opt.seed},
              {"stop_at_first_finding", !opt.fullBudget},
              {"seed_corpus", !opt.seedCorpus.empty()},
              {"generator",
               {{"ops", "5..10"},
                {"weights", kWeights},
                {"precisions", "as is, bf16, mixed, int8 in turn"},
                {"edge_rate", 0.15},
                {"special_rate", 0.05}}},
              {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
              {"summary", summary},
              {"results", results}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
