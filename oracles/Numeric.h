// The numeric oracle: judges a compiler's outputs against the f64 reference.
//
// The allowed error of an output is not a fixed rtol. It follows from
//  - the output dtype's epsilon times the number of rounding steps that can
//    accumulate into the output (its accumulation length: matmul adds C,
//    conv2d KH*KW*C, a reduction its axis size, pooling its window, composed
//    along the graph), and
//  - the error of the reference run once more in the target precision
//    (rounded after every op): a compiler may be as inaccurate as a faithful
//    evaluation in the declared dtypes, times a margin.
// An element mismatches when the compiler's error exceeds both. NaN and Inf
// must agree in position (and sign for Inf) with the reference in either
// precision; integers and booleans must be exact (integers computed from
// floats, like argmax or a float compare, may match either reference).
#pragma once

#include "backends/Backend.h"
#include "backends/ref/Interpreter.h"
#include "core/Graph.h"
#include "oracles/Verdict.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cc {

// The error model of one graph value.
struct ValueErrorModel {
  // Rounding steps that can accumulate into one element, relative to the
  // magnitude of the terms (0 for exact values such as inputs).
  double accumulation = 0;
  // An integer or boolean value computed from floats (argmax, compares,
  // casts): a float rounding difference may legitimately flip it.
  bool floatDerived = false;
};

// The model of every value of a graph, indexed by ValueId.
std::vector<ValueErrorModel> analyzeErrors(const Graph &g);

struct NumericOptions {
  // The compiler may be this many times less accurate than the reference
  // evaluated in the target precision.
  double margin = 4;
  // Allowed relative error per accumulated rounding step, in epsilons.
  double epsPerStep = 2;
};

// Per graph value, the relative error the oracle permits its float
// elements: epsPerStep epsilons of its dtype per accumulated rounding step
// (0 for integers, inputs and constants, which no compiler rounds). For
// Latitude::permittedError: a value that close to a step leaves it open.
std::vector<double> permittedErrors(const Graph &g,
                                    const NumericOptions &o = {});

// One output's expected type, error model and name.
struct OutputSpec {
  std::string name;
  TensorType type;
  ValueErrorModel model;
};
std::vector<OutputSpec> outputSpecs(const Graph &g);

struct OutputReport {
  std::string name;
  TensorType type;
  bool ok = true;
  int64_t mismatches = 0;
  // Over the elements where both sides are finite.
  double maxAbsError = 0;
  double maxRelError = 0;
  uint64_t maxUlp = 0; // in the output dtype (integers: absolute difference)
  // Elements the target-precision reference could not calibrate (it
  // overflowed or produced NaN where the f64 reference is finite); any
  // finite actual value is accepted there.
  int64_t uncalibrated = 0;
  // Elements accepted by what TOSA leaves open (Latitude): undefined ones
  // (any value), and ones that match the other sign of an open zero.
  int64_t undefined = 0;
  int64_t otherZeroSign = 0;

  // The tolerance that was applied.
  double accumulation = 0;
  double relTolerance = 0; // epsPerStep * eps * max(1, accumulation)
  double absTolerance = 0; // the floor from the tensor's scale and calibration
  double maxTargetError = 0; // max |reference in target precision - f64|

  // The first mismatching element (flat index -1 when none).
  struct Mismatch {
    int64_t flatIndex = -1;
    std::vector<int64_t> index;
    double expected = 0; // f64 reference
    double actual = 0;
    double targetExpected = 0; // reference in target precision
    double allowed = 0;        // allowed absolute error at this element
    std::string reason;        // "value", "nan-inf", "exact", "type"
  } first;
};

struct NumericReport {
  bool ok = true;
  std::vector<OutputReport> outputs;
  // One line: "ok" or the first mismatch with its numbers.
  std::string summary() const;
  nlohmann::json toJson() const;
};

// Judges `actual` against the f64 reference `ref` and the reference in
// target precision `refTarget` (both from cc::interpret). Output counts,
// dtypes or shapes that differ from the specs are mismatches too. With
// `magnitudes` (cc::interpret's, for ref), an element's relative bound
// applies to the magnitude of its terms where that exceeds |expected|: a
// result of cancellation is as accurate as its terms, not as itself. With
// `latitude` (cc::interpret's, for ref), an element TOSA leaves undefined
// matches anything, and one that matches the other sign of an open zero
// (and what follows from it) is judged against that choice.
NumericReport judgeNumeric(const std::vector<OutputSpec> &specs,
                           const Outputs &actual, const Outputs &ref,
                           const Outputs &refTarget,
                           const NumericOptions &options = {},
                           const Outputs *magnitudes = nullptr,
                           const Latitude *latitude = nullptr);
inline NumericReport judgeNumeric(const Graph &g, const Outputs &actual,
                                  const Outputs &ref, const Outputs &refTarget,
                                  const NumericOptions &options = {},
                                  const Outputs *magnitudes = nullptr,
                                  const Latitude *latitude = nullptr) {
  return judgeNumeric(outputSpecs(g), actual, ref, refTarget, options,
                      magnitudes, latitude);
}

// The miscompile finding for a failed report: the signature names the op
// and dtype that produced the first mismatching output.
Finding miscompileFinding(const Graph &g, const NumericReport &report,
                          const std::string &backend);

// Distance in units in the last place between two values of float dtype t
// (both rounded to t first); 0 for equal values and for ±0.
uint64_t ulpDistance(DType t, double a, double b);

} // namespace cc
