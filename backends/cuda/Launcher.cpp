// Replays a GpuPlan through the CUDA driver API: plain device allocations,
// host<->device copies, one cuLaunchKernel per step. The driver library is
// opened at run time, so crosscheck builds and runs without a GPU or a
// driver; only the few entry points used here are declared.
#include "backends/cuda/Cuda.h"

#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <map>

namespace cc {

namespace {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_...
constexpr int kComputeCapabilityMinor = 76;

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
  int major = 0, minor = 0;
};

template <typename F> bool bind(void *lib, const char *name, F &f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

Driver loadDriver() {
  Driver d{};
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    d.error = "no CUDA driver (libcuda.so.1 not found)";
    return d;
  }
  bool ok = bind(lib, "cuInit", d.init) &&
            bind(lib, "cuDeviceGetCount", d.deviceGetCount) &&
            bind(lib, "cuDeviceGet", d.deviceGet) &&
            bind(lib, "cuDeviceGetAttribute", d.deviceGetAttribute) &&
            bind(lib, "cuDevicePrimaryCtxRetain", d.primaryCtxRetain) &&
            bind(lib, "cuDevicePrimaryCtxRelease_v2", d.primaryCtxRelease) &&
            bind(lib, "cuCtxSetCurrent", d.ctxSetCurrent) &&
            bind(lib, "cuCtxSynchronize", d.ctxSynchronize) &&
            bind(lib, "cuModuleLoadData", d.moduleLoadData) &&
            bind(lib, "cuModuleUnload", d.moduleUnload) &&
            bind(lib, "cuModuleGetFunction", d.moduleGetFunction) &&
            bind(lib, "cuMemAlloc_v2", d.memAlloc) &&
            bind(lib, "cuMemFree_v2", d.memFree) &&
            bind(lib, "cuMemcpyHtoD_v2", d.memcpyHtoD) &&
            bind(lib, "cuMemcpyDtoH_v2", d.memcpyDtoH) &&
            bind(lib, "cuLaunchKernel", d.launchKernel) &&
            bind(lib, "cuGetErrorString", d.getErrorString);
  if (!ok) {
    d.error = "the CUDA driver lacks an entry point crosscheck uses";
    return d;
  }
  int count = 0;
  if (d.init(0) != 0 || d.deviceGetCount(&count) != 0 || count == 0) {
    d.error = "no GPU (the CUDA driver finds no device)";
    return d;
  }
  d.deviceGet(&d.device, 0);
  d.deviceGetAttribute(&d.major, kComputeCapabilityMajor, d.device);
  d.deviceGetAttribute(&d.minor, kComputeCapabilityMinor, d.device);
  if (d.major < 8)
    d.error = "the GPU is sm_" + std::to_string(d.major * 10 + d.minor) +
              ", older than the sm_80 crosscheck compiles for";
  return d;
}

Driver &driver() {
  static Driver d = loadDriver();
  return d;
}

// The PTX of the newest architecture the device runs (the driver compiles
// it for the device).
int pickArch(const GpuModule &m, int deviceArch) {
  int best = -1, bestArch = 0;
  for (size_t i = 0; i < m.arch.size(); ++i) {
    int a = std::atoi(m.arch[i].c_str() + 3);
    if (a <= deviceArch && a > bestArch) {
      best = int(i);
      bestArch = a;
    }
  }
  return best;
}

// Copies between strided views of host copies of two buffers.
void stridedCopy(const uint8_t *from, const GpuView &src, uint8_t *to,
                 const GpuView &dst, int64_t elementBytes) {
  std::function<void(size_t, int64_t, int64_t)> walk =
      [&](size_t dim, int64_t s, int64_t d) {
        if (dim == src.sizes.size()) {
          std::memcpy(to + d * elementBytes, from + s * elementBytes,
                      size_t(elementBytes));
          return;
        }
        for (int64_t i = 0; i < src.sizes[dim]; ++i)
          walk(dim + 1, s + i * src.strides[dim], d + i * dst.strides[dim]);
      };
  walk(0, src.offset, dst.offset);
}

// One run: owns the device allocations and modules, releases them at the
// end whatever happened.
class Run {
public:
  explicit Run(Driver &d) : d(d) {}
  ~Run() {
    for (CUdeviceptr p : memory)
      if (p)
        d.memFree(p);
    for (CUmodule m : modules)
      d.moduleUnload(m);
    if (context)
      d.primaryCtxRelease(d.device);
  }

  // A failing launch or kernel is the compiler's (ErrorCode::
  // CompilerFailure); a failing set-up (context, allocation) is not.
  Error check(CUresult r, const std::string &what, bool compilerFault = true) {
    if (r == 0)
      return Error::success();
    const char *msg = nullptr;
    d.getErrorString(r, &msg);
    return Error::failure("CUDA " + what + " failed: " +
                              (msg ? msg : "error " + std::to_string(r)),
                          compilerFault ? ErrorCode::CompilerFailure : "");
  }

  Expected<Outputs> replay(const GpuPlan &plan, const Inputs &inputs,
                           const std::vector<TensorType> &outputTypes) {
    CC_TRY(check(d.primaryCtxRetain(&context, d.device), "context creation",
                 false));
    CC_TRY(check(d.ctxSetCurrent(context), "context selection", false));
    int deviceArch = d.major * 10 + d.minor;
    for (const GpuModule &m : plan.modules) {
      int i = pickArch(m, deviceArch);
      if (i < 0)
        return Error::failure("no PTX of @" + m.name + " runs on sm_" +
                                  std::to_string(deviceArch),
                              ErrorCode::Unsupported);
      CUmodule mod = nullptr;
      CC_TRY(check(d.moduleLoadData(&mod, m.ptx[size_t(i)].c_str()),
                   "loading the PTX of @" + m.name + " (" + m.arch[size_t(i)] +
                       ")"));
      modules.push_back(mod);
    }
    CC_TRY(allocate(plan, inputs));
    for (const GpuStep &s : plan.steps)
      CC_TRY(s.kind == GpuStep::Launch ? launch(plan, s) : copy(plan, s));
    CC_TRY(check(d.ctxSynchronize(), "running the kernels"));
    Outputs outs;
    for (size_t i = 0; i < outputTypes.size(); ++i) {
      Tensor t(outputTypes[i]);
      const GpuBuffer &b = plan.buffers[plan.numInputs + i];
      if (size_t(b.bytes) != t.byteCount())
        return makeError("output " + std::to_string(i) + " has " +
                         std::to_string(b.bytes) + " bytes on the GPU, " +
                         std::to_string(t.byteCount()) + " expected");
      CC_TRY(check(
          d.memcpyDtoH(t.data(), memory[plan.numInputs + i], t.byteCount()),
          "copying output " + std::to_string(i) + " back"));
      outs.push_back(std::move(t));
    }
    return outs;
  }

private:
  Error allocate(const GpuPlan &plan, const Inputs &inputs) {
    for (const GpuBuffer &b : plan.buffers) {
      CUdeviceptr p = 0;
      CC_TRY(check(d.memAlloc(&p, size_t(std::max<int64_t>(b.bytes, 1))),
                   "allocating " + std::to_string(b.bytes) + " bytes", false));
      memory.push_back(p);
      const void *init = nullptr;
      if (b.kind == GpuBuffer::Global)
        init = b.init.data();
      else if (b.kind == GpuBuffer::Argument &&
               size_t(b.argument) < inputs.size())
        init = inputs[size_t(b.argument)].data();
      if (init && b.bytes)
        CC_TRY(check(d.memcpyHtoD(p, init, size_t(b.bytes)), "uploading"));
    }
    return Error::success();
  }

  // Kernel parameters as the NVVM lowering expands them: a memref is
  // {allocated, aligned, offset, sizes..., strides...}, a scalar its bits.
  Error launch(const GpuPlan &plan, const GpuStep &s) {
    CUfunction f = nullptr;
    CC_TRY(check(
        d.moduleGetFunction(&f, modules[size_t(s.module)], s.kernel.c_str()),
        "finding kernel " + s.kernel));
    std::vector<uint64_t> values;
    for (const GpuKernelArg &a : s.args) {
      if (!a.isMemref) {
        values.push_back(a.scalar);
        continue;
      }
      uint64_t base = memory[size_t(a.view.buffer)];
      values.push_back(base);
      values.push_back(base);
      values.push_back(uint64_t(a.view.offset));
      for (int64_t v : a.view.sizes)
        values.push_back(uint64_t(v));
      for (int64_t v : a.view.strides)
        values.push_back(uint64_t(v));
    }
    std::vector<void *> params;
    for (uint64_t &v : values)
      params.push_back(&v);
    return check(d.launchKernel(f, unsigned(s.grid[0]), unsigned(s.grid[1]),
                                unsigned(s.grid[2]), unsigned(s.block[0]),
                                unsigned(s.block[1]), unsigned(s.block[2]), 0,
                                nullptr, params.data(), nullptr),
                 "launching " + plan.modules[size_t(s.module)].name);
  }

  // Strided copies go through the host: they are rare (pad, concat) and
  // small next to the kernels.
  Error copy(const GpuPlan &plan, const GpuStep &s) {
    CC_TRY(check(d.ctxSynchronize(), "running the kernels"));
    const GpuBuffer &from = plan.buffers[size_t(s.from.buffer)];
    const GpuBuffer &to = plan.buffers[size_t(s.to.buffer)];
    std::vector<uint8_t> a(size_t(from.bytes)), b(size_t(to.bytes));
    CC_TRY(
        check(d.memcpyDtoH(a.data(), memory[size_t(s.from.buffer)], a.size()),
              "copy download"));
    CC_TRY(check(d.memcpyDtoH(b.data(), memory[size_t(s.to.buffer)], b.size()),
                 "copy download"));
    stridedCopy(a.data(), s.from, b.data(), s.to, s.elementBytes);
    return check(d.memcpyHtoD(memory[size_t(s.to.buffer)], b.data(), b.size()),
                 "copy upload");
  }

  Driver &d;
  CUcontext context = nullptr;
  std::vector<CUmodule> modules;
  std::vector<CUdeviceptr> memory;
};
} // namespace

std::string gpuUnavailableReason() { return driver().error; }

Expected<Outputs> launchOnGpu(const GpuPlan &plan, const Inputs &inputs,
                              const std::vector<TensorType> &outputTypes) {
  Driver &d = driver();
  if (!d.error.empty())
    return Error::failure(d.error, ErrorCode::Unsupported);
  return Run(d).replay(plan, inputs, outputTypes);
}

} // namespace cc
