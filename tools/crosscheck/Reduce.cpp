// crosscheck reduce: shrinks a finding (or a failing graph) to a minimal
// case that shows the same failure.
#include "backends/onnx/Onnx.h"
#include "core/Json.h"
#ifdef CC_HAVE_SMT
#include "oracles/Tv.h"
#include "smt/Validate.h"
#endif
#include "generators/Inputs.h"
#include "reducers/Reduce.h"
#include "tests/mutants/Mutants.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <iostream>

namespace cc::cli {

namespace {

const Command kReduce{
    "reduce",
    "crosscheck reduce FINDING.json|GRAPH.json -o DIR [--cut=SPEC] "
    "[--budget=T] [--calls=N] [--jobs=N] [--seed=N] [--timeout=S]\n"
    "       crosscheck reduce INPUT.mlir -o DIR (--pass-pipeline=P "
    "[--per-rewrite] | --test=CMD) [--budget=T] [--calls=N]",
    "Shrinks a finding to a minimal test case that shows the same failure\n"
    "(same kind, stage and detail of its signature): delta debugging over ops\n"
    "and outputs, then simpler constants, inputs, attributes, shapes and\n"
    "dtypes, then the smallest sub-pipeline of an mlir: cut and the first\n"
    "pass after which the failure shows. FINDING.json is a finding file (or a\n"
    "directory holding finding.json); a graph file is run first (inputs from\n"
    "--seed) and its failure, if any, is reduced. DIR/finding.json and\n"
    "DIR/graph.json always hold the best case so far, so an interrupted\n"
    "reduction still leaves a reproducer.\n\n"
    "MLIR input (a verify-pass or tv finding, or any module) is reduced at\n"
    "the MLIR level: ops are removed (their uses rewired to a value of the\n"
    "same type), then attributes dropped and dense constants made zero\n"
    "splats, every candidate verified by MLIR. The failure kept is what\n"
    "--pass-pipeline does wrong: the first pass (or rewrite, with\n"
    "--per-rewrite) translation validation proves wrong, else the pipeline's\n"
    "own error or crash; or, with --test, CMD exiting 0 on the candidate file\n"
    "(the llvm-reduce convention). DIR/reduced.mlir holds the best module so\n"
    "far.",
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
        {"--pass-pipeline", "", "P",
         "MLIR input: the pipeline whose failure on it is kept"},
        {"--per-rewrite", "", "",
         "MLIR input: validate canonicalize one rewrite at a time, so that "
         "the pattern is part of the failure"},
        {"--test", "", "CMD",
         "MLIR input: the candidate is interesting when `CMD FILE` exits 0 "
         "(killed after --timeout seconds, default 30)"},
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

// The exit status of `CMD FILE` within the time limit; -1 when it was
// killed or died of a signal.
int testStatus(const std::string &cmd, const std::string &file,
               double timeoutSeconds) {
  auto quote = [](const std::string &s) {
    std::string q = "'";
    for (char c : s)
      q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string line = "timeout -s KILL " + std::to_string(timeoutSeconds) +
                     " sh -c " + quote(cmd + " \"$0\"") + " " + quote(file) +
                     " >/dev/null 2>&1";
  int status = std::system(line.c_str());
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The test command must run on the input itself: a shell that cannot find
// or execute it (126, 127) is a usage error, not an uninteresting input.
Error checkTestCommand(const std::string &cmd, const std::string &file,
                       const std::string &module, double timeoutSeconds) {
  CC_TRY(writeFile(file, module));
  int status = testStatus(cmd, file, timeoutSeconds);
  if (status == 126 || status == 127)
    return makeError("--test command '" + cmd + "' cannot be run (" +
                     (status == 127 ? "command not found" : "not executable") +
                     ")");
  if (status != 0)
    return makeError("the input is not interesting: `" + cmd +
                     " FILE` exits " +
                     (status < 0 ? "by a signal or the time limit"
                                 : "with " + std::to_string(status)) +
                     " on it (it must exit 0)");
  return Error::success();
}

// crosscheck reduce INPUT.mlir: the MLIR-level reducer.
int reduceMlirCommand(const Args &args, const ReduceOptions &options) {
  auto module = readFile(args.positional[0]);
  if (!module)
    return fail(module.error());
  bool byPipeline = args.has("--pass-pipeline"), byTest = args.has("--test");
  if (byPipeline == byTest)
    return fail("reducing MLIR needs exactly one of --pass-pipeline=P (keep "
                "what it does wrong) and --test=CMD (keep CMD exiting 0)");
  std::error_code ec;
  std::filesystem::create_directories(options.outDir, ec);
  if (ec)
    return fail("cannot create '" + options.outDir + "': " + ec.message());
  std::function<bool(const std::string &)> stillFails;
  std::string target;
  if (byTest) {
    auto timeout = parseNumber("--timeout", args.get("--timeout", "30"));
    if (!timeout)
      return fail(timeout.error());
    std::string cmd = args.get("--test"), file = options.outDir + "/candidate.mlir";
    target = "the test command exits 0";
    if (Error e = checkTestCommand(cmd, file, *module, *timeout))
      return fail(e);
    stillFails = [cmd, file, t = *timeout](const std::string &text) {
      return !writeFile(file, text) && testStatus(cmd, file, t) == 0;
    };
  } else {
#ifdef CC_HAVE_SMT
    TvCaseOptions tv;
    tv.perRewrite = args.has("--per-rewrite");
    std::string pipeline = args.get("--pass-pipeline");
    smt::TvOptions check;
    check.sourceName = args.positional[0];
    if (Error e = smt::checkPipelineInput(*module, pipeline, check))
      return fail(e);
    target = mlirTvFailure(*module, pipeline, tv);
    if (target.empty())
      return fail("the module does not fail: no pass of the pipeline is "
                  "proved wrong, and it runs to the end");
    stillFails = [=](const std::string &text) {
      return mlirTvFailure(text, pipeline, tv) == target;
    };
#else
    return fail("--pass-pipeline needs translation validation, and this "
                "crosscheck was built without Z3");
#endif
  }
  auto r = reduceMlir(*module, stillFails, options);
  std::filesystem::remove(options.outDir + "/candidate.mlir", ec);
  if (!r)
    return fail(r.error());
  if (Error e = writeFile(options.outDir + "/reduced.mlir", r->module))
    return fail(e);
  std::cout << "reduced: " << target << "\n"
            << "ops: " << r->opsBefore << " -> " << r->opsAfter << ", "
            << r->simplified << " attributes and constants simplified\n"
            << "oracle calls: " << r->oracleCalls << "\n"
            << "wrote " << options.outDir << "/reduced.mlir\n";
  return kExitPass;
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

  if (args.positional[0].ends_with(".mlir"))
    return reduceMlirCommand(args, options);
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
