// One place that turns a backend spec from the command line into a Backend:
//   ref                  the reference interpreter (f64)
//   mlir:..., mlir-ext:...  the MLIR backend (see backends/mlir/MlirBackend.h)
// Further backends (torch, torchscript, cuda) register their specs here.
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <string>

namespace cc {

// An unknown spec is an error that lists the known forms.
Expected<std::unique_ptr<Backend>> makeBackend(const std::string &spec);

// The accepted spec forms, one per line, for --help texts.
std::string backendSpecHelp();

} // namespace cc
