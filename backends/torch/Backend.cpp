// The `torch` and `torchscript` backends: what they support (the lowering
// table of Eager.cpp) and, for TorchScript, the forked worker that turns a
// LibTorch crash or hang into a finding. No LibTorch here: it is reached
// through the plugin's TorchApi.
#include "backends/torch/Torch.h"

#include "backends/torch/Internal.h"
#include "core/Npy.h"
#include "process/Process.h"
#include "process/StageCell.h"
#include "process/Wire.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace cc {

namespace {

using namespace torchbackend;
using Clock = std::chrono::steady_clock;

Support supportedByTorch(const TorchApi &api, const Graph &g) {
  std::set<std::string> missing;
  for (const Node &n : g.nodes)
    if (!api.canLower(n.op))
      missing.insert(std::string(opName(n.op)));
  if (missing.empty())
    return Support::yes();
  std::string list;
  for (const std::string &op : missing)
    list += (list.empty() ? "" : ", ") + op;
  return Support::no("LibTorch cannot express: " + list);
}

// --- the forked worker
// ---------------------------------------------------------

// The worker's stage cell (set in the worker only), so that a crash or
// timeout can name the stage.
process::StageCell *workerCell = nullptr;

void noteStage(const char *stage) {
  if (workerCell)
    workerCell->setStage(stage);
}

// The worker's answer (process/Wire.h): whether it ran, its stage times,
// then its outputs as .npy (their dtype travels with them: bf16 as f32) or
// its error's code and message.
std::string encode(const Expected<Outputs> &r, const StageTimes &times) {
  process::WireWriter w;
  w.u64(bool(r));
  w.u64(times.size());
  for (const auto &[stage, seconds] : times)
    w.str(stage).f64(seconds);
  if (!r) {
    w.u64(uint64_t(r.error().code())).str(r.error().message());
    return w.take();
  }
  w.u64(r->size());
  for (const Tensor &t : *r)
    w.str(npyBytes(t));
  return w.take();
}

Expected<Outputs> decode(const std::string &bytes, const Graph &g,
                         StageTimes *times) {
  Error malformed = makeError("the TorchScript worker sent a malformed reply");
  process::WireReader d(bytes);
  bool ok = d.u64();
  for (uint64_t i = 0, n = d.u64(); d.ok() && i < n; ++i) {
    std::string stage = d.str();
    double seconds = d.f64();
    if (times)
      (*times)[stage] += seconds;
  }
  if (!ok) {
    auto code = ErrorCode(d.u64());
    std::string message = d.str();
    return d.done() ? Error::failure(message, code) : malformed;
  }
  if (d.u64() != g.outputs.size())
    return malformed;
  Outputs outs;
  for (ValueId v : g.outputs) {
    CC_ASSIGN(t, parseNpy(d.str()));
    // bf16 travels as f32 (exact).
    DType want = g.typeOf(v).dtype;
    outs.push_back(t.dtype() == want ? t : t.convertTo(want));
  }
  return d.done() ? Expected<Outputs>(std::move(outs)) : malformed;
}

Expected<Outputs> runIsolated(const TorchApi &api, const Graph &g,
                              const Inputs &inputs, const RunOptions &options) {
  api.warmUpScripting();
  auto start = Clock::now();
  process::StageCell cell;
  if (!cell.ok())
    return makeError("cannot map memory for the TorchScript worker");
  cell.reset("start");
  auto work = [&](int outFd) {
    workerCell = &cell;
    api.prepareForkedWorker();
    StageTimes workerTimes;
    auto r = api.runScripted(g, inputs, &workerTimes, noteStage);
    return process::writeAll(outFd, encode(r, workerTimes)) ? 0 : 3;
  };
  process::ChildOptions co;
  co.ownProcessGroup = false;
  co.limits = options.limits;
  co.keepStderr = true; // LibTorch's warnings are the user's to see
  co.cell = &cell;
  CC_ASSIGN(r, process::runChild(work, co));
  std::string where = cell.stage();
  if (r.timedOut)
    return Error::failure("TorchScript timed out after " +
                              std::to_string(options.limits.timeoutSeconds) +
                              " s in stage '" + where + "'",
                          ErrorCode::Timeout);
  if (r.signal) {
    // Its stages are not the MLIR lowering's: only the message names them.
    CompilerFault fault;
    fault.kind = r.outOfMemory ? CompilerFault::Kind::OutOfMemory
                               : CompilerFault::Kind::Crashed;
    fault.signal = r.signal;
    return compilerFault("TorchScript " + r.how() + " in stage '" + where +
                             "'" +
                             process::memoryNote(r, options.limits.memoryBytes),
                         std::move(fault));
  }
  // The worker's stages, and its overhead (fork, transfer) as "isolate".
  StageTimes worker;
  auto outs = decode(r.out, g, &worker);
  double total = std::chrono::duration<double>(Clock::now() - start).count();
  if (options.times) {
    for (const auto &[stage, seconds] : worker) {
      (*options.times)[stage] += seconds;
      total -= seconds;
    }
    (*options.times)["isolate"] += std::max(0.0, total);
  }
  return outs;
}

class TorchBackend : public Backend {
public:
  explicit TorchBackend(const TorchApi &api) : api(api) {}
  std::string name() const override { return "torch"; }
  Support supports(const Graph &g) const override {
    return supportedByTorch(api, g);
  }
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    CC_TRY(checkRunnable(g, inputs));
    return api.runEager(g, inputs, options.times);
  }

protected:
  const TorchApi &api;

  Error checkRunnable(const Graph &g, const Inputs &inputs) const {
    Support s = supportedByTorch(api, g);
    if (!s.ok)
      return Error::failure(s.reason, ErrorCode::Unsupported);
    if (inputs.size() != g.inputs.size())
      return makeError("the graph has " + std::to_string(g.inputs.size()) +
                       " inputs, got " + std::to_string(inputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].type() != g.typeOf(g.inputs[i]))
        return makeError("input " + std::to_string(i) + " is " +
                         inputs[i].type().str() + ", the graph wants " +
                         g.typeOf(g.inputs[i]).str());
    return Error();
  }
};

class TorchScriptBackend : public TorchBackend {
public:
  using TorchBackend::TorchBackend;
  std::string name() const override { return "torchscript"; }
  Expected<Outputs> run(const Graph &g, const Inputs &inputs,
                        const RunOptions &options) override {
    CC_TRY(checkRunnable(g, inputs));
    if (options.isolate)
      return runIsolated(api, g, inputs, options);
    return api.runScripted(g, inputs, options.times, nullptr);
  }
};

} // namespace

Expected<std::unique_ptr<Backend>> makeTorchBackend() {
  CC_ASSIGN(api, torchApi());
  return std::unique_ptr<Backend>(std::make_unique<TorchBackend>(*api));
}
Expected<std::unique_ptr<Backend>> makeTorchScriptBackend() {
  CC_ASSIGN(api, torchApi());
  return std::unique_ptr<Backend>(std::make_unique<TorchScriptBackend>(*api));
}

Error saveTorchScript(const Graph &g, const Inputs &inputs,
                      const std::string &modelPath,
                      const std::string &inputsPath) {
  CC_ASSIGN(api, torchApi());
  return api->saveScripted(g, inputs, modelPath, inputsPath);
}

Expected<std::vector<OpId>> torchOps() {
  CC_ASSIGN(api, torchApi());
  return api->lowerableOps();
}

} // namespace cc
