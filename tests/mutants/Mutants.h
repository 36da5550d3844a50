// Deliberately wrong MLIR passes, for tests only: each one is a real pass
// over TOSA IR (or, programMutantPasses, over mid-level MLIR) that makes a
// plausible-looking but unsound rewrite, so tests can prove that the oracles
// notice miscompiles. User-facing tools never register them unless explicitly
// asked.
#pragma once

#include <string>
#include <vector>

namespace cc {

// Registers every mutant pass with MLIR's global pass registry, so that a
// pipeline string can name it:
//   builtin.module(func.func(cc-mutant-mul-zero),<rest of tosa-O0>)
// Also registers `cc-crash-on-transpose`, which is not a mutant but a pass
// that dies of SIGSEGV when the IR holds a tosa.transpose (for the crash
// oracle's tests). Safe to call more than once.
void registerMutantPasses();

struct MutantInfo {
  std::string name;        // pass argument, "cc-mutant-mul-zero"
  std::string description; // what it breaks
};
const std::vector<MutantInfo> &mutantPasses();
// Mutants of mid-level programs (one each in arith folding, scf loops and
// vector transfers), for the program generator's tests; registered with
// the others.
const std::vector<MutantInfo> &programMutantPasses();

} // namespace cc
