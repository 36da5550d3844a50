// Edge values: the element values where kernels, folds and lowerings tend to
// go wrong (signed zeros, +-1, rounding ties, integer extremes, Inf, NaN,
// denormals), for every generator that mixes them into tensors.
//
// Each use keeps its own selection and order: draws index these lists, so
// the order is part of the graph a seed gives.
#pragma once

#include "core/DType.h"

#include <cstdint>
#include <vector>

namespace cc {

// Who mixes the edge values in.
enum class EdgeUse {
  Input,    // generated inputs and sampled constants (makeInputs)
  Constant, // the topology generator's constants
  Splat,    // a constant turned into a splat of one value (fuzz mutator)
};

// Finite float edge values of d. Every use: +-0, +-1 and 0.5. Inputs add
// -0.5, +-2, the ties +-1.5 and +-2.5 of round-to-nearest-even and +-the
// value just below 0.5 (0.49999997 in f32); constants add -0.5 and a tie
// of each rounding direction (2.5 down, -1.5 away from zero); splats add 2.
std::vector<double> floatEdges(DType d, EdgeUse use);

// Non-finite and extreme float values of d: +-Inf, NaN, a denormal, then
// the largest finite value (constants) or the negative denormal (others).
std::vector<double> floatSpecials(DType d, EdgeUse use);

// Integer edge values of d. Inputs: 0, +-1, +-2 and, with `extremes`, the
// minimum, maximum, minimum + 1 and maximum - 1; constants: the minimum,
// maximum, -1, 0 and 1, wrapped to d; splats: 0, 1, -1, 2, the minimum and
// maximum (0 and 1 for i1).
std::vector<int64_t> intEdges(DType d, EdgeUse use, bool extremes = true);

// The edge values of any dtype as doubles: floatEdges for floats, intEdges
// for integers.
std::vector<double> edgeValues(DType d, EdgeUse use);

} // namespace cc
