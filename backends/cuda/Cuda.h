// The GPU backend: lowers a graph's TOSA module through MLIR's GPU path
// (linalg -> parallel loops -> gpu.launch -> NVVM) to PTX with LLVM's NVPTX
// back-end, assembles every kernel with the CUDA toolkit's `ptxas` into a
// cubin for each target architecture, and, where a GPU is present, runs
// them through the CUDA driver API with our own launcher (plain device
// allocations, no managed memory). Without a GPU a run stops after ptxas: a
// compiler crash or a ptxas rejection is still a finding, so GPU code
// generation is fuzzed on every machine. No MLIR or CUDA headers here.
#pragma once

#include "backends/Backend.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cc {

// The architectures every kernel is compiled and ptxas-checked for.
const std::vector<std::string> &gpuArchitectures(); // {"sm_80", "sm_90"}

struct GpuPipeline {
  std::string name;     // "gpu-O3"
  std::string summary;  // one line for --help
  std::string pipeline; // textual pipeline from TOSA to gpu.binary
};
const std::vector<GpuPipeline> &gpuPipelines();

// cuda:NAME, a GPU pipeline by name. An unknown name is an error that lists
// the known ones. Runs are isolated as the MLIR backend's are (a crash in a
// pass is ErrorCode::CompilerFailure naming the pass). Stages: "emit",
// "lower", "ptxas", "launch". Without a GPU (or the CUDA driver) a run that
// compiled and passed ptxas ends in ErrorCode::Unsupported, saying so.
Expected<std::unique_ptr<Backend>> makeCudaBackend(const std::string &spec);

// The "cudnn" reference: graphs of matmul (cuBLAS) and conv2d (cuDNN) with
// constants, in f32, f16 and bf16; other graphs are unsupported. Without a
// GPU or the libraries a run is ErrorCode::Unsupported. Use it as a second
// reference (--ref cudnn) on conv/matmul graphs.
std::unique_ptr<Backend> makeCudaLibraryReference();

// The toolkit: $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda.
std::string cudaToolkitDir();

// Why the GPU cannot run kernels here ("" when it can): no driver library,
// cuInit failing, no device. Asks a short-lived child process (once per
// process), so it never initialises CUDA in the caller, which stays safe to
// fork workers that use the GPU.
std::string gpuUnavailableReason();

// ptxas on one PTX module for `arch`: a rejection is
// ErrorCode::CompilerFailure with ptxas's message, a hang ErrorCode::
// Timeout; a missing ptxas a plain error.
Error ptxasCheck(const std::string &ptx, const std::string &arch,
                 double timeoutSeconds = 60);

// What the host function does, as the launcher replays it: buffers (the
// function's arguments, allocations and constant globals) and steps (kernel
// launches and copies between views of buffers). Built from the lowered
// module; our own types so the launcher needs no MLIR.
struct GpuView {
  int buffer = -1;
  int64_t offset = 0; // in elements
  std::vector<int64_t> sizes, strides;
};
struct GpuBuffer {
  enum Kind { Argument, Allocation, Global } kind = Allocation;
  int argument = -1; // Argument: index into inputs then outputs
  int64_t bytes = 0;
  int64_t elementBytes = 0;
  std::vector<uint8_t> init; // Global: its contents
};
struct GpuKernelArg {
  bool isMemref = false;
  GpuView view;        // memref: descriptor fields follow the view
  uint64_t scalar = 0; // scalar bits, little-endian
  int scalarBytes = 0; // 1, 2, 4 or 8
};
struct GpuStep {
  enum Kind { Launch, Copy } kind = Launch;
  int module = -1; // Launch: index into GpuPlan::modules
  std::string kernel;
  int64_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::vector<GpuKernelArg> args;
  GpuView from, to;         // Copy
  int64_t elementBytes = 0; // Copy
};
struct GpuModule {
  std::string name;
  std::vector<std::string> arch, ptx; // one PTX per architecture
  std::vector<std::string> cubin;     // per architecture, from ptxas
};
struct GpuPlan {
  std::vector<GpuModule> modules;
  std::vector<GpuBuffer> buffers;
  std::vector<GpuStep> steps;
  size_t numInputs = 0, numOutputs = 0;
};

// ptxas on every module for each of its architectures, keeping the cubins
// in GpuModule::cubin; stops at the first rejection, which the error names
// ("ptxas -arch=sm_90 on kernel module @NAME rejected the PTX: ...").
Error assembleWithPtxas(std::vector<GpuModule> &modules,
                        double timeoutSeconds = 60);

// Lowers a TOSA module with a GPU pipeline in this process and extracts
// the plan of @funcName. A failing pass is ErrorCode::CompilerFailure; a
// host op the launcher cannot replay is ErrorCode::Unsupported.
Expected<GpuPlan> compileForGpu(const std::string &module,
                                const std::string &funcName,
                                const std::string &pipeline,
                                StageTimes *times = nullptr,
                                PassCoverage *coverage = nullptr);

// Runs a plan on the GPU once per input set, in one context with the
// modules loaded once: inputs uploaded, steps replayed, outputs (of
// outputTypes) downloaded; every set's outputs in one list. A failing
// launch, or one over CUDA's grid and block limits, is
// ErrorCode::CompilerFailure; a driver that cannot load the toolkit's PTX
// or cubin is ErrorCode::Unsupported; inputs or output types that do not
// match the plan are a plain error.
Expected<Outputs> launchOnGpu(const GpuPlan &plan, const InputSets &sets,
                              const std::vector<TensorType> &outputTypes);

} // namespace cc
