// Numbers as text, for messages, reports and generated programs.
#pragma once

#include <string>

namespace cc {

// `v` through one printf conversion: "%.17g" (round-trips a double),
// "%.6g", "%.1f", ...
std::string formatDouble(const char *format, double v);

} // namespace cc
