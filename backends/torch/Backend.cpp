// The `torch` and `torchscript` backends: what they support (the lowering
// table of Eager.cpp) and, for TorchScript, the forked worker that turns a
// LibTorch crash or hang into a finding. No LibTorch here: it is reached
// through the plugin's TorchApi.
#include "backends/torch/Torch.h"

#include "backends/torch/Internal.h"
#include "core/Npy.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <set>
#include <sstream>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cc {

namespace {

using namespace torchbackend;
using Clock = std::chrono::steady_clock;

Support supportedByTorch(const TorchApi &api, const Graph &g) {
  std::set<std::string> missing;
  for (const Node &n : g.nodes)
    if (!api.canLower(n.op))
      missing.insert(n.op);
  if (missing.empty())
    return Support::yes();
  std::string list;
  for (const std::string &op : missing)
    list += (list.empty() ? "" : ", ") + op;
  return Support::no("LibTorch cannot express: " + list);
}

// --- the forked worker
// ---------------------------------------------------------

// The stage the worker is in, in memory shared with the parent, so that a
// crash or timeout can name it.
char *sharedStage = nullptr;

void noteStage(const char *stage) {
  if (!sharedStage)
    return;
  std::strncpy(sharedStage, stage, 63);
  sharedStage[63] = '\0';
}

// stdio retries short and interrupted writes.
bool writeAll(int fd, const std::string &bytes) {
  FILE *f = fdopen(fd, "w");
  return f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() &&
         std::fflush(f) == 0;
}

// Message to the parent: a status line ("ok N", or "error CODE" followed by
// the message), then a line of stage times ("trace 0.01 lower 0.2 ..."),
// then N length-prefixed .npy tensors.
std::string encode(const Expected<Outputs> &r, const StageTimes &times) {
  if (!r)
    return "error " + (r.error().code().empty() ? "-" : r.error().code()) +
           "\n" + r.error().message();
  std::string msg = "ok " + std::to_string(r->size()) + "\n";
  for (const auto &[stage, seconds] : times)
    msg += stage + " " + std::to_string(seconds) + " ";
  msg += "\n";
  for (const Tensor &t : *r) {
    std::string npy = npyBytes(t);
    msg += std::to_string(npy.size()) + "\n" + npy;
  }
  return msg;
}

Expected<Outputs> decode(const std::string &msg, const Graph &g,
                         StageTimes *times) {
  size_t eol = msg.find('\n');
  if (eol == std::string::npos)
    return makeError("the TorchScript worker sent a malformed reply");
  std::string head = msg.substr(0, eol);
  if (head.starts_with("error ")) {
    std::string code = head.substr(6);
    return Error::failure(msg.substr(eol + 1), code == "-" ? "" : code);
  }
  size_t count = std::stoul(head.substr(3));
  size_t timesEnd = msg.find('\n', eol + 1);
  if (timesEnd == std::string::npos)
    return makeError("the TorchScript worker sent a truncated reply");
  std::istringstream timeLine(msg.substr(eol + 1, timesEnd - eol - 1));
  std::string stage;
  double seconds;
  while (timeLine >> stage >> seconds)
    if (times)
      (*times)[stage] += seconds;
  size_t pos = timesEnd + 1;
  Outputs outs;
  for (size_t i = 0; i < count; ++i) {
    size_t nl = msg.find('\n', pos);
    if (nl == std::string::npos)
      return makeError("the TorchScript worker sent a truncated reply");
    size_t len = std::stoul(msg.substr(pos, nl - pos));
    CC_ASSIGN(t, parseNpy(msg.substr(nl + 1, len)));
    // bf16 travels as f32 (exact).
    DType want = g.typeOf(g.outputs.at(i)).dtype;
    outs.push_back(t.dtype() == want ? t : t.convertTo(want));
    pos = nl + 1 + len;
  }
  return outs;
}

Expected<Outputs> runIsolated(const TorchApi &api, const Graph &g,
                              const Inputs &inputs, const RunOptions &options) {
  api.warmUpScripting();
  auto start = Clock::now();
  void *mem = mmap(nullptr, 64, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    return makeError("cannot map memory for the TorchScript worker");
  char *stage = static_cast<char *>(mem);
  std::strcpy(stage, "start");
  int fds[2];
  if (pipe(fds) != 0) {
    munmap(mem, 64);
    return makeError("cannot create a pipe for the TorchScript worker");
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]), munmap(mem, 64);
    return makeError("cannot fork the TorchScript worker");
  }
  if (pid == 0) {
    close(fds[0]);
    sharedStage = stage;
    api.prepareForkedWorker();
    StageTimes workerTimes;
    auto r = api.runScripted(g, inputs, &workerTimes, noteStage);
    _exit(writeAll(fds[1], encode(r, workerTimes)) ? 0 : 3);
  }
  close(fds[1]);
  // Reads until the worker closes the pipe or the time is up.
  std::string msg;
  bool timedOut = false;
  auto deadline = start + std::chrono::duration<double>(options.timeoutSeconds);
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - Clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int ready = poll(&p, 1, int(std::min<int64_t>(left, 1000)));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    msg.append(buf, size_t(n));
  }
  close(fds[0]);
  if (timedOut)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string where(stage);
  munmap(mem, 64);
  double total = std::chrono::duration<double>(Clock::now() - start).count();
  if (timedOut)
    return Error::failure("TorchScript timed out after " +
                              std::to_string(options.timeoutSeconds) +
                              " s in stage '" + where + "'",
                          ErrorCode::Timeout);
  if (WIFSIGNALED(status)) {
    // Its stages are not the MLIR lowering's: only the message names them.
    CompilerFault fault;
    fault.kind = CompilerFault::Kind::Crashed;
    fault.signal = WTERMSIG(status);
    return compilerFault(
        "TorchScript crashed with signal " + std::to_string(WTERMSIG(status)) +
            " (" + strsignal(WTERMSIG(status)) + ") in stage '" + where + "'",
        std::move(fault));
  }
  // The worker's stages, and its overhead (fork, transfer) as "isolate".
  StageTimes worker;
  auto outs = decode(msg, g, &worker);
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

Expected<std::vector<std::string>> torchOps() {
  CC_ASSIGN(api, torchApi());
  return api->lowerableOps();
}

} // namespace cc
