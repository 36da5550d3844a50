// The isolated worker's answer to the process that forked it (Isolate.cpp):
// whether it ran, its own wall time, stage times and pass coverage, then
// the outputs or the error (code, message and CompilerFault), as a flat
// little-endian byte string.
#pragma once

#include "backends/Backend.h"

#include <string>
#include <vector>

namespace cc::mlirbackend {

std::string encodeResult(const Expected<Outputs> &out, double workerSeconds,
                         const StageTimes &times, const PassCoverage &coverage);

// The worker's outputs (of resultTypes) or error; an error too when the
// bytes are malformed.
Expected<Outputs> decodeResult(const std::string &bytes,
                               const std::vector<TensorType> &resultTypes,
                               double &workerSeconds, StageTimes &times,
                               PassCoverage &coverage);

} // namespace cc::mlirbackend
