// crosscheck fuzz: the campaign (the nightly CI job), and crosscheck merge.
#include "core/Json.h"
#include "harness/Campaign.h"
#include "harness/fuzz/Engine.h"
#include "tests/mutants/Mutants.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/GenFlags.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace cc::cli {

namespace {
const Command kFuzz{
    "fuzz",
    "crosscheck fuzz --cut SPEC [--cut SPEC ...] [--ref ref] --time 10m "
    "--jobs N --seed S --out DIR [--resume] [--shard I/N] [--baseline FILE] "
    "[generator flags]",
    "Runs a fuzz campaign: generates cases (graphs with inputs), runs each\n"
    "through every compiler under test and the references in long-lived\n"
    "worker processes, judges them with the numeric, crash, timeout and\n"
    "verifier oracles, and records deduplicated findings in DIR/campaign.db\n"
    "(SQLite). When compilers disagree, the other results settle which side\n"
    "is wrong. Writes DIR/junit.xml, DIR/findings.sarif, DIR/findings.json,\n"
    "DIR/summary.txt and one DIR/findings/*.json per signature (a\n"
    "self-contained reproducer for crosscheck reduce).\n\n"
    "Case i is a function of the seed, the flags and i alone: --shard I/N\n"
    "runs the cases with i % N == I, so N shards cover the stream exactly\n"
    "once; --resume continues a campaign that was stopped or killed,\n"
    "without re-running or double-counting a recorded case.",
    {
        {"--cut", "", "SPEC",
         "a compiler under test (repeatable; default mlir:tosa-O3): "
         "mlir:NAME, mlir:pipeline=TEXT, mlir-ext:CMD, cuda:NAME (see "
         "crosscheck run --help)",
         true},
        {"--ref", "", "NAME",
         "a reference (repeatable): ref, the f64 interpreter, always first; "
         "a second reference that disagrees with it is recorded as a "
         "reference-disagreement",
         true},
        {"--time", "", "DURATION",
         "time budget: 90, 30s, 10m, 2h (default 10m); running cases "
         "finish after it"},
        {"--max-cases", "", "N",
         "stop after the first N cases of the stream, N >= 1 (with --shard: "
         "the shard's share of them; default: no limit, --time ends it)"},
        {"--jobs", "-j", "N", "worker processes (default 1)"},
        {"--seed", "", "S", "campaign seed (default 0)"},
        {"--out", "-o", "DIR", "campaign directory (created)"},
        {"--resume", "", "", "continue the campaign in DIR (same flags)"},
        {"--shard", "", "I/N", "run shard I of N (0-based; default 0/1)"},
        {"--baseline", "", "FILE",
         "an earlier campaign (its DIR, campaign.db or findings.json): its "
         "findings are known, only new ones count"},
        {"--seed-corpus", "", "DIR",
         "graphs (.json or .onnx) that open the case stream"},
        {"--engine", "", "NAME",
         "generator (default: the case stream above) or libfuzzer: the "
         "coverage-guided cc_fuzz_pipeline target in fork mode with --jobs "
         "jobs, its findings filed in the same store (uses --cut, --time, "
         "--jobs, --seed, --out, --resume, --baseline, --timeout, "
         "--memory-limit, --reduce; --seed-corpus fills an empty corpus)"},
        {"--fuzzer", "", "PATH",
         "libfuzzer: the target (default $CC_LIBFUZZER_TARGET, or "
         "cc_fuzz_pipeline beside crosscheck or on PATH)"},
        {"--corpus", "", "DIR",
         "libfuzzer: corpus directory (default DIR/corpus)"},
        {"--merge", "", "",
         "libfuzzer: minimize the corpus afterwards (-merge=1)"},
        {"--libfuzzer-arg", "", "ARG",
         "libfuzzer: passed to libFuzzer as it is (repeatable)", true},
        {"--precision", "", "LIST",
         "comma-separated precision variants mixed into the stream: f16, "
         "bf16, mixed, int8, int16 (default: graphs as generated)"},
        {"--edge-rate", "", "P",
         "share of edge values in inputs (default 0.15)"},
        {"--special-rate", "", "P",
         "share of +-Inf, NaN and denormals in float inputs (default 0)"},
        {"--timeout", "", "S",
         "seconds one compiler run may take before it counts as hung "
         "(default 30)"},
        {"--memory-limit", "", "SIZE",
         "address space of one compiler run: 4G, 512M (default 4G); more "
         "is a finding"},
        {"--reduce", "", "",
         "after the cases, reduce each new finding to a minimal case with the "
         "same signature (DIR/findings/*.reduced.json)"},
        {"--reduce-budget", "", "DURATION",
         "time to reduce one finding (default 60s)"},
        {"--tv", "", "",
         "also validate every pass of each in-process MLIR compiler with Z3 "
         "on every case: a pass proved wrong (counterexample confirmed by "
         "running both sides) is a tv-incorrect finding"},
        {"--tv-per-rewrite", "", "",
         "with --tv: also validate every single rewrite of the greedy "
         "pattern passes (canonicalize, fusion, ...), naming the pattern"},
        {"--tv-timeout-ms", "", "MS",
         "with --tv: time limit of one solver query (default 2000)"},
        {"--tv-budget", "", "DURATION",
         "with --tv: time for validating one case's pipeline; the passes "
         "checked by then count (default 20s)"},
        {"--quiet", "-q", "", "no progress output"},
        {"--load-mutants", "", "",
         "testing only: register the deliberately wrong cc-mutant-* passes"},
    },
    "Exit status: 0 no new finding, 1 new findings (not in the baseline), 2 "
    "an error.\nOn a terminal a live progress line is shown; otherwise a log "
    "line every 10 s."};

const Command kMerge{
    "merge",
    "crosscheck merge DIR... -o OUT [--baseline FILE]",
    "Merges the campaign directories of the shards of one campaign into OUT\n"
    "(deduplicating findings, adding their counts) and writes OUT's CI\n"
    "outputs as a campaign does.",
    {
        {"--out", "-o", "OUT", "merged campaign directory (created)"},
        {"--baseline", "", "FILE", "as for crosscheck fuzz"},
    },
    "Exit status: 0 no new finding, 1 new findings, 2 an error."};

Expected<double> parseDuration(const std::string &text,
                               const std::string &flag = "--time") {
  if (text.empty())
    return makeError("flag '" + flag + "': empty duration");
  double unit = 1;
  std::string number = text;
  switch (text.back()) {
  case 's': unit = 1; number.pop_back(); break;
  case 'm': unit = 60; number.pop_back(); break;
  case 'h': unit = 3600; number.pop_back(); break;
  default: break;
  }
  CC_ASSIGN(v, parseNumber(flag, number));
  if (v <= 0)
    return makeError("flag '" + flag + "': must be positive, got '" + text + "'");
  return v * unit;
}

Error parseShard(const std::string &text, CampaignOptions &o) {
  size_t slash = text.find('/');
  if (slash == std::string::npos)
    return makeError("flag '--shard': expected I/N, got '" + text + "'");
  CC_ASSIGN(i, parseUnsigned("--shard", text.substr(0, slash)));
  CC_ASSIGN(n, parseUnsigned("--shard", text.substr(slash + 1)));
  if (n == 0 || i >= n)
    return makeError("flag '--shard': need 0 <= I < N, got '" + text + "'");
  o.shardIndex = uint32_t(i);
  o.shardCount = uint32_t(n);
  return Error();
}

Expected<CampaignOptions> campaignOptions(const Args &args) {
  CampaignOptions o;
  o.cuts = args.all("--cut");
  if (o.cuts.empty())
    o.cuts = {"mlir:tosa-O3"};
  if (args.has("--ref"))
    o.refs = args.all("--ref");
  CC_ASSIGN(gen, generatorOptions(args));
  o.gen = gen;
  CC_ASSIGN(budget, parseDuration(args.get("--time", "10m")));
  o.timeBudgetSeconds = budget;
  if (args.has("--max-cases")) {
    CC_ASSIGN(maxCases, parseUnsigned("--max-cases", args.get("--max-cases")));
    // 0 reads as "no case" or as "no limit": leaving the flag out is the
    // latter, and a campaign of no case is never meant.
    if (maxCases < 1)
      return makeError("flag '--max-cases': must be at least 1 (leave it "
                       "out for no limit)");
    o.maxCases = maxCases;
  }
  CC_ASSIGN(jobs, parseUnsigned("--jobs", args.get("--jobs", "1")));
  if (jobs < 1 || jobs > 256)
    return makeError("flag '--jobs': must be between 1 and 256");
  o.jobs = int(jobs);
  CC_ASSIGN(seed, parseUnsigned("--seed", args.get("--seed", "0")));
  o.seed = seed;
  o.outDir = args.get("--out");
  if (o.outDir.empty())
    return makeError("fuzz needs --out DIR");
  o.resume = args.has("--resume");
  if (args.has("--shard"))
    CC_TRY(parseShard(args.get("--shard"), o));
  o.baseline = args.get("--baseline");
  o.seedCorpus = args.get("--seed-corpus");
  for (const std::string &p : splitList(args.get("--precision"))) {
    auto k = parsePrecisionKind(p);
    if (!k)
      return k.error().withContext("flag '--precision'");
    o.precisions.push_back(*k);
  }
  for (auto [flag, rate] : {std::pair{"--edge-rate", &o.inputs.edgeRate},
                            std::pair{"--special-rate", &o.inputs.specialRate}}) {
    if (!args.has(flag))
      continue;
    CC_ASSIGN(p, parseNumber(flag, args.get(flag)));
    if (p < 0 || p > 1)
      return makeError(std::string("flag '") + flag + "': must be between 0 and 1");
    *rate = p;
  }
  CC_ASSIGN(timeout, parseNumber("--timeout", args.get("--timeout", "30")));
  if (timeout <= 0)
    return makeError("flag '--timeout': must be positive");
  o.caseTimeoutSeconds = timeout;
  CC_ASSIGN(memory, parseMemoryLimit(args.get("--memory-limit", "4G")));
  o.memoryLimitBytes = memory;
  o.reduce = args.has("--reduce");
  CC_ASSIGN(reduceBudget, parseDuration(args.get("--reduce-budget", "60s"), "--reduce-budget"));
  o.reduceBudgetSeconds = reduceBudget;
  o.tvPerRewrite = args.has("--tv-per-rewrite");
  o.tv = args.has("--tv") || o.tvPerRewrite;
  CC_ASSIGN(tvTimeout, parseUnsigned("--tv-timeout-ms",
                                     args.get("--tv-timeout-ms", "2000")));
  if (tvTimeout < 1)
    return makeError("flag '--tv-timeout-ms': must be positive");
  o.tvTimeoutMs = unsigned(tvTimeout);
  CC_ASSIGN(tvBudget, parseDuration(args.get("--tv-budget", "20s"),
                                    "--tv-budget"));
  o.tvBudgetSeconds = tvBudget;
  return o;
}

const Command &fuzzCommandSpec() {
  static const Command cmd = [] {
    Command c = kFuzz;
    std::vector<Flag> flags = generatorFlags();
    c.flags.insert(c.flags.end() - 2, flags.begin(), flags.end());
    return c;
  }();
  return cmd;
}

// A live line on a terminal, a log line every 10 s otherwise.
std::function<void(const CampaignProgress &)> progressPrinter() {
  bool tty = isatty(2);
  auto lastLog = std::make_shared<double>(-10);
  return [tty, lastLog](const CampaignProgress &p) {
    bool final = p.elapsed >= p.budget;
    if (tty) {
      std::fprintf(stderr,
                   "\r[%6.0f s / %.0f s] %llu cases, %.1f cases/s, %llu with "
                   "findings, %llu signatures   ",
                   p.elapsed, p.budget, (unsigned long long)p.cases,
                   p.casesPerSecond, (unsigned long long)p.findings,
                   (unsigned long long)p.signatures);
      return;
    }
    if (p.elapsed - *lastLog < 10 && !final)
      return;
    *lastLog = p.elapsed;
    std::fprintf(stderr,
                 "crosscheck fuzz: %.0f s of %.0f s: %llu cases (%.1f/s), %llu "
                 "with findings, %llu signatures\n",
                 p.elapsed, p.budget, (unsigned long long)p.cases,
                 p.casesPerSecond, (unsigned long long)p.findings,
                 (unsigned long long)p.signatures);
  };
}

int finish(const std::string &dir, const CampaignSummary &s) {
  auto text = readFile(dir + "/summary.txt");
  std::cout << (text ? *text : "") << "outputs in " << dir
            << " (campaign.db, junit.xml, findings.sarif, findings.json)\n";
  return s.newSignatures() ? kExitFinding : kExitPass;
}

// --engine libfuzzer (harness/fuzz/Engine.h).
int libFuzzerEngine(const Args &args, const CampaignOptions &o) {
  std::error_code ec;
  auto fuzzer = fuzz::findFuzzer(
      args.get("--fuzzer"),
      std::filesystem::read_symlink("/proc/self/exe", ec).string());
  if (!fuzzer)
    return fail(fuzzer.error());
  fuzz::LibFuzzerOptions lf{*fuzzer, args.get("--corpus"), args.has("--merge"),
                            args.has("--load-mutants"), true,
                            args.all("--libfuzzer-arg")};
  auto s = fuzz::runLibFuzzer(lf, o);
  if (!s)
    return fail(s.error());
  std::cout << "libFuzzer: " << s->executions << " executions, "
            << s->execsPerSecond << " exec/s; corpus of " << s->corpusSize
            << " inputs\n";
  return finish(o.outDir, s->campaign);
}
} // namespace

int fuzzCommand(const Argv &argv) {
  const Command &cmd = fuzzCommandSpec();
  auto args = parseArgs(cmd, argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(cmd), kExitPass;
  if (!args->positional.empty())
    return fail("fuzz takes no positional arguments (see crosscheck fuzz --help)");
  auto options = campaignOptions(*args);
  if (!options)
    return fail(options.error());
  if (args->has("--load-mutants"))
    registerMutantPasses();
  std::string engine = args->get("--engine", "generator");
  if (engine == "libfuzzer")
    return libFuzzerEngine(*args, *options);
  if (engine != "generator")
    return fail("flag '--engine': expected generator or libfuzzer, got '" +
                engine + "'");
  bool quiet = args->has("--quiet");
  if (!quiet)
    options->onProgress = progressPrinter();
  auto summary = runCampaign(*options);
  if (!quiet && isatty(2))
    std::fputc('\n', stderr);
  if (!summary)
    return fail(summary.error());
  return finish(options->outDir, *summary);
}

int mergeCommand(const Argv &argv) {
  auto args = parseArgs(kMerge, argv);
  if (!args)
    return fail(args.error());
  if (args->has("--help"))
    return std::cout << helpText(kMerge), kExitPass;
  if (args->positional.empty())
    return fail("merge needs campaign directories (see crosscheck merge --help)");
  std::string out = args->get("--out");
  if (out.empty())
    return fail("merge needs -o OUT");
  auto summary = mergeCampaigns(args->positional, out, args->get("--baseline"));
  if (!summary)
    return fail(summary.error());
  return finish(out, *summary);
}

} // namespace cc::cli
