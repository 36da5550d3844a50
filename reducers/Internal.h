// Pieces shared by the reducers' translation units; not a public header.
#pragma once

#include "reducers/Reduce.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>

namespace cc::reduce {

// "The same bug": kind, stage and detail agree (a miscompile's stage, its
// bisected culprit, aside). The backend is left out so that a reduced
// pipeline (another cut spec) can show the same failure.
bool sameFailure(const Signature &a, const Signature &b);

// The finding c shows now to the oracle that found `target`: translation
// validation for a tv-incorrect finding (the one with the same failure, else
// ErrorCode::NotReproduced), else the differential run (judgeCase).
Expected<FindingRecord> judgeLike(const TestCase &c, const Signature &target);

// A program case judged alone against the straight lowering
// (oracles/Program.h), and with smtReference against its encoding's value
// too: its first finding on `cut`, if any.
Expected<std::optional<FindingRecord>>
programFinding(const TestCase &c, Backend &cut, bool smtReference = false);

// Same: the target's failure; Clean: no failure at all; Other: another
// failure (a pass failure, a different wrong output); Invalid: not run.
enum class Outcome : char {
  Same = 'S',
  Clean = 'C',
  Other = 'O',
  Invalid = 'I'
};

// Judges candidates against the target signature with a cache, the budget
// and optional parallelism (one forked process per candidate).
class CaseOracle {
public:
  CaseOracle(Signature target, const ReduceOptions &options,
             ReduceStats &stats);
  // Index of the first case (in order) whose outcome is `want`, or -1.
  int firstWith(const std::vector<TestCase> &cases, Outcome want);
  // Index of the first case (in order) that fails the same way, or -1.
  int firstSame(const std::vector<TestCase> &cases) {
    return firstWith(cases, Outcome::Same);
  }
  bool same(const TestCase &c) { return firstSame({c}) == 0; }
  // From now on a miscompile counts as the same only when the compiler's
  // wrong outputs are the same as on `c` (where each output fails, how
  // often, with which first value): once the graph is fixed, a pipeline
  // that merely breaks the lowering must not pass for the bug.
  void pinOutputs(const TestCase &c);
  // The budget (time or calls) is spent.
  bool spent() const;
  double elapsed() const;

private:
  Outcome judge(const TestCase &c);
  void judgeForked(const std::vector<TestCase> &cases,
                   const std::vector<size_t> &window,
                   std::vector<std::optional<Outcome>> &outcome);
  Backend *backendFor(const std::string &cut);
  // A program's disagreement with its encoding (fuzz --ref smt).
  bool smtTarget() const { return target.kind == Kind::RefDisagreement; }

  Signature target;
  const ReduceOptions &options;
  ReduceStats &stats;
  std::map<uint64_t, Outcome> cache;
  std::optional<std::string> pinned;
  std::map<std::string, std::unique_ptr<Backend>> backends;
  std::chrono::steady_clock::time_point start;
};

// Writes the best case so far to options.outDir (atomically), if set.
class BestSoFar {
public:
  BestSoFar(const FindingRecord &original, const ReduceOptions &options)
      : record(original), options(options) {}
  Error update(const TestCase &c);
  const TestCase &current() const { return record.testCase; }

private:
  FindingRecord record;
  const ReduceOptions &options;
};

// Graph passes to a fixpoint; `best` holds the result.
Error reduceGraph(CaseOracle &oracle, BestSoFar &best, ReduceStats &stats,
                  const ReduceOptions &options);

// Program passes: the MLIR reducer over the program, its function's
// signature kept (so that the inputs stay valid); `best` holds the result.
Error reduceProgram(CaseOracle &oracle, BestSoFar &best, ReduceStats &stats,
                    const ReduceOptions &options);

// Pipeline reduction and bisection for mlir:NAME and mlir:pipeline= cuts.
Error reducePipeline(CaseOracle &oracle, BestSoFar &best, ReduceResult &result,
                     const ReduceOptions &options);

int64_t leafElements(const Graph &g);

} // namespace cc::reduce
