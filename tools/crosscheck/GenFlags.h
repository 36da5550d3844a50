// The generator's knobs as command-line flags, shared by `gen` and `fuzz`.
#pragma once

#include "generators/Precision.h"
#include "generators/Program.h"
#include "generators/Topology.h"
#include "tools/crosscheck/FlagTable.h"

#include <vector>

namespace cc::cli {

// --ops, --family, --dtype, --include, --exclude, --ranks, --max-elements.
FlagTable<GenOptions> generatorFlags();
// --program-ops, --program-dtype, --program-weights (the mid-level
// program generator's knobs).
FlagTable<ProgramOptions> programFlags();
// A precision variant: f16, bf16, mixed, int8, int16 (gen, fuzz).
Expected<PrecisionKind> parsePrecision(const std::string &flag,
                                       const std::string &text);

} // namespace cc::cli
