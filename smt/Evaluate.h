// Oracle (b) of mid-level programs: a program's outputs on concrete inputs
// computed from its translation-validation encoding (integers exact, floats
// in Z3's IEEE theory), with no lowering, LLVM or JIT in the way. It is
// exact where the encoding is: an element whose value depends on an
// uninterpreted function (exp, log, ...) or op is open, not computed.
// This header includes no MLIR or Z3 headers.
#pragma once

#include "backends/Backend.h"

#include <string>
#include <vector>

namespace cc::smt {

struct Evaluation {
  // The program's results; elements that are not `known` hold 0.
  Outputs outputs;
  // Per result, per element: the value was computed (defined, exact).
  std::vector<std::vector<bool>> known;
  // Non-empty when the program is undefined on these inputs or a result
  // element is poison: what (a generated program never is, by
  // construction: docs/PROGRAMS.md).
  std::string undefined;
  // Why some elements are open: the uninterpreted functions and ops.
  std::string open;
};

// One evaluation per input set. A program the encoding does not cover is
// an ErrorCode::Unsupported error naming the op; unparsable text is an
// error.
std::vector<Expected<Evaluation>> evaluateProgram(const MlirProgram &program,
                                                  const InputSets &sets);

} // namespace cc::smt
