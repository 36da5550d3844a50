// The libFuzzer engine of `crosscheck fuzz` (see LibFuzzerEngine.h).
#include "harness/LibFuzzerEngine.h"

#include "core/File.h"
#include "core/Format.h"
#include "core/Json.h"
#include "harness/CampaignSteps.h"
#include "harness/Store.h"
#include "harness/fuzz/Target.h"
#include "process/Process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sys/stat.h>

namespace cc::fuzz {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
using Clock = std::chrono::steady_clock;

std::string join(const std::vector<std::string> &parts, const char *sep) {
  std::string s;
  for (const std::string &p : parts)
    s += (s.empty() ? "" : sep) + p;
  return s;
}

// Runs argv with extra environment variables, stdout and stderr appended
// to logPath; returns the exit status (128 + N for signal N). libFuzzer
// bounds its own time (-max_total_time) and stays in our process group, so
// that a Ctrl-C reaches it too.
Expected<int>
runLogged(const std::vector<std::string> &argv,
          const std::vector<std::pair<std::string, std::string>> &env,
          const std::string &logPath) {
  process::ChildOptions o;
  o.ownProcessGroup = false;
  o.outputPath = logPath;
  o.appendOutput = true;
  o.env = env;
  o.limits = RunLimits::timeOnly(1e9);
  CC_ASSIGN(r, process::runProgram(argv, o));
  return r.status();
}

// libFuzzer's progress lines: "#N ... exec/s: E" (or "exec/s E" in fork
// mode); the last of them.
void parseLog(const std::string &log, LibFuzzerSummary &s) {
  static const std::regex line(R"(#(\d+)[: ].*exec/s:? (\d+))");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), line);
       it != std::sregex_iterator(); ++it) {
    s.executions = std::max<uint64_t>(s.executions, std::stoull((*it)[1]));
    s.execsPerSecond = std::stod((*it)[2]);
  }
}

std::vector<fs::path> filesIn(const fs::path &dir, const std::string &ext) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Unix seconds of the file's last change (when libFuzzer wrote it).
double modifiedAt(const fs::path &p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0)
    return 0;
  return double(st.st_mtim.tv_sec) + 1e-9 * double(st.st_mtim.tv_nsec);
}

Error makeDir(const fs::path &p) { return makeDirectory(p.string()); }

// An empty corpus starts from the seed graphs (.json) that fit the
// fuzzer's limits, as fuzz inputs.
Error seedCorpus(const std::string &seeds, const fs::path &corpus) {
  std::vector<fs::path> graphs = filesIn(seeds, ".json");
  if (graphs.empty())
    return makeError("seed corpus '" + seeds + "' holds no .json graph");
  uint32_t k = 0;
  for (const fs::path &file : graphs) {
    CC_ASSIGN(g, loadGraph(file.string()));
    if (!acceptableGraph(g))
      continue;
    CC_TRY(writeFile((corpus / ("seed-" + file.filename().string())).string(),
                     encodeCase({g, 1, k++})));
  }
  return Error();
}
} // namespace

Expected<std::string> findFuzzer(const std::string &flag,
                                 const std::string &self) {
  std::vector<std::string> candidates;
  if (!flag.empty())
    candidates = {flag};
  else if (const char *e = std::getenv("CC_LIBFUZZER_TARGET"); e && *e)
    candidates = {e};
  else {
    if (!self.empty())
      candidates.push_back(
          (fs::path(self).parent_path() / "cc_fuzz_pipeline").string());
    if (const char *path = std::getenv("PATH"))
      for (const std::string &d : [&] {
             std::vector<std::string> dirs;
             std::string p = path;
             for (size_t b = 0, e; b <= p.size(); b = e + 1) {
               e = p.find(':', b);
               if (e == std::string::npos)
                 e = p.size();
               dirs.push_back(p.substr(b, e - b));
             }
             return dirs;
           }())
        candidates.push_back(d + "/cc_fuzz_pipeline");
  }
  for (const std::string &c : candidates)
    if (access(c.c_str(), X_OK) == 0)
      return fs::absolute(c).string();
  return makeError(
      flag.empty()
          ? "no libFuzzer target: build cc_fuzz_pipeline (cmake "
            "-DCC_LIBFUZZER=ON -DCMAKE_CXX_COMPILER=clang++-22) and pass "
            "--fuzzer PATH or set CC_LIBFUZZER_TARGET"
          : "--fuzzer '" + flag + "' is not an executable file");
}

Expected<LibFuzzerSummary> runLibFuzzer(const LibFuzzerOptions &lf,
                                        const CampaignOptions &options) {
  if (options.cuts.empty())
    return makeError(
        "a campaign needs at least one compiler under test (--cut)");
  for (const std::string &c : options.cuts)
    if (c.find(';') != std::string::npos)
      return makeError("--cut '" + c +
                       "': ';' cannot be passed to the "
                       "libFuzzer target");
  if (options.jobs < 1)
    return makeError("--jobs must be at least 1");
  if (options.outDir.empty())
    return makeError("fuzz needs --out DIR");
  fs::path dir = options.outDir;
  fs::path corpus = lf.corpus.empty() ? dir / "corpus" : fs::path(lf.corpus);
  fs::path found = dir / "libfuzzer-findings";
  fs::path artifacts = dir / "artifacts";
  for (const fs::path &p : {dir, corpus, found, artifacts})
    CC_TRY(makeDir(p));
  if (!options.seedCorpus.empty() && filesIn(corpus, "").empty())
    CC_TRY(seedCorpus(options.seedCorpus, corpus));

  json identity = {{"engine", "libfuzzer"},
                   {"seed", options.seed},
                   {"cuts", options.cuts},
                   {"shard", "0/1"}};
  CC_ASSIGN(storeOwned, openCampaignStore(options, identity));
  Store &store = *storeOwned;

  std::vector<std::pair<std::string, std::string>> env = {
      {"CC_FUZZ_CUTS", join(options.cuts, ";")},
      {"CC_FUZZ_FINDINGS_DIR", fs::absolute(found).string()},
      {"CC_FUZZ_TIMEOUT",
       formatDouble("%g", options.caseLimits.timeoutSeconds)},
      {"CC_FUZZ_LOAD_MUTANTS", lf.loadMutants ? "1" : "0"}};
  // Fork mode even with one job: a crash (a finding) does not end it.
  std::vector<std::string> argv = {
      lf.fuzzer, "-fork=" + std::to_string(options.jobs), "-ignore_crashes=1",
      "-ignore_timeouts=1", "-ignore_ooms=1",
      "-max_total_time=" +
          std::to_string(std::max<long>(1, long(options.timeBudgetSeconds))),
      "-timeout=" +
          std::to_string(long(options.caseLimits.timeoutSeconds * 2 + 10)),
      "-rss_limit_mb=" + std::to_string(std::max<uint64_t>(
                             options.caseLimits.memoryBytes >> 20, 2048)),
      "-max_len=65536",
      // Inputs differ threefold in execution time (the pipeline's work):
      // spend the energy where an execution is cheap.
      "-entropic_scale_per_exec_time=1",
      "-seed=" + std::to_string(options.seed + 1),
      "-artifact_prefix=" + fs::absolute(artifacts).string() + "/",
      "-print_final_stats=1"};
  argv.insert(argv.end(), lf.extraArgs.begin(), lf.extraArgs.end());
  argv.push_back(fs::absolute(corpus).string());
  std::string logPath = (dir / "libfuzzer.log").string();
  auto start = Clock::now();
  CC_ASSIGN(status, runLogged(argv, env, logPath));
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  LibFuzzerSummary s;
  CC_ASSIGN(log, readFile(logPath));
  parseLog(log, s);
  // Fork mode exits non-zero after crashes it ignored. A crash without a
  // finding file is the target itself dying (crosscheck's own bug, or a
  // compiler crash with CC_FUZZ_ISOLATE=0): said, not lost.
  if (status != 0 && filesIn(found, ".json").empty()) {
    if (filesIn(artifacts, "").empty())
      return makeError("the libFuzzer target exited with status " +
                       std::to_string(status) + " (see " + logPath + ")");
    std::fprintf(stderr,
                 "crosscheck fuzz: the libFuzzer target crashed without a "
                 "finding of crosscheck's; its inputs are in %s\n",
                 artifacts.c_str());
  }

  if (lf.merge) {
    fs::path merged = dir / "corpus.merged";
    std::error_code ec;
    fs::remove_all(merged, ec);
    CC_TRY(makeDir(merged));
    CC_ASSIGN(mergeStatus,
              runLogged({lf.fuzzer, "-merge=1", fs::absolute(merged).string(),
                         fs::absolute(corpus).string()},
                        env, logPath));
    if (mergeStatus != 0)
      return makeError("libFuzzer -merge=1 failed (see " + logPath + ")");
    fs::remove_all(corpus, ec);
    fs::rename(merged, corpus, ec);
    if (ec)
      return makeError("cannot replace the corpus: " + ec.message());
  }

  // Findings: each file once (moved aside after it is recorded).
  CC_ASSIGN(next, store.caseCount());
  CampaignProgress progress;
  fs::path imported = found / "imported";
  CC_TRY(makeDir(imported));
  for (const fs::path &file : filesIn(found, ".json")) {
    CC_ASSIGN(record, loadFinding(file.string()));
    CaseOutcome o;
    o.index = next++;
    o.graphName = record.testCase.graph.name;
    o.findings.push_back(std::move(record));
    CC_TRY(store.record(o, 0));
    ++progress.findings;
    std::error_code ec;
    fs::rename(file, imported / file.filename(), ec);
  }

  // The corpus' pass and pattern coverage, one case per corpus input, in
  // the order the inputs joined the corpus and dated by it, so that the
  // dashboard shows coverage growing over the run.
  std::vector<std::pair<double, fs::path>> inputs;
  for (const fs::path &file : filesIn(corpus, ""))
    inputs.push_back({modifiedAt(file), file});
  std::stable_sort(
      inputs.begin(), inputs.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  s.corpusSize = inputs.size();
  if (lf.replayCoverage && !inputs.empty()) {
    TargetConfig tc;
    tc.cuts = options.cuts;
    tc.limits = options.caseLimits;
    CC_ASSIGN(target, Target::make(tc));
    for (const auto &[joined, file] : inputs) {
      CC_ASSIGN(bytes, readFile(file.string()));
      Execution e = target->run(reinterpret_cast<const uint8_t *>(bytes.data()),
                                bytes.size());
      CaseOutcome o;
      o.index = next++;
      o.graphName = "corpus/" + file.filename().string();
      o.skipped = e.skipped;
      o.skipReason = e.skipReason;
      o.coverage = e.opCoverage;
      o.passCoverage = e.passCoverage;
      o.recordedAt = joined;
      // Findings of the corpus itself were filed by the fuzzer already.
      CC_TRY(store.record(o, 0));
    }
  }

  progress.cases = s.executions;
  progress.elapsed = seconds;
  progress.budget = options.timeBudgetSeconds;
  progress.casesPerSecond = s.execsPerSecond;
  if (auto sigs = store.signatures())
    progress.signatures = sigs->size();
  CC_TRY(store.recordStats(progress, 0));
  if (options.reduce)
    CC_TRY(reduceNewFindings(store, options));
  CampaignSummary summary;
  summary.cases = summary.graphs = s.executions;
  summary.seconds = seconds;
  CC_ASSIGN(out,
            writeOutputs(store, options.outDir, summary, options.knownBugs));
  s.campaign = std::move(out);
  return s;
}

} // namespace cc::fuzz
