// The reference interpreter: runs a graph with the op table's reference
// semantics (TOSA 1.0). Floats are computed in f64, or rounded to each
// value's dtype after every op (Precision::Target, used for calibration);
// integers are exact. Undefined behaviour is reported as an error with
// ErrorCode::Undefined, never computed.
#pragma once

#include "backends/Backend.h"
#include "core/OpTable.h"

namespace cc {

// What the specification leaves open about the reference's outputs (the
// freedoms of OpDef::freedoms, carried through the graph): the numeric
// oracle accepts any permitted choice, not only the one interpret() made.
struct Latitude {
  // In: per graph value, the relative error the numeric oracle permits its
  // float elements (cc::permittedErrors, oracles/Numeric.h); empty: none.
  // An op with a step (Freedoms::openWithin: floor, a cast to an integer,
  // a comparison, argmax) whose float operand is that close to the step
  // leaves the element undefined below: either side is permitted.
  std::vector<double> permittedError;
  // Per output: 1 for an element TOSA leaves undefined, because an op made
  // it undefined or it depends on such an element (any value is
  // permitted). Empty vectors: none.
  std::vector<std::vector<uint8_t>> undefined;
  // The outputs when every op whose zero result's sign is open picks the
  // other sign (so 1 / reduce_sum(...) may be -Inf as well as +Inf);
  // empty when no such op produced a zero.
  Outputs otherZeroSign;
};

// Evaluates every node; returns the values of Graph::outputs. Under
// Precision::F64 float outputs are f64 tensors.
//
// With `magnitudes` (Precision::F64 only), also the magnitude of the terms
// behind each element of each output, for the numeric oracle: a
// cancellation (a - b with a close to b) leaves a small result whose
// rounding error is relative to |a| + |b|, not to the result. As each op's
// OpDef::magnitude says, sums and products (add, sub as add, mul, matmul,
// the convolutions, reduce_sum, avg_pool2d) are evaluated once more on their
// float operands' magnitudes; data movement, negate, abs, select and float
// casts carry them; every other op starts again from |its result|. One f64
// tensor per float output (integer outputs: their values).
//
// With `latitude` (Precision::F64 only), also what TOSA leaves open about
// the outputs (see Latitude); the other zero signs cost a second
// evaluation, only when some op's zero result has an open sign.
Expected<Outputs> interpret(const Graph &g, const Inputs &inputs,
                            Precision precision = Precision::F64,
                            Outputs *magnitudes = nullptr,
                            Latitude *latitude = nullptr);

// The reference as a Backend ("ref"). Its float outputs are f64.
class RefBackend : public Backend {
public:
  explicit RefBackend(Precision p = Precision::F64) : precision(p) {}
  std::string name() const override {
    return precision == Precision::F64 ? "ref" : "ref-target";
  }
  Support supports(const Graph &) const override { return Support::yes(); }
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override;

private:
  Precision precision;
};

} // namespace cc
