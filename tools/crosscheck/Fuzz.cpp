// crosscheck fuzz: the campaign (the nightly CI job), and crosscheck merge.
#include "core/File.h"
#include "core/Json.h"
#include "harness/Campaign.h"
#include "harness/LibFuzzerEngine.h"
#include "tools/crosscheck/Commands.h"
#include "tools/crosscheck/GenFlags.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace cc::cli {

namespace {
// fuzz's options: a campaign's, and libFuzzer's for --engine libfuzzer.
struct FuzzFlags : CampaignOptions {
  FuzzFlags() { cuts = {kDefaultCut}; }
  std::string engine = "generator";
  fuzz::LibFuzzerOptions libFuzzer;
  bool quiet = false;
};
using F = FuzzFlags;
using L = fuzz::LibFuzzerOptions;

// I/N: shard I of N.
Error setShard(CampaignOptions &o, const std::string &flag,
               const std::vector<std::string> &values) {
  const std::string &text = values.back();
  size_t slash = text.find('/');
  if (slash == std::string::npos)
    return makeError("flag '" + flag + "': expected I/N, got '" + text + "'");
  CC_ASSIGN(i, parseUnsigned(flag, text.substr(0, slash)));
  CC_ASSIGN(n, parseUnsigned(flag, text.substr(slash + 1)));
  if (n == 0 || i >= n)
    return makeError("flag '" + flag + "': need 0 <= I < N, got '" + text +
                     "'");
  o.shardIndex = uint32_t(i);
  o.shardCount = uint32_t(n);
  return Error::success();
}

Binding<CampaignOptions> shard() {
  return {setShard, [](const CampaignOptions &o) {
            return std::to_string(o.shardIndex) + "/" +
                   std::to_string(o.shardCount);
          }};
}

// 0 reads as "no case" or as "no limit": leaving the flag out is the
// latter, and a campaign of no case is never meant.
Expected<uint64_t> parseMaxCases(const std::string &flag,
                                 const std::string &text) {
  CC_ASSIGN(n, parseUnsigned(flag, text));
  if (n < 1)
    return makeError("flag '" + flag +
                     "': must be at least 1 (leave it out for no limit)");
  return n;
}

Expected<CampaignOptions::Generator> parseGenerator(const std::string &flag,
                                                    const std::string &text) {
  CC_ASSIGN(name, parseChoice(flag, text, {"graph", "mlir", "mixed"}));
  using G = CampaignOptions::Generator;
  return name == "graph" ? G::Graph : name == "mlir" ? G::Mlir : G::Mixed;
}

std::string generatorName(const CampaignOptions::Generator &g) {
  using G = CampaignOptions::Generator;
  return g == G::Graph ? "graph" : g == G::Mlir ? "mlir" : "mixed";
}

// fuzz's own flags; the generator's follow them.
const FlagTable<F> kFuzzFlags = {
    {"--cut", "", "SPEC",
     "a compiler under test (default {}): mlir:NAME, mlir:pipeline=TEXT, "
     "mlir-ext:CMD, cuda:NAME (see crosscheck run --help)",
     texts(&F::cuts)},
    {"--ref", "", "NAME",
     "a further reference besides ref (the f64 interpreter, always "
     "first): torch, cudnn, ...; one that disagrees with ref is a "
     "reference-disagreement. Programs: smt, the program's value from its "
     "Z3 encoding, judges the straight lowering",
     texts(&F::refs)},
    {"--time", "", "DURATION",
     "time budget: 90, 30s, 10m, 2h (default {}); running cases finish "
     "after it",
     duration(&F::timeBudgetSeconds)},
    {"--max-cases", "", "N",
     "stop after the first N cases of the stream, N >= 1 (with --shard: "
     "the shard's share of them; default: no limit, --time ends it)",
     value(&F::maxCases, parseMaxCases)},
    {"--jobs", "-j", "N", "worker processes (default {})",
     count(&F::jobs, 1, 256)},
    {"--seed", "", "S", "campaign seed (default {})", count(&F::seed)},
    {"--out", "-o", "DIR", "campaign directory (created)", text(&F::outDir)},
    {"--resume", "", "", "continue the campaign in DIR (same flags)",
     on(&F::resume)},
    {"--shard", "", "I/N", "run shard I of N (0-based; default {})", shard()},
    {"--baseline", "", "FILE",
     "an earlier campaign (its DIR, campaign.db or findings.json): its "
     "findings are known, only new ones count",
     text(&F::baseline)},
    {"--known-bugs", "", "FILE",
     "bugs the project knows (corpus/known/mlir-22.json): their findings "
     "are grouped under the bug, with its upstream link, and are not new",
     text(&F::knownBugs)},
    {"--seed-corpus", "", "DIR",
     "graphs (.json or .onnx) that open the case stream; every other "
     "generated graph is then one of them grown by 1 to 4 ops",
     text(&F::seedCorpus)},
    {"--engine", "", "NAME",
     "{} (default: the case stream above) or libfuzzer: the "
     "coverage-guided cc_fuzz_pipeline target in fork mode with --jobs "
     "jobs, its findings filed in the same store (uses --cut, --time, "
     "--jobs, --seed, --out, --resume, --baseline, --timeout, "
     "--memory-limit, --reduce; --seed-corpus fills an empty corpus)",
     choice(&F::engine, {"generator", "libfuzzer"})},
    {"--fuzzer", "", "PATH",
     "libfuzzer: the target (default $CC_LIBFUZZER_TARGET, or "
     "cc_fuzz_pipeline beside crosscheck or on PATH)",
     within(&F::libFuzzer, text(&L::fuzzer))},
    {"--corpus", "", "DIR", "libfuzzer: corpus directory (default DIR/corpus)",
     within(&F::libFuzzer, text(&L::corpus))},
    {"--merge", "", "", "libfuzzer: minimize the corpus afterwards (-merge=1)",
     within(&F::libFuzzer, on(&L::merge))},
    {"--libfuzzer-arg", "", "ARG", "libfuzzer: passed to libFuzzer as it is",
     within(&F::libFuzzer, texts(&L::extraArgs))},
    {"--generator", "", "NAME",
     "graph (TOSA graphs, judged against the interpreter), mlir "
     "(mid-level MLIR programs, judged against mlir:straight, exactly; "
     "cut with the mid-* pipelines) or mixed (both in turn) (default {})",
     value(&F::generator, parseGenerator, generatorName)},
    {"--precision", "", "LIST",
     "comma-separated precision variants mixed into the stream: f16, "
     "bf16, mixed, int8, int16 (default: graphs as generated)",
     list(&F::precisions, parsePrecision)},
    {"--edge-rate", "", "P", "share of edge values in inputs (default {})",
     within(&F::inputs, share(&InputOptions::edgeRate))},
    {"--special-rate", "", "P",
     "share of +-Inf, NaN and denormals in float inputs (default {})",
     within(&F::inputs, share(&InputOptions::specialRate))},
    {"--input-sets", "", "K",
     "input sets per generated graph: each compiler compiles a graph once "
     "and runs it on K input sets, judged as K cases (default {})",
     count(&F::inputSets, 1, 64)},
    {"--timeout", "", "S",
     "seconds one compiler run may take before it counts as hung "
     "(default {})",
     within(&F::caseLimits, positive(&RunLimits::timeoutSeconds))},
    {"--memory-limit", "", "SIZE",
     "address space of one compiler run: 4G, 512M (default {}); more "
     "is a finding",
     within(&F::caseLimits, memoryLimit(&RunLimits::memoryBytes))},
    {"--triage-calls", "", "N",
     "as the cases run, reduce each new miscompile on an idle worker with "
     "at most N case runs, so that findings group by root cause as the "
     "campaign goes (default {}; 0: off)",
     count(&F::triageCalls)},
    {"--reduce", "", "",
     "after the cases, reduce each new finding to a minimal case with the "
     "same signature (DIR/findings/*.reduced.json)",
     on(&F::reduce)},
    {"--reduce-budget", "", "DURATION",
     "time to reduce one finding (default {})",
     duration(&F::reduceBudgetSeconds)},
    {"--tv", "", "",
     "also validate every pass of each in-process MLIR compiler with Z3 "
     "on every case: a pass proved wrong (counterexample confirmed by "
     "running both sides) is a tv-incorrect finding",
     on(&F::tv)},
    {"--tv-per-rewrite", "", "",
     "with --tv: also validate every single rewrite of the greedy "
     "pattern passes (canonicalize, fusion, ...), naming the pattern",
     on(&F::tvPerRewrite)},
    {"--tv-timeout-ms", "", "MS",
     "with --tv: time limit of one solver query (default {})",
     count(&F::tvTimeoutMs, 1)},
    {"--tv-budget", "", "DURATION",
     "with --tv: time for validating one case's pipeline; the passes "
     "checked by then count (default {})",
     duration(&F::tvBudgetSeconds)},
};

const Command<F> kFuzz{
    "fuzz",
    "crosscheck fuzz --cut SPEC [--cut SPEC ...] [--ref ref] --time 10m "
    "--jobs N --seed S --out DIR [--resume] [--shard I/N] [--baseline FILE] "
    "[--known-bugs FILE] "
    "[generator flags]",
    {0, 0, "takes no positional arguments"},
    "Runs a fuzz campaign: generates cases (graphs with inputs), runs each\n"
    "through every compiler under test and the references in long-lived\n"
    "worker processes, judges them with the numeric, crash, timeout and\n"
    "verifier oracles, and records deduplicated findings in DIR/campaign.db\n"
    "(SQLite). When compilers disagree, the other results settle which side\n"
    "is wrong. Writes DIR/junit.xml, DIR/findings.sarif, DIR/findings.json,\n"
    "DIR/summary.txt and one DIR/findings/*.json per signature (a\n"
    "self-contained reproducer for crosscheck reduce).\n\n"
    "Case i is a function of the seed, the flags and i alone; cases\n"
    "g*K .. g*K+K-1 are graph g on K input sets (--input-sets), compiled\n"
    "once. --shard I/N runs the graphs with g % N == I, so N shards cover\n"
    "the stream exactly once; --resume continues a campaign that was\n"
    "stopped or killed, without re-running or double-counting a recorded\n"
    "case.",
    concat(kFuzzFlags, within<F, GenOptions>(&F::gen, generatorFlags()),
           within<F, ProgramOptions>(&F::program, programFlags()),
           FlagTable<F>{
               {"--quiet", "-q", "", "no progress output", on(&F::quiet)},
               {"--load-mutants", "", "",
                "testing only: register the deliberately wrong cc-mutant-* "
                "passes",
                loadMutants<F>()},
           }),
    "Exit status: 0 no new root cause, 1 new findings (not in the baseline "
    "or the known bugs), 2 "
    "an error.\nOn a terminal a live progress line is shown; otherwise a log "
    "line every 10 s."};

struct MergeFlags {
  std::string out, baseline, knownBugs;
};

const Command<MergeFlags> kMerge{
    "merge",
    "crosscheck merge DIR... -o OUT [--baseline FILE] [--known-bugs FILE]",
    {1, SIZE_MAX, "needs campaign directories"},
    "Merges the campaign directories of the shards of one campaign into OUT\n"
    "(deduplicating findings, adding their counts) and writes OUT's CI\n"
    "outputs as a campaign does.",
    {
        {"--out", "-o", "OUT", "merged campaign directory (created)",
         text(&MergeFlags::out)},
        {"--baseline", "", "FILE", "as for crosscheck fuzz",
         text(&MergeFlags::baseline)},
        {"--known-bugs", "", "FILE", "as for crosscheck fuzz",
         text(&MergeFlags::knownBugs)},
    },
    "Exit status: 0 no new finding, 1 new findings, 2 an error."};

// A live line on a terminal, a log line every 10 s otherwise.
std::function<void(const CampaignProgress &)> progressPrinter() {
  bool tty = isatty(2);
  auto lastLog = std::make_shared<double>(-10);
  return [tty, lastLog](const CampaignProgress &p) {
    if (!tty && p.elapsed - *lastLog < 10 && p.elapsed < p.budget)
      return;
    *lastLog = p.elapsed;
    auto n = [](uint64_t v) { return (unsigned long long)v; };
    std::fprintf(stderr,
                 tty ? "\r[%6.0f s / %.0f s] %llu cases, %.1f cases/s, %llu "
                       "with findings, %llu signatures, %llu root causes   "
                     : "crosscheck fuzz: %.0f s of %.0f s: %llu cases "
                       "(%.1f/s), %llu with findings, %llu signatures, %llu "
                       "root causes\n",
                 p.elapsed, p.budget, n(p.cases), p.casesPerSecond,
                 n(p.findings), n(p.signatures), n(p.rootCauses));
  };
}

int finish(const std::string &dir, const CampaignSummary &s) {
  auto text = readFile(dir + "/summary.txt");
  std::cout << (text ? *text : "") << "outputs in " << dir
            << " (campaign.db, junit.xml, findings.sarif, findings.json)\n";
  return s.newRootCauses ? kExitFinding : kExitPass;
}

// --engine libfuzzer (harness/LibFuzzerEngine.h).
int libFuzzerEngine(FuzzFlags o) {
  std::error_code ec;
  auto fuzzer = fuzz::findFuzzer(
      o.libFuzzer.fuzzer,
      std::filesystem::read_symlink("/proc/self/exe", ec).string());
  if (!fuzzer)
    return fail(fuzzer.error());
  o.libFuzzer.fuzzer = *fuzzer;
  auto s = fuzz::runLibFuzzer(o.libFuzzer, o);
  if (!s)
    return fail(s.error());
  std::cout << "libFuzzer: " << s->executions << " executions, "
            << s->execsPerSecond << " exec/s; corpus of " << s->corpusSize
            << " inputs\n";
  return finish(o.outDir, s->campaign);
}
int runFuzz(FuzzFlags &o, const Args &args) {
  if (o.outDir.empty())
    return fail("fuzz needs --out DIR");
  o.tv = o.tv || o.tvPerRewrite;
  // The interpreter is always the first reference: `--ref smt` adds one.
  if (o.refs.empty() || o.refs.front() != "ref")
    o.refs.insert(o.refs.begin(), "ref");
  o.libFuzzer.loadMutants = args.has("--load-mutants");
  if (o.engine == "libfuzzer")
    return libFuzzerEngine(o);
  if (!o.quiet)
    o.onProgress = progressPrinter();
  auto summary = runCampaign(o);
  if (!o.quiet && isatty(2))
    std::fputc('\n', stderr);
  if (!summary)
    return fail(summary.error());
  return finish(o.outDir, *summary);
}

int merge(MergeFlags &o, const Args &args) {
  if (o.out.empty())
    return fail("merge needs -o OUT");
  auto summary =
      mergeCampaigns(args.positional, o.out, o.baseline, o.knownBugs);
  if (!summary)
    return fail(summary.error());
  return finish(o.out, *summary);
}

} // namespace

int fuzzCommand(const Argv &argv) { return parseAndRun(kFuzz, argv, runFuzz); }

int mergeCommand(const Argv &argv) { return parseAndRun(kMerge, argv, merge); }

} // namespace cc::cli
