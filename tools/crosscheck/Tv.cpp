// crosscheck tv and crosscheck verify-pass: translation validation with Z3.
#include "core/File.h"
#include "core/Json.h"
#include "core/Quote.h"
#include "smt/Validate.h"
#include "tools/crosscheck/Commands.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace cc::cli {

namespace {

const char *kVerdictEpilog =
    "Verdicts: correct (the target refines the source), incorrect (a "
    "counterexample,\nconfirmed by running both sides through the JIT), "
    "unknown (with the reason:\nunsupported op, uninterpreted semantics, "
    "spurious or unconfirmed counterexample),\ntimeout, and approximate "
    "(the target computes a math function by a formula\nwithin --ulp-bound "
    "of the source on seeded inputs, with no NaN for a number).\n"
    "Exit status (the worst verdict): 0 correct, 1 incorrect, 2 error (bad "
    "input\nor usage), 3 unknown, 4 timeout, 5 approximate.\n";

// tv's and verify-pass's options.
struct TvFlags : smt::TvOptions {
  bool json = false;
  // The whole run's budget (its child is killed past it): an hour, and
  // the address space every child of crosscheck gets.
  RunLimits budget{3600, RunLimits().memoryBytes};
  std::string pipeline; // verify-pass
  bool perRewrite = false;
};
using F = TvFlags;

// The flags of both commands.
const FlagTable<F> kCommonFlags = {
    {"--function", "", "NAME", "check only this function", text(&F::function)},
    {"--timeout-ms", "", "N", "solver timeout per query (default {})",
     count(&F::timeoutMs, 1)},
    {"--rlimit", "", "N",
     "Z3 resource limit per solver check: the same verdict however loaded "
     "the machine is (default: none)",
     count(&F::rlimit, 1)},
    {"--loop-bound", "", "N",
     "unroll scf loops whose trip count is not a constant this many times; "
     "a loop that may run longer makes a check unknown (default {})",
     count(&F::loopBound, 1)},
    {"--ulp-bound", "", "N",
     "a math function computed by a formula farther than N ulp from the "
     "source is incorrect, not approximate (default: no bound)",
     positive(&F::ulpBound)},
    {"--budget", "", "S",
     "wall-clock budget of the whole run: 90, 30s, 10m; the check running "
     "when it is spent and those after it are unknown (default {})",
     within(&F::budget, duration(&RunLimits::timeoutSeconds))},
    {"--memory-limit", "", "SIZE",
     "address space of the whole run: 4G, 512M; a check past it is unknown "
     "(default {})",
     within(&F::budget, memoryLimit(&RunLimits::memoryBytes))},
    {"--cache-dir", "", "DIR",
     "cache solver results on disk, keyed by a hash of the query",
     text(&F::cacheDir)},
    {"--no-confirm", "", "",
     "report counterexamples without replaying them (testing only)",
     off(&F::confirm)},
    {"--json", "", "", "print the result as JSON", on(&F::json)},
};

const Command<F> kTv{
    "tv",
    "crosscheck tv SRC.mlir TGT.mlir [flags]",
    {2, 2, "expects SRC.mlir and TGT.mlir"},
    "Checks with Z3 that every function of TGT refines its namesake in SRC\n"
    "(static shapes; dynamic dimensions are instantiated with small sizes).",
    kCommonFlags,
    kVerdictEpilog};

const Command<F> kVerifyPass{
    "verify-pass",
    "crosscheck verify-pass INPUT.mlir --pass-pipeline=PIPELINE [flags]",
    {1, 1, "expects one INPUT.mlir"},
    "Runs the pipeline and validates with Z3 every pass that changed a "
    "function\n(through MLIR's pass instrumentation).",
    concat(kCommonFlags,
           FlagTable<F>{
               {"--pass-pipeline", "", "PIPELINE",
                "the textual pass pipeline to run and validate",
                text(&F::pipeline)},
               {"--per-rewrite", "", "",
                "also validate every single rewrite (named by its pattern): "
                "canonicalize is stepped one rewrite at a time, other greedy "
                "pattern passes are watched one pattern application at a time",
                on(&F::perRewrite)},
               {"--load-mutants", "", "",
                "register crosscheck's deliberately wrong test passes",
                loadMutants<F>()},
           }),
    std::string(kVerdictEpilog) +
        "A pass that crashes is a finding (exit 1): the steps checked before "
        "it\nare printed, then CRASH: pass NAME crashed with signal N (OUT OF "
        "MEMORY: ...\nfor one that ran past --memory-limit).\n"};

void printJson(const char *key, const nlohmann::json &items,
               smt::TvVerdict worst) {
  std::cout << jsonText({{key, items}, {"verdict", smt::verdictName(worst)}}, 2)
            << "\n";
}

void printIndented(const std::string &text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    std::cout << "    " << terminalText(line) << "\n";
}

// One checked step: a line (with the IR of an incorrect one), or an entry
// of *json when it is given.
void printStep(const smt::StepCheck &s, nlohmann::json *json) {
  if (json) {
    json->push_back({{"pass", s.pass},
                     {"pattern", s.pattern},
                     {"function", s.function},
                     {"verdict", smt::verdictName(s.verdict)},
                     {"reason", s.reason},
                     {"seconds", s.seconds},
                     {"cached", s.cached},
                     {"before", s.before},
                     {"after", s.after},
                     {"counterexample", s.counterexample}});
    return;
  }
  // Names come from the input: shown escaped on the terminal.
  std::cout << terminalText(s.pass) << (s.pattern.empty() ? "" : " / ")
            << terminalText(s.pattern) << (s.function.empty() ? "" : " on @")
            << terminalText(s.function) << ": " << smt::verdictName(s.verdict);
  if (!s.reason.empty())
    std::cout << " (" << terminalText(s.reason) << ")";
  std::printf(" [%.3f s%s]\n", s.seconds, s.cached ? ", cached" : "");
  if (s.verdict == smt::TvVerdict::Approximate) {
    std::cout << "  largest difference:\n";
    printIndented(s.counterexample);
  }
  if (s.verdict == smt::TvVerdict::Incorrect) {
    std::cout << "  before:\n";
    printIndented(s.before);
    std::cout << "  after:\n";
    printIndented(s.after);
    std::cout << "  counterexample:\n";
    printIndented(s.counterexample);
  }
}

// A pass that crashed is a finding (exit 1); a crash outside any pass is
// crosscheck's own failure, reported as an error.
int reportCrash(const smt::BoundedCheck &r, bool json,
                const nlohmann::json &steps) {
  if (r.pass.empty())
    return fail("translation validation crashed (" + r.error +
                "); this is a bug of crosscheck");
  std::string line =
      "pass " + r.pass + (r.outOfMemory ? " " : " crashed with ") + r.error;
  // Running out of memory is not a crash: said as what it is.
  const char *verdict = r.outOfMemory ? "out-of-memory" : "crash";
  if (json)
    std::cout << jsonText({{"steps", steps},
                           {"verdict", verdict},
                           {"crash",
                            {{"pass", r.pass},
                             {"signal", r.error},
                             {"out_of_memory", r.outOfMemory}}}},
                          2)
              << "\n";
  else
    std::cout << (r.outOfMemory ? "OUT OF MEMORY: " : "CRASH: ") << line
              << "\n";
  return kExitFinding;
}

int tv(TvFlags &o, const Args &args) {
  auto src = readFile(args.positional[0]);
  if (!src)
    return fail(src.error());
  auto tgt = readFile(args.positional[1]);
  if (!tgt)
    return fail(tgt.error());
  o.sourceName = args.positional[0];
  o.targetName = args.positional[1];
  // In a forked child under the budget: no input can make tv run, grow
  // or crash without end.
  auto checks = smt::checkRefinementBounded(*src, *tgt, o, o.budget);
  if (!checks)
    return fail(checks.error());
  smt::TvVerdict worst = smt::TvVerdict::Correct;
  nlohmann::json j = nlohmann::json::array();
  for (const smt::FunctionCheck &c : *checks) {
    worst = smt::worstVerdict(worst, c.verdict);
    if (o.json) {
      j.push_back({{"function", c.function},
                   {"verdict", smt::verdictName(c.verdict)},
                   {"reason", c.reason},
                   {"counterexample", c.counterexample},
                   {"seconds", c.seconds}});
      continue;
    }
    std::cout << "@" << terminalText(c.function) << ": "
              << smt::verdictName(c.verdict);
    if (!c.reason.empty())
      std::cout << " (" << terminalText(c.reason) << ")";
    std::printf(" [%.3f s]\n", c.seconds);
    if (!c.counterexample.empty()) {
      std::cout << (c.verdict == smt::TvVerdict::Approximate
                        ? "  largest difference:\n"
                        : "  counterexample:\n");
      printIndented(c.counterexample);
    }
  }
  if (o.json)
    printJson("functions", j, worst);
  return smt::verdictExitCode(worst);
}

int verifyPass(TvFlags &o, const Args &args) {
  if (!args.has("--pass-pipeline"))
    return fail("verify-pass needs --pass-pipeline");
  auto input = readFile(args.positional[0]);
  if (!input)
    return fail(input.error());
  o.sourceName = args.positional[0];
  if (Error e = smt::checkPipelineInput(*input, o.pipeline, o))
    return fail(e);
  // In a forked child, so that a pass that crashes is a finding of this
  // run, not a crash of crosscheck.
  smt::BoundedCheck r =
      smt::verifyPipelineBounded(*input, o.pipeline, o, o.perRewrite,
                                 o.budget.timeoutSeconds, o.budget.memoryBytes);
  if (r.end == smt::BoundedCheck::End::Failed)
    return fail(r.error);
  smt::TvVerdict worst = smt::TvVerdict::Correct;
  nlohmann::json j = nlohmann::json::array();
  for (const smt::StepCheck &s : r.steps) {
    worst = smt::worstVerdict(worst, s.verdict);
    printStep(s, o.json ? &j : nullptr);
  }
  if (r.end == smt::BoundedCheck::End::Crashed)
    return reportCrash(r, o.json, j);
  if (r.end == smt::BoundedCheck::End::OutOfTime) {
    smt::StepCheck spent;
    spent.pass = r.pass.empty() ? "(the pipeline)" : r.pass;
    spent.reason = "budget: the budget of " +
                   showDuration(o.budget.timeoutSeconds) + " was spent" +
                   (r.pass.empty() ? "" : " in this pass or its check");
    worst = smt::worstVerdict(worst, spent.verdict);
    printStep(spent, o.json ? &j : nullptr);
  }
  if (o.json)
    printJson("steps", j, worst);
  else if (r.steps.empty())
    std::cout << "no pass changed a function\n";
  return smt::verdictExitCode(worst);
}

} // namespace

int tvCommand(const Argv &argv) { return parseAndRun(kTv, argv, tv); }

int verifyPassCommand(const Argv &argv) {
  return parseAndRun(kVerifyPass, argv, verifyPass);
}

} // namespace cc::cli
