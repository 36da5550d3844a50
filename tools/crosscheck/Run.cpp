// crosscheck run: one graph through the compiler under test and the
// reference, judged by the numeric oracle.
#include "backends/Registry.h"
#include "backends/onnx/Onnx.h"
#include "core/Json.h"
#include "core/Npy.h"
#include "core/Quote.h"
#include "generators/Inputs.h"
#include "harness/Campaign.h"
#include "oracles/Differential.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <iostream>

namespace cc::cli {

namespace {

struct RunFlags {
  std::string cut = kDefaultCut, pipeline, ref = "ref", inputs;
  uint64_t seed = 0;
  InputOptions generated;
  RunLimits limits;
  bool json = false;
};
using F = RunFlags;

const Command<F> kRun{
    "run",
    "crosscheck run GRAPH.json [--cut=SPEC] [--ref=ref] [--inputs=DIR] "
    "[--seed=N] [--edge-rate=P] [--special-rate=P] [--json] [--timeout=S]\n"
    "       [--memory-limit=SIZE]",
    {1, 1, "expects one GRAPH.json"},
    "Runs the graph through the compiler under test and through the reference\n"
    "interpreter (in f64, and in the graph's own precision to calibrate the\n"
    "tolerance) and judges the outputs with the numeric oracle. Prints a\n"
    "one-line verdict, or a JSON object with --json.",
    {
        {"--cut", "", "SPEC",
         "the compiler under test (default {}): mlir:NAME for a "
         "named pipeline (tosa-O0, tosa-O3, ...), mlir:pipeline=TEXT for a "
         "textual pass pipeline from TOSA to LLVM, mlir-ext:CMD for an "
         "external *-opt command that reads TOSA on stdin, cuda:NAME for a "
         "GPU pipeline (gpu-O0, gpu-O3: PTX checked by ptxas for sm_80 and "
         "sm_90, run where a GPU is)",
         text(&F::cut)},
        {"--pass-pipeline", "", "TEXT",
         "same as --cut=mlir:pipeline=TEXT (as in mlir-opt)",
         text(&F::pipeline)},
        {"--ref", "", "NAME",
         "the reference: {} (default; the f64 interpreter)", text(&F::ref)},
        {"--inputs", "", "DIR",
         "read each graph input from DIR/<input name>.npy instead of "
         "generating inputs",
         text(&F::inputs)},
        {"--seed", "", "N",
         "seed of the generated inputs (default {}); the same seed gives the "
         "same inputs",
         count(&F::seed)},
        {"--edge-rate", "", "P",
         "share of generated input elements that are edge values such as "
         "+-0, +-1 and exact halves (default {})",
         within(&F::generated, share(&InputOptions::edgeRate))},
        {"--special-rate", "", "P",
         "share of generated float input elements that are +-Inf, NaN or "
         "denormals, where the consuming ops accept any value (default {})",
         within(&F::generated, share(&InputOptions::specialRate))},
        {"--json", "", "",
         "print a JSON object with the verdict, the oracle's per-output "
         "report and the stage times",
         on(&F::json)},
        {"--timeout", "", "S",
         "seconds the compiler under test may take before it counts as hung "
         "(default {})",
         within(&F::limits, positive(&RunLimits::timeoutSeconds))},
        {"--memory-limit", "", "SIZE",
         "address space of the compiler under test, in-process (isolated) or "
         "external: 512M, 4G (default {}); exceeding it is a finding",
         within(&F::limits, memoryLimit(&RunLimits::memoryBytes))},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes so "
         "that a pipeline can name them",
         loadMutants<F>()},
    },
    "Exit status: 0 the outputs agree, 1 a finding (miscompile, crash, "
    "timeout,\nverifier or pass failure of the compiler under test), 2 an "
    "error (bad graph,\nbad flag, missing file, undefined behaviour in the "
    "inputs, unsupported graph)."};

// One tensor per graph input, read from DIR/<input name>.npy.
Expected<Inputs> readInputs(const Graph &g, const std::string &dir) {
  Inputs inputs;
  for (ValueId v : g.inputs) {
    const ValueInfo &info = g.values.at(v);
    CC_ASSIGN(t, readNpyAs(dir + "/" + info.name + ".npy", info.type));
    inputs.push_back(std::move(t));
  }
  return inputs;
}

nlohmann::json timesJson(const StageTimes &times) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto &[stage, seconds] : times)
    j[stage] = seconds;
  return j;
}

int report(const Graph &g, const std::string &cut, const std::string &ref,
           const CaseResult &r, bool json) {
  const std::optional<Finding> &f = r.verdict.finding();
  if (json) {
    nlohmann::json j = {{"graph", g.name},
                        {"cut", cut},
                        {"ref", ref},
                        {"verdict", f ? "finding" : "pass"},
                        {"times", timesJson(r.times)}};
    if (f)
      j["finding"] = {{"kind", kindName(f->signature.kind)},
                      {"backend", f->signature.backend},
                      {"stage", f->signature.stage},
                      {"detail", f->signature.detail},
                      {"message", f->message}};
    if (r.report)
      j["report"] = r.report->toJson();
    std::cout << jsonText(j, 2) << "\n";
  } else if (f) {
    // Names and messages from data reach the terminal as text, never as
    // escape sequences.
    std::cout << terminalText(
                     "FINDING: " + std::string(kindName(f->signature.kind)) +
                     " in " + cut + " on graph '" + g.name + "': " + f->message)
              << "\n";
  } else {
    std::cout << terminalText("PASS: graph '" + g.name + "' on " + cut +
                              " agrees with " + ref + ": " +
                              r.report->summary())
              << "\n";
  }
  return f ? kExitFinding : kExitPass;
}

int runGraph(RunFlags &o, const Args &args) {
  bool byPipeline = args.has("--pass-pipeline");
  if (byPipeline && args.has("--cut"))
    return fail("give one compiler under test (--cut or --pass-pipeline)");
  std::string cut = byPipeline ? "mlir:pipeline=" + o.pipeline : o.cut;
  if (o.ref != "ref")
    return fail("unknown reference '" + o.ref + "' (available: ref)");

  auto graph = loadAnyGraph(args.positional[0]);
  if (!graph)
    return fail(graph.error());
  auto backend = makeBackend(cut);
  if (!backend)
    return fail(backend.error());
  auto inputs = args.has("--inputs")
                    ? readInputs(*graph, o.inputs)
                    : Expected<Inputs>(makeInputs(*graph, o.seed, o.generated));
  if (!inputs)
    return fail(inputs.error());
  DifferentialOptions differential;
  differential.limits = o.limits;
  auto result = runDifferential(*graph, *inputs, **backend, differential);
  if (!result)
    return fail(result.error());
  return report(*graph, cut, o.ref, *result, o.json);
}

} // namespace

int runCommand(const Argv &argv) { return parseAndRun(kRun, argv, runGraph); }

} // namespace cc::cli
