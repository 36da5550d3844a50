// The differential check of one case across every compiler under test and
// every reference. Each compiler is judged against the primary reference
// (our f64 interpreter) by the numeric oracle; when results disagree, the
// other results settle which side is wrong, and the finding says so:
//   - a compiler that disagrees with the reference while another compiler
//     agrees with it is blamed alone;
//   - when every compiler agrees with each other against the reference, the
//     fault is a shared lowering step or the reference itself, and a second
//     reference (LibTorch) decides which;
//   - a second reference that disagrees with the first is a
//     reference-disagreement finding (a bug in one of the references), never
//     blamed on a compiler.
#pragma once

#include "backends/Backend.h"
#include "oracles/FindingFile.h"
#include "oracles/Numeric.h"

#include <string>
#include <vector>

namespace cc {

struct ConsensusOptions {
  RunLimits limits; // per compiler run
  bool isolate = true;
  NumericOptions numeric;
  // Programs: also judge the straight lowering against the program's value
  // computed from its translation-validation encoding (smt/Evaluate.h;
  // crosscheck fuzz --ref smt). Needs Z3 (CC_HAVE_SMT).
  bool smtReference = false;
  // The options of each backend run, its stage times added to `times`.
  RunOptions runOptions(StageTimes *times) const {
    RunOptions r;
    r.limits = limits;
    r.isolate = isolate;
    r.times = times;
    return r;
  }
};

// A backend that could not run a case, and why. The case may still be
// judged by the others; campaigns count these per backend and reason.
struct BackendSkip {
  std::string backend, reason;
  bool operator==(const BackendSkip &) const = default;
};

struct ConsensusResult {
  // Not judged: the reference found undefined behaviour, or no compiler
  // supports the graph. skipReason says why.
  bool skipped = false;
  std::string skipReason;
  // One per failing compiler (and per disagreeing reference). Each record's
  // TestCase names its compiler, so it replays alone.
  std::vector<FindingRecord> findings;
  StageTimes times; // summed over every backend, plus "reference", "oracle"
  std::vector<BackendSkip> unsupported; // the backends that did not run
};

// `c.cut` is ignored: every backend of `cuts` is run. `refs` are extra
// references besides the interpreter (may be empty).
Expected<ConsensusResult> judgeConsensus(const TestCase &c,
                                         const std::vector<Backend *> &cuts,
                                         const std::vector<Backend *> &refs,
                                         const ConsensusOptions &options = {});

// judgeConsensus for cases of one graph that differ in their inputs only:
// each backend runs every case's inputs at once (Backend::runSets: one
// compilation), then each case is judged as judgeConsensus judges it. The
// backends' stage times are shared evenly among the cases.
std::vector<Expected<ConsensusResult>> judgeConsensusSets(
    const std::vector<TestCase> &cases, const std::vector<Backend *> &cuts,
    const std::vector<Backend *> &refs, const ConsensusOptions &options = {});

} // namespace cc
