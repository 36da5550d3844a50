// Bugs of the compilers under test that the end-to-end tests (op x dtype
// matrix, seed corpus) find today. They stay expected findings instead of
// being hidden by changing a pipeline: a test asserts the finding is still
// produced, so it notices when upstream fixes the bug (then delete the
// entry). Each has a minimal upstream reproducer in corpus/regressions/.
#pragma once

#include "oracles/Verdict.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace cc::test {

struct KnownBug {
  const char *caseName;   // "intdiv_i32" (op_dtype), or a seed's file stem
  const char *pipeline;   // the named pipeline: "tosa-O3"
  Kind kind;              // the finding it produces
  const char *cause;      // one line
  const char *reproducer; // folder under corpus/regressions
};

template <size_t N>
const KnownBug *findKnownBug(const KnownBug (&bugs)[N],
                             const std::string &caseName,
                             const std::string &pipeline) {
  for (const KnownBug &b : bugs)
    if (caseName == b.caseName && pipeline == b.pipeline)
      return &b;
  return nullptr;
}

// The reproducer folder holds a README.md and a repro.* file.
inline ::testing::AssertionResult hasReproducer(const KnownBug &bug) {
  namespace fs = std::filesystem;
  fs::path dir =
      fs::path(CC_SOURCE_DIR) / "corpus/regressions" / bug.reproducer;
  bool readme = fs::exists(dir / "README.md"), repro = false;
  if (fs::is_directory(dir))
    for (const auto &e : fs::directory_iterator(dir))
      repro |= e.path().stem() == "repro";
  if (readme && repro)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << dir.string() << " lacks README.md or repro.*";
}

// The findings of one case over several runs: without a known bug each
// finding fails the test; with one, a finding of its kind must show up at
// least once and other findings still fail.
class CaseFindings {
public:
  explicit CaseFindings(const KnownBug *bug) : bug(bug) {}

  void add(const std::string &where, const Verdict &verdict) {
    const std::optional<Finding> &f = verdict.finding();
    if (!f)
      return;
    if (bug && f->signature.kind == bug->kind)
      reproduced = true;
    else
      ADD_FAILURE() << where << ": " << f->message;
  }

  void finish() const {
    if (!bug)
      return;
    EXPECT_TRUE(reproduced)
        << "known " << kindName(bug->kind) << " bug no longer reproduced "
        << "(fixed upstream? then delete its entry and corpus/regressions/"
        << bug->reproducer << "): " << bug->cause;
    EXPECT_TRUE(hasReproducer(*bug));
  }

private:
  const KnownBug *bug;
  bool reproduced = false;
};

} // namespace cc::test
