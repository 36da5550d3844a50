// Internal interfaces of the GPU backend, between the translation unit that
// includes MLIR headers (Compile.cpp) and the cheap ones.
#pragma once

#include "backends/cuda/Cuda.h"
#include "backends/mlir/Internal.h"

#include <string>
#include <vector>

namespace cc::cudabackend {

// The CUDA driver API, opened at run time (libcuda.so.1): crosscheck builds
// and runs without a GPU or a driver. Only the entry points used are
// declared, with the driver's ABI types.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;

struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)();
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, void *, void **,
                           void **);
  CUresult (*getErrorString)(CUresult, const char **);
  std::string error; // why the driver is unusable, "" when it is usable
  CUdevice device = 0;
  int major = 0, minor = 0; // compute capability of device 0
};

// Looks `name` up in a dlopen()ed library (null: not found) into f.
void *lookupSymbol(void *lib, const char *name);
template <typename F> bool bind(void *lib, const char *name, F &f) {
  f = reinterpret_cast<F>(lookupSymbol(lib, name));
  return f != nullptr;
}

// The process's driver, loaded and initialised on first use (cuInit: call
// it in a worker, not before forking workers).
Driver &driver();

// Device memory for one run, freed with it; the primary context is current
// while it lives. Failing set-up is a plain error (not the compiler's).
class DeviceScope {
public:
  explicit DeviceScope(Driver &d) : d(d) {}
  ~DeviceScope();
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;
  Error enter();
  Expected<CUdeviceptr> upload(const void *data, size_t bytes);
  Expected<CUdeviceptr> allocate(size_t bytes);
  Error download(void *data, CUdeviceptr from, size_t bytes);
  // "CUDA <what> failed: <driver's message>" with `code`.
  Error check(CUresult r, const std::string &what, const char *code = "");

  Driver &d;

private:
  CUcontext context = nullptr;
  std::vector<CUdeviceptr> memory;
};

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
