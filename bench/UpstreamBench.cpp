// crosscheck beside what a user would run instead, on the same cases: the
// campaign's first N generated graphs with their inputs (10 ops, seed 2026,
// as campaign_bench) through
//   (a) a crosscheck campaign with one worker (isolated lowering, JIT and
//       run, reference and oracle), and
//   (b) upstream mlir-opt + mlir-runner, one pair of subprocesses per case:
//       the repro.sh a bug bundle ships, which lowers the program with the
//       same pipeline, runs @repro_main on the inputs and compares what it
//       prints with the reference's values.
// Only (b)'s repro.sh runs are timed, not the writing of its files. Prints
// one JSON object.   upstream_bench [--cases N] [--pipeline NAME]
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "harness/Campaign.h"
#include "harness/CaseStream.h"
#include "reports/BundleInternal.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace cc;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Writes case `c`'s repro.sh into `dir` (what a bundle ships) and returns
// the seconds its run took, with its exit status.
Expected<std::pair<double, int>>
runUpstream(const TestCase &c, const NamedPipeline &p, const std::string &dir) {
  CC_ASSIGN(program, bundle::programText(c.graph, c.inputs));
  Outputs magnitudes;
  CC_ASSIGN(ref, interpret(c.graph, c.inputs, Precision::F64, &magnitudes));
  CC_ASSIGN(target, interpret(c.graph, c.inputs, Precision::Target));
  bundle::ReproSpec spec{
      dir,
      c.graph.name,
      program.program,
      bundle::expectations(c.graph, ref, target, magnitudes).table,
      /*compare=*/true,
      /*passesComplete=*/true};
  std::vector<std::string> notes;
  fs::create_directories(dir);
  CC_ASSIGN(repro, bundle::writeRepro(spec, p.pipeline, p.llvmOptLevel, notes));
  if (repro.pipeline.empty())
    return makeError("no upstream repro.sh for " + p.name);
  auto start = Clock::now();
  int status = bundle::runRepro(dir, Kind::Miscompile);
  return std::pair{since(start), status};
}

} // namespace

int main(int argc, char **argv) {
  uint64_t cases = 30;
  std::string pipeline = "tosa-O0";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases"))
      cases = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--pipeline"))
      pipeline = argv[i + 1];
  }
  const NamedPipeline *named = nullptr;
  for (const NamedPipeline &p : namedPipelines())
    if (p.name == pipeline)
      named = &p;
  if (!named) {
    std::cerr << "upstream_bench: no named pipeline '" << pipeline << "'\n";
    return 2;
  }
  fs::path dir = fs::temp_directory_path() /
                 ("cc-upstream-bench-" + std::to_string(getpid()));
  fs::remove_all(dir);
  CampaignOptions o;
  o.cuts = {"mlir:" + pipeline};
  o.outDir = (dir / "campaign").string();
  o.maxCases = cases;
  o.timeBudgetSeconds = 3600;
  o.jobs = 1;
  o.seed = 2026;
  o.gen.minOps = o.gen.maxOps = 10;

  auto start = Clock::now();
  auto summary = runCampaign(o);
  double crosscheckSeconds = since(start);
  auto stream = CaseStream::make(o);
  if (!summary || !stream) {
    std::cerr << "upstream_bench: "
              << (summary ? stream.error() : summary.error()).message() << "\n";
    return 2;
  }

  double upstreamSeconds = 0;
  std::map<std::string, int> statuses;
  for (uint64_t i = 0; i < cases; ++i) {
    auto c = stream->at(i);
    auto run = c ? runUpstream(*c, *named, (dir / std::to_string(i)).string())
                 : Expected<std::pair<double, int>>(c.error());
    if (!run) {
      std::cerr << "upstream_bench: case " << i << ": " << run.error().message()
                << "\n";
      return 2;
    }
    upstreamSeconds += run->first;
    statuses[std::to_string(run->second)]++;
  }
  fs::remove_all(dir);

  double ccRate = double(cases) / crosscheckSeconds,
         upRate = double(cases) / upstreamSeconds;
  nlohmann::json out = {
      {"benchmark", "upstream"},
      {"pipeline", pipeline},
      {"cases", cases},
      {"ops_per_graph", 10},
      {"input_sets_per_graph", o.inputSets},
      {"crosscheck",
       {{"seconds", crosscheckSeconds},
        {"cases_per_second", ccRate},
        {"graphs", summary->graphs},
        {"graphs_per_second", double(summary->graphs) / crosscheckSeconds}}},
      {"mlir_opt_and_mlir_runner",
       {{"seconds", upstreamSeconds},
        {"cases_per_second", upRate},
        {"repro_exit_statuses", statuses}}},
      {"speedup", ccRate / upRate}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
