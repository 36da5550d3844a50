#include "backends/Registry.h"

#include "backends/cuda/Cuda.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "backends/torch/Torch.h"
#include "core/Quote.h"

#include <algorithm>

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

bool specRunsCommand(const std::string &spec) {
  return spec.starts_with("mlir-ext");
}

Error checkTrustedSpec(const std::string &spec, const std::string &source,
                       const std::vector<std::string> &named,
                       bool trustCommands) {
  if (!specRunsCommand(spec) || trustCommands ||
      std::find(named.begin(), named.end(), spec) != named.end())
    return Error::success();
  return makeError("not run: the compiler of " + source + " is the command '" +
                   spec +
                   "', taken from the file; name it on the command line "
                   "(--cut " +
                   shellWord(spec) + ") or pass --trust-commands to run it");
}

} // namespace cc
