// Deterministic input tensors for a graph.
#pragma once

#include "backends/Backend.h"
#include "core/Graph.h"

#include <cstdint>
#include <string>

namespace cc {

struct InputOptions {
  // Share of elements drawn from the edge values (+-0, +-1, +-2, exact
  // halves, the top of an integer domain).
  double edgeRate = 0.15;
  // Share of float elements, among inputs whose consumers accept any value,
  // that are +-Inf, NaN or denormal: the values NaN-unsafe folds get wrong.
  double specialRate = 0.0;
};

// What the reference made of generated inputs, so that a case can say so.
struct InputReport {
  int attempts = 1;       // draws until the reference accepted the inputs
  bool undefined = false; // still undefined after every attempt
  std::string undefinedReason;
  bool nonFinite = false;    // some output is NaN or +-Inf on the reference
  int64_t specialInputs = 0; // input elements that are Inf, NaN or denormal
  // Inputs drawn from a narrowed range so that the values computed from
  // them stay in the domains of later ops (makeInputs only).
  int narrowedInputs = 0;
  // The propagated ranges still admit NaN or +-Inf in an output: an op that
  // may overflow even on the narrowest inputs, an unknown range, a special
  // input (makeInputs only). Unmarked cases have finite outputs.
  bool mayBeNonFinite = false;
};

// One tensor per graph input, a pure function of (graph, seed, options).
// Values respect the value domains (OpDef::domains) of the ops that consume
// an input directly (log's positive operand, intdiv's non-zero divisor,
// shift amounts below the bit width, gather indices in range) and mix in
// edge values at the rates of `options`: +-0, +-1, +-2, rounding ties (x.5)
// and the f32 value below 0.5 (0.49999997), integer extremes where the
// consumers wrap or saturate instead of overflowing. Values computed by
// earlier ops are kept in the domains of later ones through value ranges
// (generators/Ranges.h): the inputs upstream of an op whose operand may
// leave its domain, overflow, or become Inf or NaN are drawn from narrower
// ranges (no specials or integer extremes first, then halved magnitudes)
// until the ranges are safe. When the reference still finds undefined
// behaviour (a divisor computed as 0 that ranges cannot exclude), the inputs
// are drawn again with derived seeds a few times. `report`, when given, says
// how that went and whether the reference produces NaN or Inf.
Inputs makeInputs(const Graph &g, uint64_t seed,
                  const InputOptions &options = {},
                  InputReport *report = nullptr);

// The reference's verdict on given inputs (the fields of InputReport but
// `attempts`).
InputReport inspectInputs(const Graph &g, const Inputs &inputs);

// The graph with the values of its `const` nodes drawn again by the input
// machinery (domains of their consumers, edge values and specials at the
// rates of `options`), deterministic in `seed`; types stay the same.
Graph withSampledConstants(const Graph &g, uint64_t seed,
                           const InputOptions &options = {});

} // namespace cc
