// The cuda:NAME backend: emission, the isolated compile-check-launch run,
// and ptxas.
#include "backends/cuda/Internal.h"
#include "backends/mlir/MlirBackend.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Quote.h"
#include "process/Process.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace cc {

namespace {
using Clock = std::chrono::steady_clock;

std::string firstLines(const std::string &s, size_t n) {
  std::string out;
  size_t pos = 0;
  for (size_t i = 0; i < n && pos < s.size(); ++i) {
    size_t end = s.find('\n', pos);
    out += s.substr(pos, end - pos) + "; ";
    pos = end == std::string::npos ? s.size() : end + 1;
  }
  return out.size() >= 2 ? out.substr(0, out.size() - 2) : out;
}

class CudaBackend : public Backend {
public:
  CudaBackend(std::string spec, std::string pipeline)
      : spec(std::move(spec)), pipeline(std::move(pipeline)) {}

  std::string name() const override { return spec; }

  Support supports(const Graph &g) const override {
    auto text = emitModule(g);
    if (!text && text.error().code() == ErrorCode::Unsupported)
      return Support::no(text.error().message());
    return Support::yes();
  }

  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    return std::move(runSets(g, {&inputs}, options).at(0));
  }

  // One worker compiles once and launches every set in one CUDA context.
  std::vector<Expected<Outputs>> runSets(const Graph &g, const InputSets &sets,
                                         const RunOptions &options) override {
    auto start = Clock::now();
    auto text = emitModule(g);
    if (!text)
      return std::vector<Expected<Outputs>>(sets.size(), text.error());
    addStageTime(options.times, "emit", start);
    mlirbackend::LowerRequest req{
        &*text,           mlirbackend::Origin::Crosscheck,
        "emitted module", g.name,
        pipeline,         0};
    req.inProcess = cudabackend::compileCheckAndLaunch;
    std::vector<TensorType> types;
    for (ValueId v : g.outputs)
      types.push_back(g.typeOf(v));
    // CUDA reserves far more address space than an RLIMIT_AS allows: where
    // a GPU runs the kernels the worker has no address-space limit (the
    // timeout still bounds it); compile-only runs keep it.
    RunOptions o = options;
    if (o.limits.memoryBytes && gpuUnavailableReason().empty())
      o.limits.memoryBytes = 0;
    return mlirbackend::lowerAndRunSets(req, types, sets, o);
  }

private:
  std::string spec, pipeline;
};
} // namespace

namespace cudabackend {
Expected<Outputs>
compileCheckAndLaunch(const mlirbackend::LowerRequest &req,
                      const std::vector<TensorType> &resultTypes,
                      const InputSets &sets, StageTimes *times,
                      PassCoverage *coverage) {
  CC_ASSIGN(plan, compile(req, times, coverage));
  auto start = Clock::now();
  mlirbackend::reportStage(req, "ptxas");
  if (Error e = assembleWithPtxas(plan.modules))
    return Error::failure(e.message() + " (in the " + req.originName + ")",
                          e.code());
  addStageTime(times, "ptxas", start);
  // This process (the isolated worker) runs the kernels: CUDA is
  // initialised here, not in the process that forked it.
  if (std::string why = driver().error; !why.empty())
    return Error::failure("compiled " + std::to_string(plan.modules.size()) +
                              " kernel modules to PTX that ptxas accepts "
                              "for every architecture; not run: " +
                              why,
                          ErrorCode::Unsupported);
  start = Clock::now();
  mlirbackend::reportStage(req, "launch");
  auto out = launchOnGpu(plan, sets, resultTypes);
  addStageTime(times, "launch", start);
  return out;
}
} // namespace cudabackend

Error ptxasCheck(const std::string &ptx, const std::string &arch,
                 double timeoutSeconds) {
  std::vector<GpuModule> one(1);
  one[0].arch = {arch};
  one[0].ptx = {ptx};
  return assembleWithPtxas(one, timeoutSeconds);
}

// Every module for every architecture in one shell script: one fork of this
// (large) process instead of one per module; the script stops at the first
// rejection and names it on its standard output.
Error assembleWithPtxas(std::vector<GpuModule> &modules,
                        double timeoutSeconds) {
  std::string ptxas = cudaToolkitDir() + "/bin/ptxas";
  if (access(ptxas.c_str(), X_OK) != 0)
    return makeError("no ptxas at " + ptxas +
                     " (set CUDA_HOME to the CUDA toolkit)");
  char dir[] = "/tmp/crosscheck-ptx-XXXXXX";
  if (!mkdtemp(dir))
    return makeError("cannot create a temporary directory for ptxas");
  std::string script = "cd " + std::string(dir) + " || exit 3\n";
  for (size_t k = 0; k < modules.size(); ++k) {
    const GpuModule &m = modules[k];
    for (size_t i = 0; i < m.arch.size(); ++i) {
      std::string file = std::to_string(k) + "_" + m.arch[i] + ".ptx";
      std::ofstream(std::string(dir) + "/" + file, std::ios::binary)
          << m.ptx[i];
      std::string label =
          "ptxas -arch=" + m.arch[i] +
          (m.name.empty() ? "" : " on kernel module @" + m.name);
      script += shellWord(ptxas) + " -arch=" + m.arch[i] + " " + file + " -o " +
                file + ".cubin || { echo " + shellWord(label) + "; exit 1; }\n";
    }
  }
  auto r = process::runShell(script, "", RunLimits::timeOnly(timeoutSeconds));
  bool assembled = r && !r->timedOut && !r->signal && r->exitCode == 0;
  for (size_t k = 0; assembled && k < modules.size(); ++k) {
    GpuModule &m = modules[k];
    m.cubin.clear();
    for (const std::string &arch : m.arch) {
      auto cubin = readFile(std::string(dir) + "/" + std::to_string(k) + "_" +
                            arch + ".ptx.cubin");
      m.cubin.push_back(cubin ? std::move(*cubin) : "");
    }
  }
  std::filesystem::remove_all(dir);
  if (!r)
    return r.error();
  std::string label = r->out.substr(0, r->out.find('\n'));
  if (r->timedOut)
    return Error::failure("ptxas timed out after " +
                              std::to_string(int(timeoutSeconds)) + " s",
                          ErrorCode::Timeout);
  if (r->signal || r->exitCode != 0)
    return Error::failure((label.empty() ? std::string("ptxas") : label) +
                              " rejected the PTX: " + firstLines(r->err, 4),
                          ErrorCode::CompilerFailure);
  return Error::success();
}

Expected<std::unique_ptr<Backend>> makeCudaBackend(const std::string &spec) {
  std::string name = spec.substr(spec.find(':') + 1);
  std::string known;
  for (const GpuPipeline &p : gpuPipelines()) {
    if (p.name == name) {
      cudabackend::registerGpuPasses();
      return std::unique_ptr<Backend>(
          std::make_unique<CudaBackend>(spec, p.pipeline));
    }
    known += (known.empty() ? "" : ", ") + p.name;
  }
  return makeError("unknown GPU pipeline '" + name + "' in '" + spec +
                   "' (known: " + known + ")");
}

} // namespace cc
