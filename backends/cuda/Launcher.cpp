// Replays a GpuPlan through the CUDA driver API (Driver.cpp): plain device
// allocations, host<->device copies, one cuLaunchKernel per step.
#include "backends/cuda/Internal.h"

#include <cstring>
#include <functional>
#include <map>

namespace cc {

namespace {
using namespace cudabackend;

// The newest architecture the device runs: its cubin when it is the
// device's own, else its PTX (which the driver compiles for the device).
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

// One run: the device memory (DeviceScope) and the loaded modules, released
// at the end whatever happened.
class Run {
public:
  explicit Run(Driver &d) : device(d), d(d) {}
  ~Run() {
    for (CUmodule m : modules)
      d.moduleUnload(m);
  }

  // A failing launch or kernel is the compiler's.
  Error check(CUresult r, const std::string &what) {
    return device.check(r, what, ErrorCode::CompilerFailure);
  }

  Expected<Outputs> replay(const GpuPlan &plan, const Inputs &inputs,
                           const std::vector<TensorType> &outputTypes) {
    CC_TRY(device.enter());
    int deviceArch = d.major * 10 + d.minor;
    for (const GpuModule &m : plan.modules) {
      int i = pickArch(m, deviceArch);
      if (i < 0)
        return Error::failure("no PTX of @" + m.name + " runs on sm_" +
                                  std::to_string(deviceArch),
                              ErrorCode::Unsupported);
      bool own = m.arch[size_t(i)] == "sm_" + std::to_string(deviceArch) &&
                 size_t(i) < m.cubin.size() && !m.cubin[size_t(i)].empty();
      const std::string &image = own ? m.cubin[size_t(i)] : m.ptx[size_t(i)];
      CUmodule mod = nullptr;
      CC_TRY(check(d.moduleLoadData(&mod, image.c_str()),
                   std::string("loading the ") + (own ? "cubin" : "PTX") +
                       " of @" + m.name + " (" + m.arch[size_t(i)] + ")"));
      modules.push_back(mod);
    }
    for (const GpuBuffer &b : plan.buffers) {
      const void *init = nullptr;
      if (b.kind == GpuBuffer::Global)
        init = b.init.data();
      else if (b.kind == GpuBuffer::Argument &&
               size_t(b.argument) < inputs.size())
        init = inputs[size_t(b.argument)].data();
      CC_ASSIGN(p, init ? device.upload(init, size_t(b.bytes))
                        : device.allocate(size_t(b.bytes)));
      memory.push_back(p);
    }
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
      CC_TRY(
          device.download(t.data(), memory[plan.numInputs + i], t.byteCount()));
      outs.push_back(std::move(t));
    }
    return outs;
  }

private:
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
    CC_TRY(device.download(a.data(), memory[size_t(s.from.buffer)], a.size()));
    CC_TRY(device.download(b.data(), memory[size_t(s.to.buffer)], b.size()));
    stridedCopy(a.data(), s.from, b.data(), s.to, s.elementBytes);
    return check(d.memcpyHtoD(memory[size_t(s.to.buffer)], b.data(), b.size()),
                 "copy upload");
  }

  DeviceScope device;
  Driver &d;
  std::vector<CUmodule> modules;
  std::vector<CUdeviceptr> memory; // per plan buffer
};
} // namespace

Expected<Outputs> launchOnGpu(const GpuPlan &plan, const Inputs &inputs,
                              const std::vector<TensorType> &outputTypes) {
  Driver &d = driver();
  if (!d.error.empty())
    return Error::failure(d.error, ErrorCode::Unsupported);
  return Run(d).replay(plan, inputs, outputTypes);
}

} // namespace cc
