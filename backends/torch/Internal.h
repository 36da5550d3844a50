// Internal interfaces of the LibTorch backends. The host side (Backend.cpp:
// the backends, supports(), the isolated worker; Loader.cpp) links no
// LibTorch: it reaches Eager.cpp and Script.cpp, built into the plugin
// crosscheck-torch.so, through the table of functions TorchApi.
#pragma once

#include "backends/Backend.h"

#include <string>
#include <vector>

namespace at {
class Tensor;
}

namespace cc::torchbackend {

// --- in the plugin (Eager.cpp, Script.cpp)

// Whether the lowering table has an entry for `op`.
bool canLower(OpId op);
std::vector<OpId> lowerableOps();

// Converts between our buffers and LibTorch tensors (same dtype, copied).
at::Tensor toTorch(const Tensor &t);
Expected<Tensor> fromTorch(const at::Tensor &t, const TensorType &declared);

// Runs the graph's nodes with LibTorch operators on `inputs` (one per graph
// input) and returns the graph outputs. Throws c10::Error when LibTorch
// rejects an op; a lowering that produced the wrong type is an Error.
Expected<std::vector<at::Tensor>>
lowerGraph(const Graph &g, const std::vector<at::Tensor> &inputs);

// The eager backend's run (in-process; exceptions become errors).
Expected<Outputs> runEager(const Graph &g, const Inputs &inputs,
                           StageTimes *times);

// The TorchScript backend's run in this process: trace, freeze, optimize,
// execute. Failures of LibTorch after tracing are ErrorCode::CompilerFailure;
// `onStage` is told each stage ("trace", "freeze", ...) before it starts.
Expected<Outputs> runScripted(const Graph &g, const Inputs &inputs,
                              StageTimes *times, void (*onStage)(const char *));

// Compiles and runs a tiny module once in this process, so that forked
// workers start with LibTorch's one-time JIT set-up done (it would
// otherwise cost every worker about 0.1 s).
void warmUpScripting();

// Called first in a forked worker: LibTorch's OpenMP pool does not survive
// fork(), so the worker computes on its own thread.
void prepareForkedWorker();

// saveTorchScript of Torch.h.
Error saveScripted(const Graph &g, const Inputs &inputs,
                   const std::string &modelPath, const std::string &inputsPath);

// --- the boundary

// The plugin's functions. Host and plugin come from one build; `version`
// catches a stale plugin from another.
struct TorchApi {
  int version;
  bool (*canLower)(OpId op);
  std::vector<OpId> (*lowerableOps)();
  Expected<Outputs> (*runEager)(const Graph &, const Inputs &, StageTimes *);
  Expected<Outputs> (*runScripted)(const Graph &, const Inputs &, StageTimes *,
                                   void (*)(const char *));
  void (*warmUpScripting)();
  void (*prepareForkedWorker)();
  Error (*saveScripted)(const Graph &, const Inputs &, const std::string &,
                        const std::string &);
};
inline constexpr int kTorchApiVersion = 2;

// The host side (Loader.cpp): loads the plugin on first use, once.
Expected<const TorchApi *> torchApi();

} // namespace cc::torchbackend

// The plugin's one exported symbol (Plugin.cpp), found with dlsym.
extern "C" const cc::torchbackend::TorchApi *ccTorchApi();
