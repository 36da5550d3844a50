// LibTorch backends. This header includes no LibTorch headers, so its users
// stay cheap to compile, and its users link no LibTorch: it lives in the
// plugin crosscheck-torch.so, loaded on first use. Each function fails with
// a clear Error when the plugin cannot be loaded.
//
//   torch        LibTorch eager operators: a second reference, independent
//                of our interpreter, computing in the graph's own dtypes
//                (f16/bf16 results rounded per op, as a compiler would) with
//                TOSA 1.0 semantics where PyTorch's differ.
//   torchscript  a compiler under test: the same lowering traced into a
//                TorchScript module, frozen, optimize_for_inference'd and run
//                by the profiling executor with the TensorExpr fuser (NNC)
//                enabled on CPU.
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <string>
#include <vector>

namespace cc {

Expected<std::unique_ptr<Backend>> makeTorchBackend();
Expected<std::unique_ptr<Backend>> makeTorchScriptBackend();

// Saves what a standalone LibTorch program needs to rerun the torchscript
// backend on (g, inputs), for a bug report: the traced module before
// freezing (a TorchScript archive for torch::jit::load) and the inputs as
// a pickled tuple of tensors (torch::pickle_load).
Error saveTorchScript(const Graph &g, const Inputs &inputs,
                      const std::string &modelPath,
                      const std::string &inputsPath);

// Op-table ops the LibTorch lowering covers, in OpId order.
Expected<std::vector<OpId>> torchOps();

} // namespace cc
