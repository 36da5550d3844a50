// Translation-validation benchmark: per pass and per canonicalize rewrite of
// the TOSA canonicalization, tosa-to-linalg and linalg passes, over the seed
// corpus and generated graphs: median and p95 seconds per check and the
// share decided (correct or incorrect) vs unknown/timeout. Prints one JSON
// object.
//   tv_bench [--graphs N=200] [--timeout-ms MS=2000] [--budget-s S=10]
// smt::verifyPipeline cannot be interrupted, so every (graph, pipeline)
// check runs in a forked child that is killed after S seconds; such a graph
// counts as `timeout` and none of its steps count (verifyPipeline returns
// them all at once).
#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "generators/Topology.h"
#include "smt/Validate.h"

#include <nlohmann/json.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace {
double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

struct Step {
  std::string kind; // pass or rewrite
  std::string verdict;
  double seconds = 0;
};

enum class RunStatus { Ok, Error, Timeout, Crash };

struct GraphRun {
  RunStatus status = RunStatus::Ok;
  std::vector<Step> steps;
};

void writeAll(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0)
      return;
    done += size_t(n);
  }
}

// Child side: emit, validate, write one line per uncached step. The last
// line is "ok" or "error"; a killed child leaves neither.
[[noreturn]] void runChild(int fd, const cc::Graph &g, const char *pipeline,
                           unsigned timeoutMs) {
  auto m = cc::emitModule(g);
  if (!m) {
    writeAll(fd, "error\n");
    ::_exit(0);
  }
  cc::smt::TvOptions o;
  o.timeoutMs = timeoutMs;
  auto steps = cc::smt::verifyPipeline(*m, pipeline, o, true);
  if (!steps) {
    writeAll(fd, "error\n");
    ::_exit(0);
  }
  for (const auto &s : *steps) {
    if (s.cached)
      continue;
    std::ostringstream line;
    line << "step " << (s.pattern.empty() ? "pass" : "rewrite") << " "
         << cc::smt::verdictName(s.verdict) << " " << s.seconds << "\n";
    writeAll(fd, line.str());
  }
  writeAll(fd, "ok\n");
  ::_exit(0);
}

// The parent never creates an MLIR context or a Z3 solver, so it stays
// single-threaded and forking is safe.
GraphRun runGraph(const cc::Graph &g, const char *pipeline, unsigned timeoutMs,
                  double budgetS) {
  GraphRun r;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.status = RunStatus::Crash;
    return r;
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    r.status = RunStatus::Crash;
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    runChild(fds[1], g, pipeline, timeoutMs);
  }
  ::close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(budgetS);
  std::string buf;
  bool timedOut = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int rc = ::poll(&p, 1, int(left));
    if (rc < 0 && errno == EINTR)
      continue;
    if (rc == 0) {
      timedOut = true;
      break;
    }
    char chunk[4096];
    ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n <= 0)
      break; // EOF: the child is done
    buf.append(chunk, size_t(n));
  }
  if (timedOut)
    ::kill(pid, SIGKILL);
  ::close(fds[0]);
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);

  std::istringstream in(buf);
  std::string word;
  bool finished = false;
  while (in >> word) {
    if (word == "step") {
      Step s;
      in >> s.kind >> s.verdict >> s.seconds;
      r.steps.push_back(s);
    } else if (word == "ok") {
      finished = true;
    } else if (word == "error") {
      r.status = RunStatus::Error;
      finished = true;
    }
  }
  if (timedOut)
    r.status = RunStatus::Timeout;
  else if (!finished)
    r.status = RunStatus::Crash;
  return r;
}

struct Args {
  int graphs = 200;
  unsigned timeoutMs = 2000;
  double budgetS = 10;
};

bool parseArgs(int argc, char **argv, Args &a) {
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (i + 1 >= argc)
      return false;
    std::string v = argv[++i];
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end || d < 0)
      return false;
    if (k == "--graphs")
      a.graphs = int(d);
    else if (k == "--timeout-ms")
      a.timeoutMs = unsigned(d);
    else if (k == "--budget-s")
      a.budgetS = d;
    else
      return false;
  }
  return a.budgetS > 0 && a.timeoutMs > 0;
}
} // namespace

int main(int argc, char **argv) {
  Args args;
  if (!parseArgs(argc, argv, args)) {
    std::cerr << "usage: tv_bench [--graphs N=200] [--timeout-ms MS=2000] "
                 "[--budget-s S=10]\n";
    return 2;
  }
  std::vector<cc::Graph> graphs;
  std::vector<std::filesystem::path> seedPaths;
  for (const auto &e : std::filesystem::directory_iterator(CC_SEEDS_DIR))
    if (e.path().extension() == ".json")
      seedPaths.push_back(e.path());
  std::sort(seedPaths.begin(), seedPaths.end());
  for (const auto &p : seedPaths)
    if (auto g = cc::loadGraph(p.string()))
      graphs.push_back(std::move(*g));
  size_t seeds = graphs.size();
  for (int i = 0; i < args.graphs; ++i) {
    cc::GenOptions go;
    if (auto g = cc::generateGraph(go, uint64_t(i)))
      graphs.push_back(std::move(*g));
  }
  const std::pair<const char *, const char *> pipelines[] = {
      {"tosa-canonicalize", "func.func(canonicalize)"},
      {"tosa-to-linalg", "func.func(tosa-to-linalg-named,tosa-to-linalg,"
                         "tosa-to-tensor,tosa-to-arith)"},
      {"linalg", "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,"
                 "tosa-to-arith,linalg-generalize-named-ops,"
                 "linalg-fuse-elementwise-ops)"},
  };
  auto start = std::chrono::steady_clock::now();
  nlohmann::json out;
  out["graphs"] = {{"seeds", seeds}, {"generated", graphs.size() - seeds}};
  out["timeout_ms"] = args.timeoutMs;
  out["graph_budget_s"] = args.budgetS;
  for (auto [name, pipeline] : pipelines) {
    std::map<std::string, std::vector<double>> times;
    std::map<std::string, int> total, decided;
    std::map<std::string, int> verdicts;
    std::map<std::string, int> status;
    for (const cc::Graph &g : graphs) {
      GraphRun r = runGraph(g, pipeline, args.timeoutMs, args.budgetS);
      static const char *const statusNames[] = {"ok", "error", "timeout",
                                                "crash"};
      ++status[statusNames[int(r.status)]];
      for (const Step &s : r.steps) {
        times[s.kind].push_back(s.seconds);
        ++total[s.kind];
        decided[s.kind] += s.verdict == "correct" || s.verdict == "incorrect";
        ++verdicts[s.kind + ":" + s.verdict];
      }
    }
    nlohmann::json j;
    for (const char *kind : {"pass", "rewrite"}) {
      j[kind] = {{"checks", total[kind]},
                 {"median_s", quantile(times[kind], 0.5)},
                 {"p95_s", quantile(times[kind], 0.95)},
                 {"decided_share",
                  total[kind] ? double(decided[kind]) / total[kind] : 0.0}};
    }
    j["verdicts"] = verdicts;
    // Per graph: ok, error (emit or pipeline failed), timeout (killed after
    // the budget; none of its steps are in the check counts), crash.
    j["graphs"] = status;
    out[name] = j;
  }
  out["wall_s"] = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  std::cout << out.dump(2) << "\n";
}
