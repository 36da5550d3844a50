// crosscheck export-onnx and onnx-conformance: ONNX interop.
#include "backends/onnx/Conformance.h"
#include "backends/onnx/Onnx.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <cstdio>
#include <iostream>

namespace cc::cli {

namespace {
struct ExportFlags {
  std::string output;
  uint64_t seed = 0;
};

const Command<ExportFlags> kExportOnnx{
    "export-onnx",
    "crosscheck export-onnx GRAPH.json -o DIR [--seed=N]",
    {1, 1, "expects one GRAPH.json"},
    "Writes the graph as an ONNX model (opset 13) with generated inputs and "
    "the\n"
    "reference's outputs (in the declared dtypes) in ONNX's test layout:\n"
    "DIR/model.onnx and DIR/test_data_set_0/{input,output}_N.pb.",
    {
        {"--output", "-o", "DIR", "the folder to write (created if missing)",
         text(&ExportFlags::output)},
        {"--seed", "", "N", "seed of the generated inputs (default {})",
         count(&ExportFlags::seed)},
    },
    "Ops without an ONNX equivalent are an error that lists them."};

struct ConformanceFlags : ConformanceOptions {
  bool json = false;
};
using C = ConformanceFlags;

const Command<C> kConformance{
    "onnx-conformance",
    "crosscheck onnx-conformance [DIR] [--cut=SPEC] [--filter=REGEX] [--json]",
    {0, 1, "expects at most one DIR"},
    "Runs ONNX's backend node tests (DIR holds one folder per test with\n"
    "model.onnx and test_data_set_0; default: Debian's libonnx-testdata) "
    "through\n"
    "the importer, then the reference interpreter and the compiler under "
    "test,\n"
    "and compares both with ONNX's expected outputs. Prints pass / fail /\n"
    "unsupported per test and path, and the totals.",
    {
        {"--cut", "", "SPEC",
         "the compiler under test (default {}); 'none' runs the "
         "reference path only",
         text(&C::cut)},
        {"--filter", "", "REGEX", "only tests whose folder name matches",
         text(&C::filter)},
        {"--json", "", "", "print a JSON report", on(&C::json)},
        {"--timeout", "", "S", "seconds per compiled test (default {})",
         within(&C::limits, number(&RunLimits::timeoutSeconds))},
    },
    "Exit status: 0 no test fails on either path, 1 some test fails, 2 an "
    "error."};

constexpr const char *kDefaultTestDir = "/usr/share/libonnx-testdata/data/node";

void printCases(const ConformanceReport &report) {
  for (const ConformanceCase &c : report.cases) {
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
    std::printf("%s: %d pass, %d fail, %d unsupported\n", path ? "mlir" : "ref",
                report.count(path, CaseStatus::Pass),
                report.count(path, CaseStatus::Fail),
                report.count(path, CaseStatus::Unsupported));
  int scope = report.inScope(),
      imported = report.count(0, CaseStatus::Pass, true) +
                 report.count(0, CaseStatus::Fail, true);
  std::printf("in DL-inference scope: %d of %d tests, %d imported (%.1f%%)\n",
              scope, int(report.cases.size()), imported,
              scope ? 100.0 * imported / scope : 0.0);
}
int exportGraph(ExportFlags &o, const Args &args) {
  if (!args.has("--output"))
    return fail("export-onnx needs -o DIR");
  auto graph = loadAnyGraph(args.positional[0]);
  if (!graph)
    return fail(graph.error());
  Inputs inputs = makeInputs(*graph, o.seed, InputOptions{});
  auto outputs = interpret(*graph, inputs);
  if (!outputs)
    return fail(outputs.error());
  if (Error e = exportOnnx(*graph, inputs, *outputs, o.output))
    return fail(e);
  return kExitPass;
}

int runConformance(ConformanceFlags &o, const Args &args) {
  if (o.cut == "none")
    o.cut.clear();
  std::string dir =
      args.positional.empty() ? kDefaultTestDir : args.positional[0];
  auto report = runOnnxConformance(dir, o);
  if (!report)
    return fail(report.error());
  int failures =
      report->count(0, CaseStatus::Fail) + report->count(1, CaseStatus::Fail);
  if (o.json)
    std::cout << jsonText(report->toJson(), 2) << "\n";
  else
    printCases(*report);
  return failures ? kExitFinding : kExitPass;
}

} // namespace

int exportOnnxCommand(const Argv &argv) {
  return parseAndRun(kExportOnnx, argv, exportGraph);
}

int onnxConformanceCommand(const Argv &argv) {
  return parseAndRun(kConformance, argv, runConformance);
}

} // namespace cc::cli
