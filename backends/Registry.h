// One place that turns a backend spec from the command line into a Backend:
//   ref                  the reference interpreter (f64)
//   mlir:..., mlir-ext:...  the MLIR backend (see backends/mlir/MlirBackend.h)
// Further backends (torch, torchscript, cuda) register their specs here.
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <string>
#include <vector>

namespace cc {

// An unknown spec is an error that lists the known forms.
Expected<std::unique_ptr<Backend>> makeBackend(const std::string &spec);

// The accepted spec forms, one per line, for --help texts.
std::string backendSpecHelp();

// Whether running `spec` runs a command that the spec itself names
// (mlir-ext:CMD). Such a spec read from a file (a finding, a store) runs
// only when the user names it on the command line (docs/SECURITY.md).
bool specRunsCommand(const std::string &spec);
// An error, naming `source` and the flags that would allow it, when `spec`
// runs a command and is neither one of `named` (the user's --cut flags)
// nor allowed by trustCommands (--trust-commands).
Error checkTrustedSpec(const std::string &spec, const std::string &source,
                       const std::vector<std::string> &named,
                       bool trustCommands);

} // namespace cc
