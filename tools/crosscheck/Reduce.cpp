// crosscheck reduce: shrinks a finding (or a failing graph) to a minimal
// case that shows the same failure.
#include "backends/onnx/Onnx.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "reducers/Reduce.h"
#include "tests/mutants/Mutants.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cc::cli {

namespace {

const Command kReduce{
    "reduce",
    "crosscheck reduce FINDING.json|GRAPH.json -o DIR [--cut=SPEC] "
    "[--budget=T] [--calls=N] [--jobs=N] [--seed=N] [--timeout=S]",
    "Shrinks a finding to a minimal test case that shows the same failure\n"
    "(same kind, stage and detail of its signature): delta debugging over ops\n"
    "and outputs, then simpler constants, inputs, attributes, shapes and\n"
    "dtypes, then the smallest sub-pipeline of an mlir: cut and the first\n"
    "pass after which the failure shows. FINDING.json is a finding file (or a\n"
    "directory holding finding.json); a graph file is run first (inputs from\n"
    "--seed) and its failure, if any, is reduced. DIR/finding.json and\n"
    "DIR/graph.json always hold the best case so far, so an interrupted\n"
    "reduction still leaves a reproducer.",
    {
        {"--output", "-o", "DIR", "where the reduced finding.json and graph.json go"},
        {"--cut", "", "SPEC",
         "the compiler under test: required for a graph (default "
         "mlir:tosa-O3); for a finding, replaces its cut"},
        {"--budget", "", "T",
         "time budget: seconds, or with a unit: 90s, 5m, 1h (default 5m)"},
        {"--calls", "", "N", "at most N oracle calls (default: no limit)"},
        {"--jobs", "", "N", "judge up to N candidates in parallel (default 1)"},
        {"--seed", "", "N", "seed of the generated inputs of a graph (default 0)"},
        {"--timeout", "", "S",
         "seconds the compiler under test may take per run (default: the "
         "finding's, 30 for a graph)"},
        {"--no-graph", "", "", "do not reduce the graph"},
        {"--no-pipeline", "", "", "do not reduce the pass pipeline"},
        {"--verbose", "-v", "", "print each accepted step on stderr"},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes"},
    },
    "Exit status: 0 reduced (the same signature reproduced), 2 the input "
    "does\nnot reproduce its failure, or an error (bad flag, missing or "
    "malformed file)."};

Expected<double> parseDuration(const std::string &text) {
  double scale = 1;
  std::string number = text;
  if (!text.empty() && std::string("smh").find(text.back()) != std::string::npos) {
    scale = text.back() == 'm' ? 60 : text.back() == 'h' ? 3600 : 1;
    number.pop_back();
  }
  CC_ASSIGN(v, parseNumber("--budget", number));
  if (v <= 0)
    return makeError("flag '--budget': must be positive");
  return v * scale;
}

bool isFindingFile(const std::string &path) {
  if (std::filesystem::is_directory(path))
    return true;
  auto text = readFile(path);
  if (!text)
    return true; // loadFinding names the missing file
  auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.value("format", "") == "crosscheck-finding";
}

Expected<FindingRecord> loadInput(const Args &args) {
  const std::string &path = args.positional[0];
  if (isFindingFile(path)) {
    CC_ASSIGN(f, loadFinding(path));
    if (args.has("--cut"))
      f.testCase.cut = args.get("--cut");
    if (args.has("--timeout")) {
      CC_ASSIGN(t, parseNumber("--timeout", args.get("--timeout")));
      f.testCase.timeoutSeconds = t;
    }
    return f;
  }
  CC_ASSIGN(g, loadAnyGraph(path));
  CC_ASSIGN(seed, parseUnsigned("--seed", args.get("--seed", "0")));
  CC_ASSIGN(timeout, parseNumber("--timeout", args.get("--timeout", "30")));
  TestCase c;
  c.inputs = makeInputs(g, seed);
  c.graph = std::move(g);
  c.cut = args.get("--cut", "mlir:tosa-O3");
  c.timeoutSeconds = timeout;
  c.seed = seed;
  return judgeCase(c);
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += (s.empty() ? "" : ",") + x;
  return s;
}

} // namespace

int reduceCommand(const Argv &argv) {
  Args args;
  if (std::optional<int> status = parseCommand(kReduce, argv, args))
    return *status;
  if (!args.has("--output"))
    return fail("reduce needs an output directory (-o DIR)");
  ReduceOptions options;
  options.outDir = args.get("--output");
  auto budget = parseDuration(args.get("--budget", "5m"));
  if (!budget)
    return fail(budget.error());
  options.budgetSeconds = *budget;
  auto calls = parseUnsigned("--calls", args.get("--calls", "0"));
  if (!calls)
    return fail(calls.error());
  options.maxCalls = int64_t(*calls);
  auto jobs = parseUnsigned("--jobs", args.get("--jobs", "1"));
  if (!jobs)
    return fail(jobs.error());
  if (*jobs < 1 || *jobs > 256)
    return fail("flag '--jobs': must be between 1 and 256");
  options.jobs = int(*jobs);
  if (args.has("--timeout")) {
    auto t = parseNumber("--timeout", args.get("--timeout"));
    if (!t)
      return fail(t.error());
    if (*t <= 0)
      return fail("flag '--timeout': must be positive");
  }
  options.reduceGraph = !args.has("--no-graph");
  options.reducePipeline = !args.has("--no-pipeline");
  if (args.has("--verbose"))
    options.log = [](const std::string &line) {
      std::cerr << "reduce: " << line << "\n";
    };
  if (args.has("--load-mutants"))
    registerMutantPasses();

  auto finding = loadInput(args);
  if (!finding)
    return fail(finding.error());
  auto result = reduceFinding(*finding, options);
  if (!result)
    return fail(result.error());
  const ReduceStats &s = result->stats;
  std::cout << "reduced: " << result->reduced.finding.signature.str() << "\n"
            << "ops: " << s.opsBefore << " -> " << s.opsAfter
            << ", leaf elements: " << s.elementsBefore << " -> "
            << s.elementsAfter << "\n";
  if (!result->passesBefore.empty())
    std::cout << "passes: " << result->passesBefore.size() << " -> "
              << result->passesAfter.size() << " ("
              << joined(result->passesAfter) << ")\n";
  if (!result->firstFailingPass.empty())
    std::cout << "first failing pass: " << result->firstFailingPass << "\n";
  std::printf("oracle calls: %lld (cache hits %lld, invalid %lld), %.2f s%s\n",
              (long long)s.oracleCalls, (long long)s.cacheHits,
              (long long)s.invalid, s.seconds,
              s.budgetExhausted ? ", budget exhausted" : "");
  std::cout << "wrote " << options.outDir << "/finding.json and "
            << options.outDir << "/graph.json\n";
  return kExitPass;
}

} // namespace cc::cli
