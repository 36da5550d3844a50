// The standalone repro.sh of a bug bundle: it reruns the compiler under
// test with upstream tools only (mlir-opt and mlir-runner; the external
// compiler's own command; or LibTorch), shows a failing, crashing or hanging
// tool as the bug, and compares the printed outputs with the expected values.
// Exit status: 1 while the bug is present, 0 once it is fixed, 2 when the
// tools are missing.
#pragma once

#include <string>

namespace cc::repro {

// The expected values (expected.txt: one line per output element, OUT INDEX
// KIND EXPECTED ALLOWED ALT, see BundleExpected.cpp) and the script's
// one-line title. A script that compares ships compare.awk
// (compareProgram()) and expected.txt beside it.
struct Check {
  std::string title;
  std::string table;
  bool compare; // false: no expected values, running without a failure is OK
};

// compare.awk: judges what the program printed against expected.txt, prints
// expected versus actual and exits 1 when an element differs, 0 otherwise.
const char *compareProgram();
// The first line of expected.txt, naming its columns.
inline const char *expectedHeader() {
  return "# output element dtype expected allowed-error also-accepted\n";
}

// mlir-opt with `pipeline`, then mlir-runner at -O`optLevel`, on repro.mlir
// (which has @repro_main printing every output element).
std::string mlirScript(const Check &check, const std::string &pipeline,
                       int optLevel);

// An external compiler: `command` reads `input` (a file name of the
// bundle's own, tosa.mlir or program.mlir) on stdin; driver.mlir
// (@repro_main) is added to its output, which mlir-opt completes with
// `completion` and mlir-runner runs. An older release's output
// (syntaxVersion 19) is first rewritten as MLIR 22 spells it, as crosscheck
// reads it (fromOlderSyntax).
std::string externalScript(const Check &check, const std::string &command,
                           const std::string &input,
                           const std::string &completion, int optLevel,
                           int syntaxVersion = 22);

// TorchScript: builds repro.cpp (torchProgram()) against LibTorch and runs it
// on model.pt and inputs.pt.
std::string torchScript(const Check &check);
const char *torchProgram();

} // namespace cc::repro
