// The entry point of crosscheck-torch.so, the one module that links
// LibTorch: its functions for the host (Loader.cpp).
#include "backends/torch/Internal.h"

using namespace cc::torchbackend;

extern "C" __attribute__((visibility("default"))) const TorchApi *ccTorchApi() {
  static const TorchApi api{.version = kTorchApiVersion,
                            .canLower = canLower,
                            .lowerableOps = lowerableOps,
                            .runEager = runEager,
                            .runScripted = runScripted,
                            .warmUpScripting = warmUpScripting,
                            .prepareForkedWorker = prepareForkedWorker,
                            .saveScripted = saveScripted};
  return &api;
}
