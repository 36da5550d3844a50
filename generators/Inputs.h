// Deterministic input tensors for a graph.
#pragma once

#include "backends/Backend.h"
#include "core/Graph.h"

#include <cstdint>

namespace cc {

// One tensor per graph input, a pure function of (graph, seed). Values
// respect the value domains (OpDef::domains) of the ops that consume an
// input directly (log's positive operand, intdiv's non-zero divisor, shift
// amounts below the bit width, gather indices in range) and mix in edge
// values (+-0, +-1, small integers, exact halves).
Inputs makeInputs(const Graph &g, uint64_t seed);

} // namespace cc
