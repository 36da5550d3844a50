// The reference interpreter: runs a graph with the op table's reference
// semantics (TOSA 1.0). Floats are computed in f64, or rounded to each
// value's dtype after every op (Precision::Target, used for calibration);
// integers are exact. Undefined behaviour is reported as an error with
// ErrorCode::Undefined, never computed.
#pragma once

#include "backends/Backend.h"
#include "core/OpTable.h"

namespace cc {

// Evaluates every node; returns the values of Graph::outputs. Under
// Precision::F64 float outputs are f64 tensors.
Expected<Outputs> interpret(const Graph &g, const Inputs &inputs,
                            Precision precision = Precision::F64);

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
