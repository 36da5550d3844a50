// Mid-level MLIR programs: random, valid func.funcs over linalg, tensor,
// arith, math, scf and vector, free of undefined behaviour by construction
// (docs/PROGRAMS.md lists every guard), deterministic in the seed.
#pragma once

#include "backends/Backend.h" // Inputs (std::vector<Tensor>), Tensor
#include "core/Tensor.h"      // TensorType

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cc {

struct ProgramOptions {
  int ops = 12; // about this many ops in the function body (not counting
                // constants)
  // Element types to draw from; empty: all of i1, i8, i16, i32, i64, f16,
  // bf16, f32, f64.
  std::vector<DType> dtypes;
  // Relative weights of the families (0 disables one).
  double linalg = 1, tensor = 1, scalar = 1, scf = 1, vector = 1, memref = 1;
  // The oldest MLIR release the program must be expressible in: 22, or 19
  // (campaigns against MLIR 19 alone: the ops it lacks are left out). The
  // text is MLIR 22's either way; toOlderSyntax (backends/mlir) rewrites
  // what MLIR 19 spells differently.
  int mlirSyntax = 22;
};

// The families by name ("linalg", "tensor", "scalar", "scf", "vector",
// "memref") with their weights, in the order the generator draws them.
struct ProgramFamily {
  const char *name;
  double ProgramOptions::*weight;
};
const std::vector<ProgramFamily> &programFamilies();

struct Program {
  std::string name = "main";             // the public function
  std::string mlir;                      // a module with func.func @main
  std::vector<TensorType> args, results; // ranked, static tensors
  // Ops printed per dialect: "linalg.generic", "linalg.named", "tensor",
  // "arith", "math", "scf", "vector", "memref", "affine", "bufferization"
  // (constants, tensor.empty, terminators, linalg.index are not counted).
  std::map<std::string, int> families;
  // Ops printed by name ("linalg.matmul": 2), counted like `families`.
  std::map<std::string, int> opCounts;
  int ops = 0; // ops printed (the sum of `families`)
  // Rewrite shapes emitted ("shape.round-trip": 1): op sequences that
  // folders and canonicalization patterns match (ProgramScalar.cpp).
  std::map<std::string, int> shapes;
};

Program generateProgram(const ProgramOptions &options, uint64_t seed);

// One tensor per argument, a pure function of (program, seed): mixes edge
// values (+-0, +-1, +-2, integer extremes, for floats also +-inf, NaN,
// denormals, 0.5) with random values.
Inputs programInputs(const std::vector<TensorType> &args, uint64_t seed);
inline Inputs programInputs(const Program &p, uint64_t seed) {
  return programInputs(p.args, seed);
}

// A seed program (backends/mlir seedPrograms, MLIR as MLIR prints it) with
// `count` draws of its scalar and splat constants set to an edge value of
// their type (0, +-1, 2, the extremes, width - 1 and width; +-0, +-inf, NaN,
// a denormal), deterministic in `seed`. Only constants whose every use is
// an arith, index or math op change: not loop bounds, sizes or indices.
MlirProgram mutateSeedConstants(const MlirProgram &p, uint64_t seed, int count);

// Counts the ops of MLIR text the way Program::opCounts does: every
// "dialect.op" token of arith, math, tensor, linalg, scf, vector, memref,
// affine and bufferization but constants, tensor.empty, terminators and
// linalg.index.
std::map<std::string, int> countProgramOps(const std::string &mlir);
// The same ops' names in the order they are printed.
std::vector<std::string> programOps(const std::string &mlir);

} // namespace cc
