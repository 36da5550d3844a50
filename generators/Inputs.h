// Deterministic input tensors for a graph.
#pragma once

#include "backends/Backend.h"
#include "core/Graph.h"

#include <cstdint>

namespace cc {

struct InputOptions {
  // Share of elements drawn from the edge values (+-0, +-1, +-2, exact
  // halves, the top of an integer domain).
  double edgeRate = 0.15;
  // Share of float elements, among inputs whose consumers accept any value,
  // that are +-Inf, NaN or denormal: the values NaN-unsafe folds get wrong.
  double specialRate = 0.0;
};

// One tensor per graph input, a pure function of (graph, seed, options).
// Values respect the value domains (OpDef::domains) of the ops that consume
// an input directly (log's positive operand, intdiv's non-zero divisor,
// shift amounts below the bit width, gather indices in range) and mix in
// edge values at the rates of `options`.
Inputs makeInputs(const Graph &g, uint64_t seed,
                  const InputOptions &options = {});

} // namespace cc
