// The CUDA driver API opened at run time, and device memory scoped to a run.
#include "backends/cuda/Internal.h"

#include "process/Process.h"

#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <optional>
#include <unistd.h>

namespace cc::cudabackend {

namespace {
constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_...
constexpr int kComputeCapabilityMinor = 76;

Driver loadDriver() {
  Driver d{};
  d.pid = getpid();
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
  d.initialised = true;
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

std::optional<Driver> &loaded() {
  static std::optional<Driver> d;
  return d;
}
} // namespace

void *lookupSymbol(void *lib, const char *name) {
  return lib ? dlsym(lib, name) : nullptr;
}

std::string inheritedDriverError(const Driver &d, pid_t pid) {
  if (d.pid == pid || !d.initialised)
    return "";
  return "the CUDA driver was initialised in process " + std::to_string(d.pid) +
         " before process " + std::to_string(pid) +
         " was forked from it, and CUDA cannot be used after fork()";
}

Driver &driver() {
  std::optional<Driver> &d = loaded();
  if (d && d->pid != getpid()) {
    // The parent's state: unusable if it called cuInit, else load afresh.
    if (std::string why = inheritedDriverError(*d, getpid()); !why.empty())
      d->error = why;
    else
      d.reset();
  }
  if (!d)
    d = loadDriver();
  return *d;
}

bool driverLoaded() {
  const std::optional<Driver> &d = loaded();
  return d && d->pid == getpid();
}

std::string probeDriverInChild(double timeoutSeconds) {
  auto child = [](int outFd) {
    const std::string &why = driver().error;
    return write(outFd, why.data(), why.size()) == ssize_t(why.size()) ? 0 : 1;
  };
  // The driver maps the device's whole memory: no address-space limit.
  process::ChildOptions options;
  options.limits = RunLimits::timeOnly(timeoutSeconds);
  auto r = process::runChild(child, options);
  std::string probing = "probing the CUDA driver in a child process ";
  if (!r)
    return probing + "failed: " + r.error().message();
  if (r->timedOut)
    return probing + "timed out after " + std::to_string(int(timeoutSeconds)) +
           " s";
  if (r->signal)
    return probing + "crashed with signal " + std::to_string(r->signal) + " (" +
           strsignal(r->signal) + ")";
  if (r->exitCode != 0)
    return probing + "failed with exit status " + std::to_string(r->exitCode);
  return r->out;
}

DeviceScope::~DeviceScope() {
  for (CUdeviceptr p : memory)
    d.memFree(p);
  if (context)
    d.primaryCtxRelease(d.device);
}

Error DeviceScope::check(CUresult r, const std::string &what, ErrorCode code) {
  if (r == 0)
    return Error::success();
  const char *msg = nullptr;
  d.getErrorString(r, &msg);
  return Error::failure(
      "CUDA " + what + " failed: " + (msg ? msg : "error " + std::to_string(r)),
      code);
}

Error DeviceScope::enter() {
  CC_TRY(check(d.primaryCtxRetain(&context, d.device), "context creation"));
  return check(d.ctxSetCurrent(context), "context selection");
}

Expected<CUdeviceptr> DeviceScope::allocate(size_t bytes) {
  CUdeviceptr p = 0;
  CC_TRY(check(d.memAlloc(&p, std::max<size_t>(bytes, 1)),
               "allocating " + std::to_string(bytes) + " bytes"));
  memory.push_back(p);
  return p;
}

Expected<CUdeviceptr> DeviceScope::upload(const void *data, size_t bytes) {
  CC_ASSIGN(p, allocate(bytes));
  if (bytes)
    CC_TRY(check(d.memcpyHtoD(p, data, bytes), "uploading"));
  return p;
}

Error DeviceScope::download(void *data, CUdeviceptr from, size_t bytes) {
  return check(d.memcpyDtoH(data, from, bytes), "downloading");
}

} // namespace cc::cudabackend

namespace cc {
std::string gpuUnavailableReason() {
  using namespace cudabackend;
  // A process that loaded the driver (a worker), or inherited it
  // initialised, answers for itself; others ask a child, so that workers
  // forked later do not inherit an initialised CUDA.
  if (const std::optional<Driver> &d = loaded();
      d && (d->pid == getpid() || d->initialised))
    return driver().error;
  static const std::string probed = probeDriverInChild();
  return probed;
}
} // namespace cc
