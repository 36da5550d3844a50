// crosscheck tv and crosscheck verify-pass: translation validation with Z3.
#include "core/Json.h"
#include "smt/Validate.h"
#include "tests/mutants/Mutants.h"
#include "tools/crosscheck/Commands.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cmath>
#include <iostream>
#include <sstream>

namespace cc::cli {

namespace {

const char *kVerdictEpilog =
    "Verdicts: correct (the target refines the source), incorrect (a "
    "counterexample,\nconfirmed by running both sides through the JIT), "
    "unknown (with the reason:\nunsupported op, approximated semantics, "
    "spurious or unconfirmed counterexample)\nand timeout.\n"
    "Exit status (the worst verdict): 0 correct, 1 incorrect, 2 error (bad "
    "input\nor usage), 3 unknown, 4 timeout.\n";

std::vector<Flag> commonFlags() {
  return {
      {"--function", "", "NAME", "check only this function"},
      {"--timeout-ms", "", "N", "solver timeout per query (default 10000)"},
      {"--cache-dir", "", "DIR",
       "cache solver results on disk, keyed by a hash of the query"},
      {"--no-confirm", "", "",
       "report counterexamples without replaying them (testing only)"},
      {"--json", "", "", "print the result as JSON"},
  };
}

Expected<smt::TvOptions> tvOptions(const Args &args) {
  smt::TvOptions o;
  o.function = args.get("--function");
  if (args.has("--timeout-ms")) {
    CC_ASSIGN(ms, parseUnsigned("--timeout-ms", args.get("--timeout-ms")));
    if (ms == 0)
      return makeError("--timeout-ms must be positive");
    o.timeoutMs = unsigned(ms);
  }
  o.cacheDir = args.get("--cache-dir");
  o.confirm = !args.has("--no-confirm");
  return o;
}

void printJson(const char *key, const nlohmann::json &items,
               smt::TvVerdict worst) {
  std::cout << nlohmann::json{{key, items}, {"verdict", smt::verdictName(worst)}}
                   .dump(2)
            << "\n";
}

void printIndented(const std::string &text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    std::cout << "    " << line << "\n";
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
  std::printf("%s%s%s on @%s: %s", s.pass.c_str(),
              s.pattern.empty() ? "" : " / ", s.pattern.c_str(),
              s.function.c_str(), smt::verdictName(s.verdict));
  if (!s.reason.empty())
    std::printf(" (%s)", s.reason.c_str());
  std::printf(" [%.3f s%s]\n", s.seconds, s.cached ? ", cached" : "");
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
  std::string line = "pass " + r.pass + " crashed with " + r.error;
  if (json)
    std::cout << nlohmann::json{{"steps", steps},
                                {"verdict", "crash"},
                                {"crash", {{"pass", r.pass}, {"signal", r.error}}}}
                     .dump(2)
              << "\n";
  else
    std::cout << "CRASH: " << line << "\n";
  return kExitFinding;
}

} // namespace

int tvCommand(const Argv &argv) {
  Command cmd{"tv", "crosscheck tv SRC.mlir TGT.mlir [flags]",
              "Checks with Z3 that every function of TGT refines its "
              "namesake in SRC\n(static shapes; dynamic dimensions are "
              "instantiated with small sizes).",
              commonFlags(), kVerdictEpilog};
  auto args = parseArgs(cmd, argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(cmd), kExitPass;
  if (args->positional.size() != 2)
    return fail("tv expects SRC.mlir and TGT.mlir (see crosscheck tv --help)");
  auto opts = tvOptions(*args);
  if (!opts)
    return fail(opts.error());
  auto src = readFile(args->positional[0]);
  if (!src)
    return fail(src.error());
  auto tgt = readFile(args->positional[1]);
  if (!tgt)
    return fail(tgt.error());
  opts->sourceName = args->positional[0];
  opts->targetName = args->positional[1];
  auto checks = smt::checkRefinement(*src, *tgt, *opts);
  if (!checks)
    return fail(checks.error());
  smt::TvVerdict worst = smt::TvVerdict::Correct;
  nlohmann::json j = nlohmann::json::array();
  for (const smt::FunctionCheck &c : *checks) {
    worst = smt::worstVerdict(worst, c.verdict);
    if (args->has("--json")) {
      j.push_back({{"function", c.function},
                   {"verdict", smt::verdictName(c.verdict)},
                   {"reason", c.reason},
                   {"counterexample", c.counterexample},
                   {"seconds", c.seconds}});
      continue;
    }
    std::printf("@%s: %s", c.function.c_str(), smt::verdictName(c.verdict));
    if (!c.reason.empty())
      std::printf(" (%s)", c.reason.c_str());
    std::printf(" [%.3f s]\n", c.seconds);
    if (!c.counterexample.empty()) {
      std::cout << "  counterexample:\n";
      printIndented(c.counterexample);
    }
  }
  if (args->has("--json"))
    printJson("functions", j, worst);
  return smt::verdictExitCode(worst);
}

int verifyPassCommand(const Argv &argv) {
  std::vector<Flag> flags = commonFlags();
  flags.push_back({"--pass-pipeline", "", "PIPELINE",
                   "the textual pass pipeline to run and validate"});
  flags.push_back({"--per-rewrite", "", "",
                   "also validate every single rewrite (named by its pattern): "
                   "canonicalize is stepped one rewrite at a time, other "
                   "greedy pattern passes are watched one pattern application "
                   "at a time"});
  flags.push_back({"--load-mutants", "", "",
                   "register crosscheck's deliberately wrong test passes"});
  Command cmd{"verify-pass",
              "crosscheck verify-pass INPUT.mlir --pass-pipeline=PIPELINE "
              "[flags]",
              "Runs the pipeline and validates with Z3 every pass that "
              "changed a function\n(through MLIR's pass instrumentation).",
              flags,
              std::string(kVerdictEpilog) +
                  "A pass that crashes is a finding (exit 1): the steps "
                  "checked before it\nare printed, then CRASH: pass NAME "
                  "crashed with signal N.\n"};
  auto args = parseArgs(cmd, argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(cmd), kExitPass;
  if (args->positional.size() != 1)
    return fail("verify-pass expects one INPUT.mlir (see crosscheck "
                "verify-pass --help)");
  if (!args->has("--pass-pipeline"))
    return fail("verify-pass needs --pass-pipeline");
  auto opts = tvOptions(*args);
  if (!opts)
    return fail(opts.error());
  if (args->has("--load-mutants"))
    registerMutantPasses();
  auto input = readFile(args->positional[0]);
  if (!input)
    return fail(input.error());
  opts->sourceName = args->positional[0];
  std::string pipeline = args->get("--pass-pipeline");
  if (Error e = smt::checkPipelineInput(*input, pipeline, *opts))
    return fail(e);
  // In a forked child, so that a pass that crashes is a finding of this
  // run, not a crash of crosscheck.
  smt::BoundedCheck r = smt::verifyPipelineBounded(
      *input, pipeline, *opts, args->has("--per-rewrite"), INFINITY);
  if (r.end == smt::BoundedCheck::End::Failed)
    return fail(r.error);
  bool json = args->has("--json");
  smt::TvVerdict worst = smt::TvVerdict::Correct;
  nlohmann::json j = nlohmann::json::array();
  for (const smt::StepCheck &s : r.steps) {
    worst = smt::worstVerdict(worst, s.verdict);
    printStep(s, json ? &j : nullptr);
  }
  if (r.end == smt::BoundedCheck::End::Crashed)
    return reportCrash(r, json, j);
  if (json)
    printJson("steps", j, worst);
  else if (r.steps.empty())
    std::cout << "no pass changed a function\n";
  return smt::verdictExitCode(worst);
}

} // namespace cc::cli
