// Replays a GpuPlan through the CUDA driver API (Driver.cpp): plain device
// allocations, host<->device copies, one cuLaunchKernel per step.
#include "backends/cuda/Internal.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>

namespace cc {

namespace cudabackend {
ArchChoice pickArch(const GpuModule &m, int deviceArch) {
  ArchChoice cubin, ptx;
  int cubinArch = 0, ptxArch = 0;
  for (size_t i = 0; i < m.arch.size(); ++i) {
    int a = std::atoi(m.arch[i].c_str() + 3);
    if (a > deviceArch)
      continue;
    bool hasCubin = i < m.cubin.size() && !m.cubin[i].empty();
    if (hasCubin && a / 10 == deviceArch / 10 && a > cubinArch) {
      cubin = {int(i), true};
      cubinArch = a;
    }
    if (a > ptxArch) {
      ptx = {int(i), false};
      ptxArch = a;
    }
  }
  return cubin.index >= 0 ? cubin : ptx;
}

ErrorCode moduleLoadErrorCode(CUresult r) {
  constexpr CUresult kNoBinaryForGpu = 209, kJitCompilerNotFound = 221,
                     kUnsupportedPtxVersion = 222;
  return r == kNoBinaryForGpu || r == kJitCompilerNotFound ||
                 r == kUnsupportedPtxVersion
             ? ErrorCode::Unsupported
             : ErrorCode::CompilerFailure;
}

Error checkPlanArguments(const GpuPlan &plan, const Inputs &inputs,
                         const std::vector<TensorType> &outputTypes) {
  if (inputs.size() != plan.numInputs || outputTypes.size() != plan.numOutputs)
    return makeError("the GPU plan takes " + std::to_string(plan.numInputs) +
                     " inputs and " + std::to_string(plan.numOutputs) +
                     " outputs, the run has " + std::to_string(inputs.size()) +
                     " and " + std::to_string(outputTypes.size()));
  for (size_t i = 0; i < plan.numInputs + plan.numOutputs; ++i) {
    bool isInput = i < plan.numInputs;
    size_t k = isInput ? i : i - plan.numInputs;
    std::string what = (isInput ? "input " : "output ") + std::to_string(k);
    if (i >= plan.buffers.size() ||
        plan.buffers[i].kind != GpuBuffer::Argument ||
        plan.buffers[i].argument != int(i))
      return makeError("the GPU plan has no argument buffer for " + what);
    size_t bytes = isInput ? inputs[k].byteCount()
                           : size_t(outputTypes[k].numElements() *
                                    byteSize(outputTypes[k].dtype));
    if (size_t(plan.buffers[i].bytes) != bytes)
      return makeError(what + " has " + std::to_string(plan.buffers[i].bytes) +
                       " bytes on the GPU, " + std::to_string(bytes) +
                       (isInput ? " given" : " expected"));
  }
  return Error::success();
}

Error checkLaunchDims(const GpuStep &s, const std::string &moduleName) {
  // CUDA's limits for every architecture crosscheck targets (sm_80+).
  constexpr int64_t kMaxGrid[3] = {(int64_t(1) << 31) - 1, 65535, 65535};
  constexpr int64_t kMaxBlock[3] = {1024, 1024, 64};
  constexpr int64_t kMaxThreadsPerBlock = 1024;
  std::string why;
  for (int d = 0; d < 3 && why.empty(); ++d) {
    std::string axis(1, char('x' + d));
    if (s.grid[d] < 1 || s.grid[d] > kMaxGrid[d])
      why = "grid " + axis + " is not in [1, " + std::to_string(kMaxGrid[d]) +
            "]";
    else if (s.block[d] < 1 || s.block[d] > kMaxBlock[d])
      why = "block " + axis + " is not in [1, " + std::to_string(kMaxBlock[d]) +
            "]";
  }
  if (why.empty() && s.block[0] * s.block[1] * s.block[2] > kMaxThreadsPerBlock)
    why = "more than " + std::to_string(kMaxThreadsPerBlock) +
          " threads per block";
  if (why.empty())
    return Error::success();
  auto dims = [](const int64_t (&v)[3]) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
           std::to_string(v[2]) + ")";
  };
  return Error::failure("kernel @" + moduleName + "::" + s.kernel +
                            " is launched with grid " + dims(s.grid) +
                            " and block " + dims(s.block) + ": " + why +
                            ", over CUDA's launch limits",
                        ErrorCode::CompilerFailure);
}
} // namespace cudabackend

namespace {
using namespace cudabackend;

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

  // The context entered and every module loaded, once for all input sets.
  Error load(const GpuPlan &plan) {
    // Before any work: cuLaunchKernel takes the dimensions as unsigned.
    for (const GpuStep &s : plan.steps)
      if (s.kind == GpuStep::Launch)
        CC_TRY(checkLaunchDims(s, plan.modules[size_t(s.module)].name));
    CC_TRY(device.enter());
    int deviceArch = d.major * 10 + d.minor;
    for (const GpuModule &m : plan.modules) {
      ArchChoice c = pickArch(m, deviceArch);
      if (c.index < 0)
        return Error::failure("no PTX of @" + m.name + " runs on sm_" +
                                  std::to_string(deviceArch),
                              ErrorCode::Unsupported);
      size_t i = size_t(c.index);
      const std::string &image = c.cubin ? m.cubin[i] : m.ptx[i];
      std::string what = std::string("loading the ") +
                         (c.cubin ? "cubin" : "PTX") + " of @" + m.name + " (" +
                         m.arch[i] + ") on sm_" + std::to_string(deviceArch);
      CUmodule mod = nullptr;
      CUresult r = d.moduleLoadData(&mod, image.c_str());
      // A driver that cannot use what the toolkit produced is not the
      // compiler's fault.
      ErrorCode code = moduleLoadErrorCode(r);
      if (code == ErrorCode::Unsupported)
        what += " (the driver and the CUDA toolkit do not match)";
      CC_TRY(device.check(r, what, code));
      modules.push_back(mod);
    }
    return Error::success();
  }

  // One input set on fresh buffers (the device's memory is freed with the
  // run: sets are few and small).
  Expected<Outputs> replay(const GpuPlan &plan, const Inputs &inputs,
                           const std::vector<TensorType> &outputTypes) {
    CC_TRY(checkPlanArguments(plan, inputs, outputTypes));
    memory.clear();
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
    const std::string &name = plan.modules[size_t(s.module)].name;
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
                 "launching @" + name + "::" + s.kernel);
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

Expected<Outputs> launchOnGpu(const GpuPlan &plan, const InputSets &sets,
                              const std::vector<TensorType> &outputTypes) {
  Driver &d = driver();
  if (!d.error.empty())
    return Error::failure(d.error, ErrorCode::Unsupported);
  Run run(d);
  CC_TRY(run.load(plan));
  Outputs all;
  for (const Inputs *inputs : sets) {
    CC_ASSIGN(outs, run.replay(plan, *inputs, outputTypes));
    for (Tensor &t : outs)
      all.push_back(std::move(t));
  }
  return all;
}

} // namespace cc
