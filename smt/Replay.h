// Running a function pair through the JIT, internal to cc_smt: the replay
// of a counterexample (Replay.cpp) and, for programs too large to refine,
// a comparison on random inputs (RandomExecution.cpp). MLIR and the JIT
// only: no Z3 here.
#pragma once

#include "backends/Backend.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class Type;
namespace func {
class FuncOp;
}
} // namespace mlir

namespace cc::smt::detail {

using Shapes = std::vector<std::vector<int64_t>>;
// Per output, whether each element is compared.
using Mask = std::vector<std::vector<bool>>;

// The dtype of a type's elements; nothing for index and types the JIT
// does not run.
std::optional<DType> dtypeOf(mlir::Type t);

// How a replay ended.
struct Replay {
  // SourceFailed: only the target ran (the source's lowering failed).
  enum Kind { Differ, Agree, TargetFailed, SourceFailed, NotRun } kind;
  std::string why;
  Outputs target = {}; // the target's outputs, where it ran
  // Differ, but only by what roundingTolerance allows.
  bool withinRounding = false;
};

// A value as a counterexample shows it: integral values exactly, others
// with 9 significant digits.
std::string fmtValue(double d);

// A tolerance for two compiled programs that may round differently (a
// float sum in another order), relative to each output's largest
// magnitude: 16 epsilons of the coarsest float result (bf16: 0.125), at
// least 1e-3. Not the numeric oracle's error model (oracles/Numeric.h):
// no reference says which rounding is right.
double roundingTolerance(mlir::func::FuncOp src);

// How memref arguments are passed, per argument: `unmapped`, a pointer to
// unmapped memory (any access faults: the counterexample makes it
// non-dereferenceable); `sameAs`, the buffer of that earlier argument
// (aliased arguments), -1 for one of its own.
struct ArgMemory {
  std::vector<bool> unmapped;
  std::vector<int> sameAs;
  bool isUnmapped(size_t i) const { return i < unmapped.size() && unmapped[i]; }
  int alias(size_t i) const { return i < sameAs.size() ? sameAs[i] : -1; }
};

// Replays `inputs` (one per argument; memref arguments as tensors of their
// contents) through the JIT and compares both sides' outputs (results,
// then the final contents of memref arguments, of `outShapes`) where
// `mask` says so. With a tolerance, differences within it (of the output's
// largest magnitude) are rounding, not a difference.
Replay replay(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
              const Inputs &inputs, const Shapes &outShapes, const Mask &mask,
              double tolerance = 0, const ArgMemory &memory = {});

// Both sides on each of several input sets of one shape, each side
// compiled once: per set, the source's and the target's outputs. An error
// where a side does not run on some set.
Expected<std::vector<std::pair<Outputs, Outputs>>>
replaySets(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
           const std::vector<Inputs> &sets, const Shapes &outShapes,
           const ArgMemory &memory = {});

// How far the target's float outputs are from the source's (Approximate.cpp):
// both sides run on the inputs `first` (a probe's) and on seeded ones,
// every float element at once ±0, ±inf, NaN, ±1, the largest, smallest
// normal and smallest subnormal values, and random values of every
// magnitude.
struct UlpMeasure {
  std::string notRun; // why nothing was measured
  int sets = 0;       // the input sets run
  // The largest distance seen, in units in the last place of the source's
  // result (an infinity is the value after the largest finite one).
  double maxUlp = 0;
  // The sides differ where no distance is finite: a NaN for a number or a
  // number for a NaN (but at ±0 and ±inf inputs), an integer output. `at`
  // shows where.
  std::string exactMiss; // what differs, or empty
  std::string at;        // the inputs and the element of maxUlp or the miss
  // The first NaN for a number (or the reverse) at ±0 or ±inf inputs,
  // where MLIR defines no value: shown, not measured.
  std::string open;
};
UlpMeasure measureUlp(mlir::func::FuncOp src, mlir::func::FuncOp tgt,
                      const Inputs &first, const Shapes &outShapes,
                      const Mask &mask, const ArgMemory &memory = {});

// For programs too large to refine an abstract counterexample: runs both
// sides on a few seeded random inputs of `argShapes` and compares the
// outputs of `outShapes` where `mask` says so. Only for a total source (no
// undefined behaviour or poison in its encoding): then any difference is a
// miscompile. Returns the differing inputs, formatted, or nothing.
std::optional<std::string> randomExecution(mlir::func::FuncOp src,
                                           mlir::func::FuncOp tgt,
                                           const Shapes &argShapes,
                                           const Shapes &outShapes,
                                           const Mask &mask);

} // namespace cc::smt::detail
