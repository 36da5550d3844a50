// Internal interfaces of the GPU backend, between the translation unit that
// includes MLIR headers (Compile.cpp) and the cheap ones.
#pragma once

#include "backends/cuda/Cuda.h"
#include "backends/mlir/Internal.h"

#include <string>
#include <sys/types.h>
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
  pid_t pid = 0;            // the process that loaded it
  bool initialised = false; // cuInit was called in that process
};

// Why `d` cannot be used in process `pid` ("" when it can): CUDA that
// another process initialised is undefined after fork() in its child.
std::string inheritedDriverError(const Driver &d, pid_t pid);

// Looks `name` up in a dlopen()ed library (null: not found) into f.
void *lookupSymbol(void *lib, const char *name);
template <typename F> bool bind(void *lib, const char *name, F &f) {
  f = reinterpret_cast<F>(lookupSymbol(lib, name));
  return f != nullptr;
}

// The process's driver, loaded and initialised on first use (cuInit: call
// it in a worker, not before forking workers). In a child forked after the
// parent initialised it, its error says so (inheritedDriverError).
Driver &driver();

// Whether this process loaded the driver (the caller of
// gpuUnavailableReason never does).
bool driverLoaded();

// Asks a short-lived forked child for driver().error, so that the caller
// never initialises CUDA; a child that crashes or hangs is the reason.
std::string probeDriverInChild(double timeoutSeconds = 60);

// The image of a module to load on a device of compute capability
// deviceArch (86 for sm_86): the cubin of the device's major architecture
// at the highest minor not above the device's (sm_80's runs on sm_86),
// else the newest PTX not above it, which the driver compiles; index -1
// when none fits.
struct ArchChoice {
  int index = -1; // into GpuModule::arch
  bool cubin = false;
};
ArchChoice pickArch(const GpuModule &m, int deviceArch);

// The code of a failed cuModuleLoadData: a driver that cannot use what the
// toolkit produced (PTX too new, no JIT compiler, no binary for the GPU) is
// ErrorCode::Unsupported, other failures ErrorCode::CompilerFailure.
ErrorCode moduleLoadErrorCode(CUresult r);

// The run's inputs and output types against the plan's argument buffers
// (counts and bytes), before anything is uploaded: a plain error names the
// mismatch.
Error checkPlanArguments(const GpuPlan &plan, const Inputs &inputs,
                         const std::vector<TensorType> &outputTypes);

// A launch's grid and block against CUDA's limits (grid x < 2^31, y and z
// <= 65535, block x and y <= 1024, z <= 64, 1024 threads): over them is
// ErrorCode::CompilerFailure naming the kernel and its dimensions.
Error checkLaunchDims(const GpuStep &s, const std::string &moduleName);

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
  Error check(CUresult r, const std::string &what,
              ErrorCode code = ErrorCode::None);

  Driver &d;

private:
  CUcontext context = nullptr;
  std::vector<CUdeviceptr> memory;
};

// The code of a failed cuBLAS call: CUBLAS_STATUS_NOT_SUPPORTED, a
// configuration it does not implement, is ErrorCode::Unsupported (not a
// finding); other statuses "" (a plain error).
ErrorCode cublasErrorCode(int status);

// The same for cuDNN of cudnnGetVersion() `version`: from cuDNN 9
// (90000) NOT_SUPPORTED is the category 3000 and its sub-codes (3001, ...);
// before, it was 9.
ErrorCode cudnnErrorCode(int status, size_t version);

// Registers the backend's own passes (cc-wrap-serial-code) and MLIR's: once
// per process, before a pipeline that names them is parsed.
void registerGpuPasses();

// Parses req.module, lowers it with req.pipeline (reporting the stages) and
// reads @req.funcName into a plan. Records "lower" into times.
Expected<GpuPlan> compile(const mlirbackend::LowerRequest &req,
                          StageTimes *times, PassCoverage *coverage);

// The LowerRequest::InProcess of the backend: compile, ptxas every module
// for every architecture, then launch on every set where a GPU is present.
Expected<Outputs>
compileCheckAndLaunch(const mlirbackend::LowerRequest &req,
                      const std::vector<TensorType> &resultTypes,
                      const InputSets &sets, StageTimes *times,
                      PassCoverage *coverage);

} // namespace cc::cudabackend
