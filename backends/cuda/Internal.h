// Internal interfaces of the GPU backend, between the translation unit that
// includes MLIR headers (Compile.cpp) and the cheap ones.
#pragma once

#include "backends/cuda/Cuda.h"
#include "backends/mlir/Internal.h"

namespace cc::cudabackend {

// Registers the backend's own passes (cc-wrap-serial-code) and MLIR's: once
// per process, before a pipeline that names them is parsed.
void registerGpuPasses();

// Parses req.module, lowers it with req.pipeline (reporting the stages) and
// reads @req.funcName into a plan. Records "lower" into times.
Expected<GpuPlan> compile(const mlirbackend::LowerRequest &req,
                          StageTimes *times, PassCoverage *coverage);

// The LowerRequest::InProcess of the backend: compile, ptxas every module
// for every architecture, then launch where a GPU is present.
Expected<Outputs>
compileCheckAndLaunch(const mlirbackend::LowerRequest &req,
                      const std::vector<TensorType> &resultTypes,
                      const Inputs &inputs, StageTimes *times,
                      PassCoverage *coverage);

} // namespace cc::cudabackend
