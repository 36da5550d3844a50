// crosscheck emit-mlir: the TOSA module of a graph.
#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Onnx.h"
#include "core/Json.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <iostream>

namespace cc::cli {

namespace {
const Command kEmitMlir{
    "emit-mlir",
    "crosscheck emit-mlir GRAPH.json [--syntax=22|19] [-o FILE]",
    "Prints the graph as an MLIR module of TOSA ops: func.func @<graph name>\n"
    "with the graph inputs as arguments and the outputs as results.",
    {
        {"--syntax", "", "N",
         "TOSA syntax of this MLIR release: 22 (default) or 19 (mlir-opt-19)"},
        {"--output", "-o", "FILE", "write the module to FILE ('-': stdout)"},
    },
    ""};
} // namespace

int emitMlirCommand(const Argv &argv) {
  Args parsed;
  if (std::optional<int> status = parseCommand(kEmitMlir, argv, parsed))
    return *status;
  const Args *args = &parsed;
  std::string syntax = args->get("--syntax", "22");
  if (syntax != "22" && syntax != "19")
    return fail("flag '--syntax': expected 22 or 19, got '" + syntax + "'");

  auto graph = loadAnyGraph(args->positional[0]);
  if (!graph)
    return fail(graph.error());
  auto text = emitModule(*graph, std::stoi(syntax));
  if (!text)
    return fail(text.error());
  std::string out = args->get("--output", "-");
  if (out == "-")
    return std::cout << *text, kExitPass;
  if (Error e = writeFile(out, *text))
    return fail(e);
  return kExitPass;
}

} // namespace cc::cli
