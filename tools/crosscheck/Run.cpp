// crosscheck run: one graph through the compiler under test and the
// reference, judged by the numeric oracle.
#include "backends/Registry.h"
#include "backends/onnx/Onnx.h"
#include "core/Json.h"
#include "core/Npy.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"
#include "tests/mutants/Mutants.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <iostream>

namespace cc::cli {

namespace {

const Command kRun{
    "run",
    "crosscheck run GRAPH.json [--cut=SPEC] [--ref=ref] [--inputs=DIR] "
    "[--seed=N] [--edge-rate=P] [--special-rate=P] [--json] [--timeout=S]\n"
    "       [--memory-limit=SIZE]",
    "Runs the graph through the compiler under test and through the reference\n"
    "interpreter (in f64, and in the graph's own precision to calibrate the\n"
    "tolerance) and judges the outputs with the numeric oracle. Prints a\n"
    "one-line verdict, or a JSON object with --json.",
    {
        {"--cut", "", "SPEC",
         "the compiler under test (default mlir:tosa-O3): mlir:NAME for a "
         "named pipeline (tosa-O0, tosa-O3, ...), mlir:pipeline=TEXT for a "
         "textual pass pipeline from TOSA to LLVM, mlir-ext:CMD for an "
         "external *-opt command that reads TOSA on stdin, cuda:NAME for a "
         "GPU pipeline (gpu-O0, gpu-O3: PTX checked by ptxas for sm_80 and "
         "sm_90, run where a GPU is)"},
        {"--pass-pipeline", "", "TEXT",
         "same as --cut=mlir:pipeline=TEXT (as in mlir-opt)"},
        {"--ref", "", "NAME",
         "the reference: ref (default; the f64 interpreter)"},
        {"--inputs", "", "DIR",
         "read each graph input from DIR/<input name>.npy instead of "
         "generating inputs"},
        {"--seed", "", "N",
         "seed of the generated inputs (default 0); the same seed gives the "
         "same inputs"},
        {"--edge-rate", "", "P",
         "share of generated input elements that are edge values such as "
         "+-0, +-1 and exact halves (default 0.15)"},
        {"--special-rate", "", "P",
         "share of generated float input elements that are +-Inf, NaN or "
         "denormals, where the consuming ops accept any value (default 0)"},
        {"--json", "", "",
         "print a JSON object with the verdict, the oracle's per-output "
         "report and the stage times"},
        {"--timeout", "", "S",
         "seconds the compiler under test may take before it counts as hung "
         "(default 30)"},
        {"--memory-limit", "", "SIZE",
         "address space of the compiler under test, in-process (isolated) or "
         "external: 512M, 4G (default 4G); exceeding it is a finding"},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes so "
         "that a pipeline can name them"},
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
    std::cout << j.dump(2) << "\n";
  } else if (f) {
    std::cout << "FINDING: " << kindName(f->signature.kind) << " in " << cut
              << " on graph '" << g.name << "': " << f->message << "\n";
  } else {
    std::cout << "PASS: graph '" << g.name << "' on " << cut << " agrees with "
              << ref << ": " << r.report->summary() << "\n";
  }
  return f ? kExitFinding : kExitPass;
}

} // namespace

int runCommand(const Argv &argv) {
  Args parsed;
  if (std::optional<int> status = parseCommand(kRun, argv, parsed))
    return *status;
  const Args *args = &parsed;

  std::vector<std::string> cuts = args->all("--cut");
  if (args->has("--pass-pipeline"))
    cuts.push_back("mlir:pipeline=" + args->get("--pass-pipeline"));
  if (cuts.size() > 1)
    return fail("give one compiler under test (--cut or --pass-pipeline)");
  std::string cut = cuts.empty() ? "mlir:tosa-O3" : cuts[0];
  std::string ref = args->get("--ref", "ref");
  if (ref != "ref")
    return fail("unknown reference '" + ref + "' (available: ref)");
  auto seed = parseUnsigned("--seed", args->get("--seed", "0"));
  if (!seed)
    return fail(seed.error());
  DifferentialOptions options;
  auto timeout = parseNumber("--timeout", args->get("--timeout", "30"));
  if (!timeout)
    return fail(timeout.error());
  if (*timeout <= 0)
    return fail("flag '--timeout': must be positive");
  options.timeoutSeconds = *timeout;
  auto memory = parseMemoryLimit(args->get("--memory-limit", "4G"));
  if (!memory)
    return fail(memory.error());
  options.memoryLimitBytes = *memory;
  InputOptions inputOptions;
  for (auto [flag, rate] : {std::pair{"--edge-rate", &inputOptions.edgeRate},
                            std::pair{"--special-rate", &inputOptions.specialRate}}) {
    if (!args->has(flag))
      continue;
    auto p = parseNumber(flag, args->get(flag));
    if (!p)
      return fail(p.error());
    if (*p < 0 || *p > 1)
      return fail(std::string("flag '") + flag + "': must be between 0 and 1");
    *rate = *p;
  }
  if (args->has("--load-mutants"))
    registerMutantPasses();

  auto graph = loadAnyGraph(args->positional[0]);
  if (!graph)
    return fail(graph.error());
  auto backend = makeBackend(cut);
  if (!backend)
    return fail(backend.error());
  auto inputs = args->has("--inputs") ? readInputs(*graph, args->get("--inputs"))
                                      : Expected<Inputs>(makeInputs(*graph, *seed, inputOptions));
  if (!inputs)
    return fail(inputs.error());
  auto result = runDifferential(*graph, *inputs, **backend, options);
  if (!result)
    return fail(result.error());
  return report(*graph, cut, ref, *result, args->has("--json"));
}

} // namespace cc::cli
