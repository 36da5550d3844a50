// The named GPU pipelines: TOSA to linalg, bufferization, linalg to
// parallel loops mapped onto blocks and threads, kernel outlining, NVVM,
// and PTX for every architecture through LLVM's NVPTX back-end.
#include "backends/cuda/Cuda.h"
#include "backends/mlir/MlirBackend.h"

#include <cstdlib>

namespace cc {

namespace {
const char *const kTosaToLinalg = kTosaToLinalgPasses;
// No deallocation: the launcher frees every buffer after the run.
const char *const kBufferize = kBufferizeToOutParams;
// Kernel bodies: what convert-gpu-to-nvvm leaves (math.ctlz from integer
// pooling) goes through the generic LLVM lowering.
const char *const kKernelToNvvm =
    "gpu.module(lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm,"
    "convert-math-to-llvm,reconcile-unrealized-casts)";

std::string pipeline(const std::string &onTensors, const std::string &loops,
                     int nvptxOptLevel) {
  std::string p = "builtin.module(func.func(" + onTensors + ")," + kBufferize +
                  ",func.func(convert-linalg-to-parallel-loops,";
  if (!loops.empty())
    p += loops + ",";
  p += "cc-wrap-serial-code,gpu-map-parallel-loops,"
       "convert-parallel-loops-to-gpu,canonicalize),gpu-kernel-outlining,";
  std::string level = std::to_string(nvptxOptLevel);
  for (const std::string &arch : gpuArchitectures())
    p += "nvvm-attach-target{chip=" + arch + " O=" + level + "},";
  return p + kKernelToNvvm +
         ",gpu-module-to-binary{format=isa toolkit=" + cudaToolkitDir() + "})";
}

std::vector<GpuPipeline> makePipelines() {
  std::string lower = kTosaToLinalg;
  return {
      {"gpu-O0",
       "straight lowering: every parallel loop dimension a grid dimension, "
       "one thread per block; NVPTX -O0",
       pipeline(lower, "", 0)},
      {"gpu-O3",
       "TOSA canonicalization and constant folding, linalg fusion, parallel "
       "loops tiled 4x32 onto blocks of threads; NVPTX -O3",
       pipeline("canonicalize,tosa-layerwise-constant-fold,canonicalize," +
                    lower + ",linalg-fuse-elementwise-ops,canonicalize,cse",
                "scf-parallel-loop-tiling{parallel-loop-tile-sizes=4,32 "
                "no-min-max-bounds},canonicalize",
                3)},
  };
}
} // namespace

const std::vector<std::string> &gpuArchitectures() {
  static const std::vector<std::string> archs = {"sm_80", "sm_90"};
  return archs;
}

std::string cudaToolkitDir() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(var); dir && *dir)
      return dir;
  return "/usr/local/cuda";
}

const std::vector<GpuPipeline> &gpuPipelines() {
  static const std::vector<GpuPipeline> pipelines = makePipelines();
  return pipelines;
}

} // namespace cc
