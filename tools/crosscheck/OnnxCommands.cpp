// crosscheck export-onnx and onnx-conformance: ONNX interop.
#include "backends/onnx/Conformance.h"
#include "backends/onnx/Onnx.h"
#include "backends/ref/Interpreter.h"
#include "generators/Inputs.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <cstdio>
#include <iostream>

namespace cc::cli {

namespace {
const Command kExportOnnx{
    "export-onnx",
    "crosscheck export-onnx GRAPH.json -o DIR [--seed=N]",
    "Writes the graph as an ONNX model (opset 13) with generated inputs and the\n"
    "reference's outputs (in the declared dtypes) in ONNX's test layout:\n"
    "DIR/model.onnx and DIR/test_data_set_0/{input,output}_N.pb.",
    {
        {"--output", "-o", "DIR", "the folder to write (created if missing)"},
        {"--seed", "", "N", "seed of the generated inputs (default 0)"},
    },
    "Ops without an ONNX equivalent are an error that lists them."};

const Command kConformance{
    "onnx-conformance",
    "crosscheck onnx-conformance [DIR] [--cut=SPEC] [--filter=REGEX] [--json]",
    "Runs ONNX's backend node tests (DIR holds one folder per test with\n"
    "model.onnx and test_data_set_0; default: Debian's libonnx-testdata) through\n"
    "the importer, then the reference interpreter and the compiler under test,\n"
    "and compares both with ONNX's expected outputs. Prints pass / fail /\n"
    "unsupported per test and path, and the totals.",
    {
        {"--cut", "", "SPEC",
         "the compiler under test (default mlir:tosa-O0); 'none' runs the "
         "reference path only"},
        {"--filter", "", "REGEX", "only tests whose folder name matches"},
        {"--json", "", "", "print a JSON report"},
        {"--timeout", "", "S", "seconds per compiled test (default 30)"},
    },
    "Exit status: 0 no test fails on either path, 1 some test fails, 2 an "
    "error."};

constexpr const char *kDefaultTestDir = "/usr/share/libonnx-testdata/data/node";
} // namespace

int exportOnnxCommand(const Argv &argv) {
  Args args;
  if (std::optional<int> status = parseCommand(kExportOnnx, argv, args))
    return *status;
  if (!args.has("--output"))
    return fail("export-onnx needs -o DIR");
  auto seed = parseUnsigned("--seed", args.get("--seed", "0"));
  if (!seed)
    return fail(seed.error());
  auto graph = loadAnyGraph(args.positional[0]);
  if (!graph)
    return fail(graph.error());
  Inputs inputs = makeInputs(*graph, *seed, InputOptions{});
  auto outputs = interpret(*graph, inputs);
  if (!outputs)
    return fail(outputs.error());
  if (Error e = exportOnnx(*graph, inputs, *outputs, args.get("--output")))
    return fail(e);
  return kExitPass;
}

int onnxConformanceCommand(const Argv &argv) {
  auto parsed = parseArgs(kConformance, argv);
  if (!parsed)
    return fail(parsed.error());
  if (parsed->has("--help"))
    return std::cout << helpText(kConformance), kExitPass;
  if (parsed->positional.size() > 1)
    return fail("onnx-conformance expects at most one DIR");
  ConformanceOptions options;
  options.cut = parsed->get("--cut", "mlir:tosa-O0");
  if (options.cut == "none")
    options.cut.clear();
  options.filter = parsed->get("--filter");
  auto timeout = parseNumber("--timeout", parsed->get("--timeout", "30"));
  if (!timeout)
    return fail(timeout.error());
  options.timeoutSeconds = *timeout;
  std::string dir = parsed->positional.empty() ? kDefaultTestDir : parsed->positional[0];
  auto report = runOnnxConformance(dir, options);
  if (!report)
    return fail(report.error());
  int failures = report->count(0, CaseStatus::Fail) + report->count(1, CaseStatus::Fail);
  if (parsed->has("--json")) {
    std::cout << report->toJson().dump(2) << "\n";
  } else {
    for (const ConformanceCase &c : report->cases) {
      std::printf("%-50s ref: %-11s mlir: %-11s", c.name.c_str(),
                  std::string(caseStatusName(c.ref.status)).c_str(),
                  std::string(caseStatusName(c.mlir.status)).c_str());
      const PathResult &shown = c.ref.status != CaseStatus::Pass ? c.ref : c.mlir;
      std::string detail = shown.detail.substr(0, 160);
      for (char &ch : detail)
        ch = ch == '\n' ? ' ' : ch;
      std::printf("%s%s\n", detail.empty() ? "" : " ", detail.c_str());
    }
    for (int path : {0, 1})
      std::printf("%s: %d pass, %d fail, %d unsupported\n",
                  path ? "mlir" : "ref", report->count(path, CaseStatus::Pass),
                  report->count(path, CaseStatus::Fail),
                  report->count(path, CaseStatus::Unsupported));
  }
  return failures ? kExitFinding : kExitPass;
}

} // namespace cc::cli
