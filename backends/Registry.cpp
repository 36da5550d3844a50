#include "backends/Registry.h"

#include "backends/cuda/Cuda.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "backends/torch/Torch.h"

namespace cc {

Expected<std::unique_ptr<Backend>> makeBackend(const std::string &spec) {
  if (spec == "ref")
    return std::unique_ptr<Backend>(std::make_unique<RefBackend>());
  if (spec.starts_with("mlir:") || spec.starts_with("mlir-ext"))
    return makeMlirBackend(spec);
  if (spec.starts_with("cuda:"))
    return makeCudaBackend(spec);
  if (spec == "cudnn")
    return makeCudaLibraryReference();
  if (spec == "torch")
    return makeTorchBackend();
  if (spec == "torchscript")
    return makeTorchScriptBackend();
  return Error::failure("unknown backend '" + spec +
                        "' (known: " + backendSpecHelp() + ")");
}

std::string backendSpecHelp() {
  return "ref, mlir:NAME, mlir:pipeline=TEXT, mlir-ext:CMD, cuda:NAME, cudnn, "
         "torch, torchscript";
}

} // namespace cc
