// crosscheck emit-mlir: the TOSA module of a graph.
#include "backends/mlir/MlirBackend.h"
#include "backends/onnx/Onnx.h"
#include "core/File.h"
#include "core/Json.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/Options.h"

#include <iostream>

namespace cc::cli {

namespace {
struct EmitFlags {
  std::string syntax = "22", output = "-";
};

const Command<EmitFlags> kEmitMlir{
    "emit-mlir",
    "crosscheck emit-mlir GRAPH.json [--syntax=22|19] [-o FILE]",
    {1, 1, "expects one GRAPH.json"},
    "Prints the graph as an MLIR module of TOSA ops: func.func @<graph name>\n"
    "with the graph inputs as arguments and the outputs as results.",
    {
        {"--syntax", "", "N",
         "TOSA syntax of this MLIR release: {} (default) or 19 (mlir-opt-19)",
         choice(&EmitFlags::syntax, {"22", "19"})},
        {"--output", "-o", "FILE", "write the module to FILE ('-': stdout)",
         text(&EmitFlags::output)},
    },
    ""};
int emitMlir(EmitFlags &o, const Args &args) {
  auto graph = loadAnyGraph(args.positional[0]);
  if (!graph)
    return fail(graph.error());
  auto text = emitModule(*graph, std::stoi(o.syntax));
  if (!text)
    return fail(text.error());
  if (o.output == "-")
    return std::cout << *text, kExitPass;
  if (Error e = writeFile(o.output, *text))
    return fail(e);
  return kExitPass;
}

} // namespace

int emitMlirCommand(const Argv &argv) {
  return parseAndRun(kEmitMlir, argv, emitMlir);
}

} // namespace cc::cli
