// The MLIR backend: emits a graph as a func.func of TOSA ops, lowers it
// through a pass pipeline to the LLVM dialect and runs it in-process with
// MLIR's ExecutionEngine. This header includes no MLIR headers, so its users
// stay cheap to compile.
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <string>
#include <vector>

namespace cc {

// The TOSA module of a graph: `func.func @<graph name>` whose arguments are
// the graph inputs and whose results are the graph outputs. syntaxVersion
// selects the MLIR release whose TOSA syntax is written (22, or 19).
Expected<std::string> emitModule(const Graph &g, int syntaxVersion = 22);

struct NamedPipeline {
  std::string name;     // "tosa-O0"
  std::string summary;  // one line for --help
  std::string pipeline; // textual pass pipeline from TOSA to the LLVM dialect
  int llvmOptLevel;     // LLVM -O level used by the JIT
};
const std::vector<NamedPipeline> &namedPipelines();

// Parses a compiler-under-test spec:
//   mlir:NAME            a named pipeline (mlir:tosa-O3)
//   mlir:pipeline=TEXT   any textual pass pipeline from TOSA to LLVM
//   mlir-ext:CMD         an external *-opt compatible command line; it reads
//                        the TOSA module on stdin and writes MLIR on stdout
//                        (e.g. "mlir-opt-19 --tosa-to-linalg ..."), the
//                        result is lowered to LLVM and run in-process
// An invalid spec or pipeline string is an error that says what is wrong.
Expected<std::unique_ptr<Backend>> makeMlirBackend(const std::string &spec);

} // namespace cc
