// Runs a textual pass pipeline on MLIR text in-process and keeps the module
// as it was before and after every pass, so that a bug report can show the
// IR a culprit pass received and what it made of it. This header includes
// no MLIR headers.
#pragma once

#include "core/Error.h"

#include <string>
#include <vector>

namespace cc {

struct PassStep {
  std::string pass;          // its pipeline argument, "canonicalize"
  std::string before, after; // the whole module, printed
};

// Every pass that ran, in order (adaptors such as func.func(...) are left
// out). MLIR text that does not parse or verify, an invalid pipeline or a
// failing pass is an Error carrying MLIR's diagnostics. Passes must already
// be registered (cc_mlir registers the upstream ones; tools register more).
Expected<std::vector<PassStep>> tracePipeline(const std::string &module,
                                              const std::string &pipeline);

} // namespace cc
