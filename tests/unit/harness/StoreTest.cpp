// The store's pass and pattern coverage: carried through a worker's outcome
// JSON, summed per (kind, name) with the lowest case index that showed it,
// and added up by merge. A store opened to read writes nothing.
#include "harness/Store.h"

#include "core/File.h"
#include "core/Json.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace cc {
namespace {

namespace fs = std::filesystem;

std::string freshDir(const std::string &name) {
  std::string dir = (fs::temp_directory_path() /
                     ("cc-store-" + name + "-" + std::to_string(getpid())))
                        .string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

CaseOutcome outcome(uint64_t index, int64_t fired) {
  CaseOutcome o;
  o.index = index;
  o.graphName = "g" + std::to_string(index);
  o.passCoverage[{"pass", "canonicalize"}] = 1;
  o.passCoverage[{"pattern", "FoldMulByOne"}] = fired;
  o.tvChecks["canonicalize"] = {1, 0, int64_t(index), 0};
  return o;
}

std::map<std::string, TvTally> tvChecks(Store &store) {
  auto checks = store.tvChecks();
  EXPECT_TRUE(bool(checks)) << checks.error().message();
  return checks ? *checks : TvChecks{};
}

std::map<std::string, Store::PassCoverage> byName(Store &store) {
  auto rows = store.passCoverage();
  EXPECT_TRUE(bool(rows)) << rows.error().message();
  std::map<std::string, Store::PassCoverage> out;
  for (auto &r : *rows)
    out[r.kind + ":" + r.name] = r;
  return out;
}

TEST(Store, CoverageSurvivesTheWorkerPipeAndAddsUp) {
  auto sent = decodeOutcomes(encodeOutcomes({outcome(7, 3)}));
  ASSERT_TRUE(bool(sent)) << sent.error().message();
  ASSERT_EQ(sent->size(), 1u);
  const CaseOutcome *back = &sent->front();
  EXPECT_EQ(back->passCoverage, outcome(7, 3).passCoverage);
  EXPECT_EQ(back->tvChecks, outcome(7, 3).tvChecks);
  // A reply cut short is no reply.
  std::string bytes = encodeOutcomes({outcome(7, 3)});
  EXPECT_FALSE(bool(decodeOutcomes(bytes.substr(0, bytes.size() - 1))));

  std::string a = freshDir("a"), b = freshDir("b");
  auto sa = Store::create(a, {{"seed", 1}});
  auto sb = Store::create(b, {{"seed", 1}});
  ASSERT_TRUE(sa && sb);
  ASSERT_FALSE((*sa)->record(*back, 0));
  ASSERT_FALSE((*sa)->record(outcome(2, 5), 0));
  auto cov = byName(**sa);
  ASSERT_EQ(cov.size(), 2u);
  EXPECT_EQ(cov["pass:canonicalize"].count, 2);
  EXPECT_EQ(cov["pattern:FoldMulByOne"].count, 8);
  EXPECT_EQ(cov["pattern:FoldMulByOne"].firstCase, 2u); // lowest index
  EXPECT_EQ(tvChecks(**sa)["canonicalize"], (TvTally{2, 0, 9, 0}));

  ASSERT_FALSE((*sb)->record(outcome(1, 1), 1));
  ASSERT_FALSE((*sa)->mergeFrom(**sb));
  cov = byName(**sa);
  EXPECT_EQ(cov["pattern:FoldMulByOne"].count, 9);
  EXPECT_EQ(cov["pattern:FoldMulByOne"].firstCase, 1u);
  EXPECT_EQ(tvChecks(**sa)["canonicalize"], (TvTally{3, 0, 10, 0}));
  fs::remove_all(a);
  fs::remove_all(b);
}

// Reading a store (a report, a merge's input, a baseline) writes nothing to
// it: a write through it fails, and the file keeps its bytes.
// What each compiler could not run survives the worker pipe and is counted
// per compiler and reason class (the node it names left out), each case
// once: a merge adds only the cases it adds.
TEST(Store, CompilersSkipsAreCountedByReason) {
  auto skipping = [](uint64_t index, int node) {
    CaseOutcome o = outcome(index, 1);
    o.unsupported = {
        {"mlir-ext:old-opt", "node " + std::to_string(node) +
                                 " (clamp): nan_mode IGNORE of clamp cannot "
                                 "be expressed\nmore text"},
        {"cuda:gpu-O0", "no GPU"}};
    return o;
  };
  auto sent = decodeOutcomes(encodeOutcomes({skipping(1, 3)}));
  ASSERT_TRUE(bool(sent)) << sent.error().message();
  EXPECT_EQ(sent->front().unsupported, skipping(1, 3).unsupported);

  std::string a = freshDir("skips-a"), b = freshDir("skips-b");
  auto sa = Store::create(a, {{"seed", 1}});
  auto sb = Store::create(b, {{"seed", 1}});
  ASSERT_TRUE(sa && sb);
  ASSERT_FALSE((*sa)->record(sent->front(), 0));
  ASSERT_FALSE((*sa)->record(skipping(2, 7), 0));
  ASSERT_FALSE((*sb)->record(skipping(2, 7), 1)); // already in a
  ASSERT_FALSE((*sb)->record(skipping(3, 1), 1));
  ASSERT_FALSE((*sa)->mergeFrom(**sb));
  auto skips = (*sa)->backendSkips();
  ASSERT_TRUE(bool(skips)) << skips.error().message();
  ASSERT_EQ(skips->size(), 2u);
  EXPECT_EQ((*skips)[0].backend, "cuda:gpu-O0");
  EXPECT_EQ((*skips)[0].cases, 3);
  EXPECT_EQ((*skips)[1].backend, "mlir-ext:old-opt");
  EXPECT_EQ((*skips)[1].reason, "nan_mode IGNORE of clamp cannot be expressed");
  EXPECT_EQ((*skips)[1].cases, 3);
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(Store, OpenIsReadOnly) {
  std::string dir = freshDir("read");
  {
    auto s = Store::create(dir, {{"seed", 1}});
    ASSERT_TRUE(bool(s)) << s.error().message();
    ASSERT_FALSE((*s)->record(outcome(3, 1), 0));
  }
  auto bytes = [&] { return *readFile(Store::dbPath(dir)); };
  std::string before = bytes();
  {
    auto s = Store::open(Store::dbPath(dir));
    ASSERT_TRUE(bool(s)) << s.error().message();
    EXPECT_EQ(*(*s)->caseCount(), 1u);
    EXPECT_TRUE(bool((*s)->record(outcome(4, 1), 0)));
    EXPECT_TRUE(bool((*s)->saveReduced({}, FindingRecord{})));
  }
  EXPECT_TRUE(bytes() == before) << "reading changed the store's file";
  fs::remove_all(dir);
}

} // namespace
} // namespace cc
