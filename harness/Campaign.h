// Fuzz campaigns: a deterministic stream of generated cases, run in
// long-lived worker processes through every compiler under test and the
// references, judged by the oracles, deduplicated by signature into the
// campaign's SQLite store (DIR/campaign.db).
//
// Case i of a campaign is fully determined by (options, seed, i); a shard
// I/N runs the graphs g (cases g*K .. g*K+K-1, K input sets per graph) with
// g % N == I, so N shards cover the stream exactly once. A case is recorded
// together with its findings in one transaction: a campaign killed at any
// moment loses no recorded finding, and --resume runs exactly the cases that
// were not recorded.
#pragma once

#include "backends/Backend.h"
#include "core/Error.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Program.h"
#include "generators/Topology.h"
#include "oracles/Verdict.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cc {

struct CampaignOptions {
  std::vector<std::string> cuts; // compilers under test (specs)
  // Compilers under test given as objects (library users, tests), run
  // besides `cuts`; each must be safe to use after fork().
  std::vector<std::shared_ptr<Backend>> cutBackends;
  std::vector<std::shared_ptr<Backend>> refBackends; // likewise, references
  std::vector<std::string> refs = {"ref"}; // references; the first is primary
  double timeBudgetSeconds = 600;
  uint64_t maxCases = 0; // stop after this many cases of the stream; 0: none
  int jobs = 1;
  uint64_t seed = 0;
  std::string outDir;
  bool resume = false;
  uint32_t shardIndex = 0, shardCount = 1;
  std::string baseline; // earlier campaign (DIR, .db or findings.json)
  // Bugs the project knows (corpus/known/*.json): their findings are
  // reported as known, grouped under the bug, with its upstream link.
  std::string knownBugs;
  // Graphs (.json or .onnx) that open the stream before generated ones.
  std::string seedCorpus;
  // Which generator makes the cases: TOSA graphs, mid-level MLIR programs
  // (generators/Program.h; judged against the straight lowering, see
  // oracles/Program.h), or both in turn (odd graphs are programs).
  enum class Generator { Graph, Mlir, Mixed } generator = Generator::Graph;
  GenOptions gen;
  ProgramOptions program;
  // Each generated graph is used as is, or (in turn) as one of these
  // precision variants.
  std::vector<PrecisionKind> precisions;
  InputOptions inputs;
  // Input sets per graph: cases i*K .. i*K+K-1 are graph i on K input sets,
  // compiled once by each compiler and judged as K cases.
  uint64_t inputSets = 8;
  RunLimits caseLimits; // of each compiler run
  // As the cases run, each new miscompile (not in the baseline, not a
  // known bug) is reduced on an idle worker with at most this many case
  // runs (or triageSeconds), so that its root cause (culprit and reduced
  // form) is known as the campaign goes; 0: no triage. A campaign that
  // runs out of cases triages every new miscompile before it ends; one
  // that runs out of time leaves the ones not yet started unreduced.
  int64_t triageCalls = 100;
  double triageSeconds = 300; // a safety net: the calls bound it first
  // After the cases, reduce each new finding (not in the baseline, not
  // reduced to the end) with this budget each; the minimal case is stored
  // beside it.
  bool reduce = false;
  double reduceBudgetSeconds = 60;
  // Translation validation of every pass of each in-process MLIR compiler
  // on every case (and of every canonicalize rewrite with tvPerRewrite):
  // a step proved wrong is a tv-incorrect finding. Each case's check is
  // killed after tvBudgetSeconds; each solver query stops after tvTimeoutMs.
  bool tv = false;
  bool tvPerRewrite = false;
  unsigned tvTimeoutMs = 2000;
  double tvBudgetSeconds = 20;
  // Called about once a second on the coordinator (progress display).
  std::function<void(const struct CampaignProgress &)> onProgress;
};

struct CampaignProgress {
  uint64_t cases = 0;      // recorded in this invocation
  uint64_t findings = 0;   // cases with a finding, this invocation
  uint64_t signatures = 0; // distinct signatures in the store
  uint64_t rootCauses = 0; // those signatures grouped (RootCause.h)
  double elapsed = 0, budget = 0;
  double casesPerSecond = 0;
};

struct SignatureSummary {
  Signature signature;
  std::string message;
  uint64_t count = 0;
  bool known = false;  // in the baseline
  int reducedOps = -1; // ops of the reduced case; -1: not reduced
};

struct CampaignSummary {
  uint64_t cases = 0;      // recorded in this invocation
  uint64_t graphs = 0;     // the graphs of those cases (inputSets per graph)
  uint64_t skipped = 0;    // of those, not judged (unsupported, undefined)
  uint64_t totalCases = 0; // in the store, all invocations
  double seconds = 0;
  std::vector<SignatureSummary> signatures; // every signature in the store
  // fuzz --tv: the store's pass checks by verdict ("correct" -> n).
  std::map<std::string, int64_t> tvChecks;
  // The signatures grouped by the bug behind them (see reports/RootCause.h).
  size_t rootCauses = 0, newRootCauses = 0;
  size_t newSignatures() const;
};

// Runs (or resumes) a campaign and writes DIR/campaign.db, DIR/junit.xml,
// DIR/findings.sarif, DIR/findings.json and DIR/summary.txt.
Expected<CampaignSummary> runCampaign(const CampaignOptions &options);

// Merges the stores of shard campaigns into outDir (deduplicated) and
// writes the same CI files as a campaign.
Expected<CampaignSummary> mergeCampaigns(const std::vector<std::string> &dirs,
                                         const std::string &outDir,
                                         const std::string &baseline = "",
                                         const std::string &knownBugs = "");

} // namespace cc
