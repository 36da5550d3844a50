// crosscheck reduce: shrinks a finding (or a failing graph) to a minimal
// case that shows the same failure.
#include "backends/Registry.h"
#include "backends/onnx/Onnx.h"
#include "core/File.h"
#include "core/Json.h"
#ifdef CC_HAVE_SMT
#include "oracles/Tv.h"
#include "smt/Validate.h"
#endif
#include "generators/Inputs.h"
#include "process/Process.h"
#include "reducers/Reduce.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace cc::cli {

namespace {

// reduce's options: the reducer's, and how to judge its input.
struct ReduceFlags : ReduceOptions {
  std::string cut = kDefaultCut;
  uint64_t seed = 0;
  double timeout = RunLimits().timeoutSeconds;
  std::string pipeline, test;
  bool perRewrite = false, verbose = false, trustCommands = false;
};
using F = ReduceFlags;

// --test's command is killed after --timeout seconds.
Binding<F> testCommand() {
  Binding<F> b = text(&F::test);
  b.show = [](const F &o) { return showNumber(o.timeout); };
  return b;
}

const Command<F> kReduce{
    "reduce",
    "crosscheck reduce FINDING.json|GRAPH.json -o DIR [--cut=SPEC] "
    "[--budget=T] [--calls=N] [--jobs=N] [--seed=N] [--timeout=S]\n"
    "       crosscheck reduce INPUT.mlir -o DIR (--pass-pipeline=P "
    "[--per-rewrite] | --test=CMD [--jobs=N]) [--budget=T] [--calls=N]",
    {1, 1, "expects one GRAPH.json"},
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
    "the MLIR level: the outputs of cleanup pipelines (inline, symbol-dce,\n"
    "canonicalize, cse) when smaller, whole functions and globals, dead ops\n"
    "and loop nests, function arguments and results, ops replaced by zero\n"
    "constants (or ub.poison), ops removed (their uses rewired to a value of\n"
    "the same type), then attributes dropped and dense constants made zero\n"
    "splats. Every candidate is verified by MLIR, and one with undefined\n"
    "behaviour the input does not have (a loop step that is not positive, an\n"
    "index outside a static dimension) is never run; identical candidates\n"
    "run once. The failure kept is what --pass-pipeline does wrong: the\n"
    "first pass (or rewrite, with --per-rewrite) translation validation\n"
    "proves wrong, else the pipeline's own error or crash; or, with --test,\n"
    "CMD exiting 0 on the candidate file (the llvm-reduce convention), each\n"
    "run killed after 4 times the input's own test time (at least 5 s, at\n"
    "most --timeout), up to --jobs at once. DIR/reduced.mlir holds the best\n"
    "module so far.",
    {
        {"--output", "-o", "DIR",
         "where the reduced finding.json and graph.json go", text(&F::outDir)},
        {"--cut", "", "SPEC",
         "the compiler under test: required for a graph (default {}); for a "
         "finding, replaces its cut",
         text(&F::cut)},
        {"--budget", "", "T",
         "time budget: seconds, or with a unit: 90s, 5m, 1h (default {})",
         duration(&F::budgetSeconds)},
        {"--calls", "", "N", "at most N oracle calls (default: no limit)",
         count(&F::maxCalls)},
        {"--jobs", "", "N", "judge up to N candidates in parallel (default {})",
         count(&F::jobs, 1, 256)},
        {"--seed", "", "N",
         "seed of the generated inputs of a graph (default {})",
         count(&F::seed)},
        {"--timeout", "", "S",
         "seconds the compiler under test may take per run (default: the "
         "finding's, {} for a graph)",
         positive(&F::timeout)},
        {"--pass-pipeline", "", "P",
         "MLIR input: the pipeline whose failure on it is kept",
         text(&F::pipeline)},
        {"--per-rewrite", "", "",
         "MLIR input: validate canonicalize one rewrite at a time, so that "
         "the pattern is part of the failure",
         on(&F::perRewrite)},
        {"--test", "", "CMD",
         "MLIR input: the candidate is interesting when `CMD FILE` exits 0 "
         "(killed after --timeout seconds, default {})",
         testCommand()},
        {"--trust-commands", "", "",
         "run a finding's compiler even when it is a command taken from the "
         "file (mlir-ext:CMD) that --cut does not name",
         on(&F::trustCommands)},
        {"--no-graph", "", "", "do not reduce the graph", off(&F::reduceGraph)},
        {"--no-pipeline", "", "", "do not reduce the pass pipeline",
         off(&F::reducePipeline)},
        {"--verbose", "-v", "", "print each accepted step on stderr",
         on(&F::verbose)},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes",
         loadMutants<F>()},
    },
    "Exit status: 0 reduced (the same signature reproduced), 2 the input "
    "does\nnot reproduce its failure, or an error (bad flag, missing or "
    "malformed file)."};

bool isFindingFile(const std::string &path) {
  if (std::filesystem::is_directory(path))
    return true;
  auto text = readFile(path);
  if (!text)
    return true; // loadFinding names the missing file
  auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.value("format", "") == "crosscheck-finding";
}

Expected<FindingRecord> loadInput(const ReduceFlags &o, const Args &args) {
  const std::string &path = args.positional[0];
  if (isFindingFile(path)) {
    CC_ASSIGN(f, loadFinding(path));
    std::vector<std::string> named;
    if (args.has("--cut"))
      f.testCase.cut = o.cut, named.push_back(o.cut);
    CC_TRY(checkTrustedSpec(f.testCase.cut, "finding '" + path + "'", named,
                            o.trustCommands));
    if (args.has("--timeout"))
      f.testCase.limits.timeoutSeconds = o.timeout;
    return f;
  }
  CC_ASSIGN(g, loadAnyGraph(path));
  TestCase c;
  c.inputs = makeInputs(g, o.seed);
  c.graph = std::move(g);
  c.cut = o.cut;
  c.limits.timeoutSeconds = o.timeout;
  c.seed = o.seed;
  return judgeCase(c);
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += (s.empty() ? "" : ",") + x;
  return s;
}

// The exit status of `CMD FILE` within the time limit; -1 when it was
// killed or died of a signal. The file comes to the shell as $0, never as
// text of the command line.
int testStatus(const std::string &cmd, const std::string &file,
               double timeoutSeconds) {
  process::ChildOptions o;
  o.outputPath = "/dev/null";
  o.limits = RunLimits::timeOnly(timeoutSeconds);
  auto r = process::runProgram({"/bin/sh", "-c", cmd + " \"$0\"", file}, o);
  return r && !r->timedOut && !r->signal ? r->exitCode : -1;
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
    return makeError("the input is not interesting: `" + cmd + " FILE` exits " +
                     (status < 0 ? "by a signal or the time limit"
                                 : "with " + std::to_string(status)) +
                     " on it (it must exit 0)");
  return Error::success();
}

// The failure the MLIR reducer keeps, and whether a candidate still shows
// it.
struct MlirFailure {
  std::string what;
  std::function<bool(const std::string &)> stillFails;
};

// The per-candidate time limit of --test: a multiple of the input's own
// test time, at least kTestFloorSeconds and at most --timeout.
constexpr double kTestFloorSeconds = 5, kTestTimeMultiple = 4;

// --test=CMD: CMD exits 0 on the candidate file. Each call writes its own
// file, so that candidates can be judged in parallel (--jobs).
Expected<MlirFailure> testFailure(const ReduceFlags &o,
                                  const std::string &module) {
  std::string cmd = o.test, dir = o.outDir;
  auto start = std::chrono::steady_clock::now();
  CC_TRY(checkTestCommand(cmd, dir + "/candidate.mlir", module, o.timeout));
  double own =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  double limit =
      std::min(o.timeout, std::max(kTestFloorSeconds, kTestTimeMultiple * own));
  auto counter = std::make_shared<std::atomic<int64_t>>(0);
  return MlirFailure{"the test command exits 0",
                     [cmd, dir, limit, counter](const std::string &text) {
                       std::string file = dir + "/candidate-" +
                                          std::to_string((*counter)++) +
                                          ".mlir";
                       bool fails = !writeFile(file, text) &&
                                    testStatus(cmd, file, limit) == 0;
                       std::error_code ec;
                       std::filesystem::remove(file, ec);
                       return fails;
                     }};
}

// --pass-pipeline=P: what P does wrong to the module.
Expected<MlirFailure> pipelineFailure(const ReduceFlags &o,
                                      const std::string &path,
                                      const std::string &module) {
#ifdef CC_HAVE_SMT
  TvCaseOptions tv;
  tv.perRewrite = o.perRewrite;
  smt::TvOptions check;
  check.sourceName = path;
  CC_TRY(smt::checkPipelineInput(module, o.pipeline, check));
  std::string target = mlirTvFailure(module, o.pipeline, tv);
  if (target.empty())
    return makeError("the module does not fail: no pass of the pipeline is "
                     "proved wrong, and it runs to the end");
  return MlirFailure{target,
                     [=, pipeline = o.pipeline](const std::string &text) {
                       return mlirTvFailure(text, pipeline, tv) == target;
                     }};
#else
  return makeError("--pass-pipeline needs translation validation, and this "
                   "crosscheck was built without Z3");
#endif
}

// crosscheck reduce INPUT.mlir: the MLIR-level reducer.
int reduceMlirCommand(const ReduceFlags &o, const Args &args) {
  auto module = readFile(args.positional[0]);
  if (!module)
    return fail(module.error());
  bool byPipeline = args.has("--pass-pipeline"), byTest = args.has("--test");
  if (byPipeline == byTest)
    return fail("reducing MLIR needs exactly one of --pass-pipeline=P (keep "
                "what it does wrong) and --test=CMD (keep CMD exiting 0)");
  if (Error e = makeDirectory(o.outDir))
    return fail(e);
  auto failure = byTest ? testFailure(o, *module)
                        : pipelineFailure(o, args.positional[0], *module);
  if (!failure)
    return fail(failure.error());
  ReduceOptions options = o;
  if (byPipeline)
    options.jobs = 1; // translation validation judges one module at a time
  auto r = reduceMlir(*module, failure->stillFails, options);
  std::error_code ec;
  std::filesystem::remove(o.outDir + "/candidate.mlir", ec);
  if (!r)
    return fail(r.error());
  if (Error e = writeFile(o.outDir + "/reduced.mlir", r->module))
    return fail(e);
  std::cout << "reduced: " << failure->what << "\n"
            << "ops: " << r->opsBefore << " -> " << r->opsAfter << ", "
            << r->simplified << " attributes and constants simplified\n"
            << "oracle calls: " << r->oracleCalls << " (cache hits "
            << r->cacheHits << ", invalid " << r->invalid
            << ", undefined behaviour " << r->ubRejected << ")\n"
            << "wrote " << o.outDir << "/reduced.mlir\n";
  return kExitPass;
}

int reduce(ReduceFlags &o, const Args &args) {
  if (!args.has("--output"))
    return fail("reduce needs an output directory (-o DIR)");
  if (o.verbose)
    o.log = [](const std::string &line) {
      std::cerr << "reduce: " << line << "\n";
    };
  if (args.positional[0].ends_with(".mlir"))
    return reduceMlirCommand(o, args);
  auto finding = loadInput(o, args);
  if (!finding)
    return fail(finding.error());
  auto result = reduceFinding(*finding, o);
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
  std::cout << "wrote " << o.outDir << "/finding.json and " << o.outDir
            << (result->reduced.testCase.program ? "/program.mlir\n"
                                                 : "/graph.json\n");
  return kExitPass;
}

} // namespace

int reduceCommand(const Argv &argv) {
  return parseAndRun(kReduce, argv, reduce);
}

} // namespace cc::cli
