// The generator's knobs as command-line flags, shared by `gen` and `fuzz`.
#pragma once

#include "generators/Topology.h"
#include "tools/crosscheck/Options.h"

#include <string>
#include <utility>
#include <vector>

namespace cc::cli {

// --ops, --family, --dtype, --include, --exclude, --ranks, --max-elements.
std::vector<Flag> generatorFlags();
Expected<GenOptions> generatorOptions(const Args &args);

std::vector<std::string> splitList(const std::string &text);
// MIN..MAX, each at most `max`.
Expected<std::pair<int, int>> parseRange(const std::string &flag,
                                         const std::string &text, int max);

} // namespace cc::cli
