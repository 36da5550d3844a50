// The fuzz target's execution without libFuzzer: semantic coverage of the
// MLIR pipeline (in-process and isolated), extra counters, no findings on a
// correct pipeline, and a mutant pass found by mutating inputs.
#include "harness/fuzz/Target.h"

#include "backends/mlir/MlirBackend.h"
#include "core/Json.h"
#include "tests/mutants/Mutants.h"

#include <gtest/gtest.h>

#include <set>

#include <filesystem>
#include <unistd.h>

namespace cc::fuzz {
namespace {

std::unique_ptr<Target> makeTarget(std::vector<std::string> cuts,
                                   bool isolate = false,
                                   std::string findingsDir = "") {
  TargetConfig c;
  c.cuts = std::move(cuts);
  c.isolate = isolate;
  c.findingsDir = std::move(findingsDir);
  auto t = Target::make(c);
  EXPECT_TRUE(bool(t)) << t.error().message();
  return std::move(*t);
}

// x + (c1 + c2) with c1, c2 constants: canonicalization folds the constant
// add; with both operands inputs nothing folds.
FuzzCase addCase(bool constants) {
  FuzzCase c;
  c.graph.name = "fuzz";
  TensorType t{DType::f32, {2, 2}};
  ValueId x = c.graph.addInput("x", t);
  ValueId a, b;
  if (constants) {
    Attrs ca, cb;
    ca.set("value", Tensor::splat(t, 1.5));
    cb.set("value", Tensor::splat(t, 2.0));
    a = *c.graph.add("const", {}, ca);
    b = *c.graph.add("const", {}, cb);
  } else {
    a = c.graph.addInput("a", t);
    b = c.graph.addInput("b", t);
  }
  ValueId s = *c.graph.add("add", {a, b});
  c.graph.addOutput(*c.graph.add("add", {x, s}));
  return c;
}

size_t count(const PassCoverage &cov, const std::string &kind) {
  size_t n = 0;
  for (const auto &[key, v] : cov)
    n += key.first == kind && v > 0;
  return n;
}

TEST(TargetTest, RecordsPassesAndPatternsInProcessAndIsolated) {
  for (bool isolate : {false, true}) {
    auto t = makeTarget({"mlir:tosa-O3"}, isolate);
    Execution e = t->run(addCase(true));
    ASSERT_FALSE(e.skipped) << e.skipReason;
    EXPECT_TRUE(e.findings.empty());
    EXPECT_GT(count(e.passCoverage, "pass"), 5u) << "isolate " << isolate;
    EXPECT_GT(count(e.passCoverage, "pattern"), 5u) << "isolate " << isolate;
    EXPECT_EQ(count(e.passCoverage, "path"), 1u);
    EXPECT_TRUE(e.passCoverage.count({"pass", "tosa-to-linalg"}));
    // canonicalize runs three times before lowering; it folds the
    // constant add, so at least one of those changed the IR.
    EXPECT_TRUE(e.passCoverage.count({"pass", "canonicalize"}));
  }
}

TEST(TargetTest, ExtraCountersChangeWhenANewPatternFires) {
  auto t = makeTarget({"mlir:tosa-O3"});
  Execution plain = t->run(addCase(false));
  Execution folded = t->run(addCase(true));
  ASSERT_FALSE(plain.skipped || folded.skipped);
  // Patterns that fire only when constants are there.
  std::vector<std::string> fresh;
  for (const auto &[key, n] : folded.passCoverage)
    if (key.first == "pattern" && !plain.passCoverage.count(key))
      fresh.push_back(key.second);
  ASSERT_FALSE(fresh.empty());
  constexpr size_t kN = 1 << 14;
  std::vector<uint8_t> a(kN, 7), b(kN, 7);
  fillCounters(plain, a.data(), kN);
  fillCounters(folded, b.data(), kN);
  EXPECT_NE(a, b);
  for (const std::string &p : fresh) {
    size_t slot = counterSlot("pattern", p, kN);
    EXPECT_GT(b[slot], 0) << p;
    // Unless another feature of the plain run shares the slot.
    bool shared = false;
    for (const auto &[key, n] : plain.passCoverage)
      shared |= counterSlot(key.first, key.second, kN) == slot;
    if (!shared) {
      EXPECT_EQ(a[slot], 0) << p;
    }
  }
}

// A feature is new coverage once: a pattern that fires more often, or an
// op that runs more often, leaves the counters as they were.
TEST(TargetTest, ExtraCountersCountFeaturesNotFirings) {
  Execution once, often;
  once.cut = often.cut = "mlir:tosa-O3";
  once.passCoverage[{"pattern", "ClampClampOptimization"}] = 1;
  often.passCoverage[{"pattern", "ClampClampOptimization"}] = 9;
  once.opCoverage[{"clamp", "f32"}] = 1;
  often.opCoverage[{"clamp", "f32"}] = 4;
  constexpr size_t kN = 1 << 14;
  std::vector<uint8_t> a(kN), b(kN);
  fillCounters(once, a.data(), kN);
  fillCounters(often, b.data(), kN);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[counterSlot("pattern", "ClampClampOptimization", kN)], 1);
  once.passCoverage[{"pattern", "ClampIsNoOp"}] = 1;
  fillCounters(once, a.data(), kN);
  EXPECT_NE(a, b);
}

// A new def-use pair of the graph (an add feeding a reshape) is new
// coverage, though every op and dtype ran before.
TEST(TargetTest, ExtraCountersChangeWithANewDefUsePair) {
  Execution e = makeTarget({"mlir:tosa-O0"})->run(addCase(true));
  ASSERT_FALSE(e.skipped) << e.skipReason;
  EXPECT_EQ(
      e.edgeCoverage,
      (std::set<std::string>{"input:f32>add", "const:f32>add", "add:f32>add"}));
  constexpr size_t kN = 1 << 14;
  std::vector<uint8_t> before(kN), after(kN);
  fillCounters(e, before.data(), kN);
  e.edgeCoverage.insert("add:f32>reshape");
  fillCounters(e, after.data(), kN);
  EXPECT_NE(before, after);
  EXPECT_EQ(after[counterSlot("edge", "add:f32>reshape", kN)], 1);
}

// Inputs mutated from a few starts run through the straight lowering: the
// reference and the compiler agree on every one of them.
// tosa-O0 without buffer-results-to-out-params' hoist-static-allocs: with
// it, MLIR 22 crashes on a function that returns one value twice
// (corpus/found/buffer-results-to-out-params-duplicate-result), which the
// mutator's fresh generator graphs reach.
std::string correctPipeline() {
  std::string p = namedPipelines()[0].pipeline;
  const std::string hoist = "hoist-static-allocs ";
  size_t at = p.find(hoist);
  EXPECT_NE(at, std::string::npos) << p;
  if (at != std::string::npos)
    p.erase(at, hoist.size());
  return "mlir:pipeline=" + p;
}

TEST(TargetTest, NoFindingOnACorrectPipeline) {
  auto t = makeTarget({correctPipeline()});
  int judged = 0;
  for (int start = 0; start < 4; ++start) {
    std::string bytes = "correct " + std::to_string(start);
    FuzzCase c = decodeCase(reinterpret_cast<const uint8_t *>(bytes.data()),
                            bytes.size());
    for (int step = 0; step < 6; ++step) {
      Execution e = t->run(c);
      judged += !e.skipped;
      for (const FindingRecord &f : e.findings)
        ADD_FAILURE() << f.finding.signature.str() << ": " << f.finding.message
                      << "\n"
                      << encodeCase(c);
      c = mutateCase(c, uint64_t(start * 100 + step));
    }
  }
  EXPECT_GT(judged, 12);
}

// tosa-O0 with a test-only wrong pass in front.
std::string mutated(const std::string &mutant) {
  std::string o0 = namedPipelines()[0].pipeline;
  return "mlir:pipeline=builtin.module(func.func(" + mutant + ")," +
         o0.substr(std::string("builtin.module(").size());
}

TEST(TargetTest, FindsAMutantPassAndWritesAFinding) {
  registerMutantPasses();
  std::string dir =
      testing::TempDir() + "/cc-fuzz-findings-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  auto t = makeTarget({mutated("cc-mutant-tile-tail")}, false, dir);
  // Short chains of mutations from several starts, as libFuzzer explores.
  std::optional<Execution> found;
  int runs = 0;
  for (int start = 0; start < 40 && !found; ++start) {
    std::string bytes = "mutant " + std::to_string(start);
    FuzzCase c = decodeCase(reinterpret_cast<const uint8_t *>(bytes.data()),
                            bytes.size());
    for (uint64_t step = 0; step < 8 && !found; ++step, ++runs) {
      Execution e = t->run(c);
      if (!e.findings.empty())
        found = std::move(e);
      c = mutateCase(c, uint64_t(start) * 100 + step);
    }
  }
  std::fprintf(stderr, "found after %d runs\n", runs);
  ASSERT_TRUE(found) << "no finding in 320 mutated inputs";
  EXPECT_EQ(found->findings[0].finding.signature.kind, Kind::Miscompile);
  auto paths = t->saveFindings(*found);
  ASSERT_TRUE(bool(paths)) << paths.error().message();
  ASSERT_EQ(paths->size(), found->findings.size());
  auto back = loadFinding(paths->front());
  ASSERT_TRUE(bool(back)) << back.error().message();
  EXPECT_EQ(back->finding.signature, found->findings[0].finding.signature);
  EXPECT_EQ(back->testCase.cut, mutated("cc-mutant-tile-tail"));
  // The signature is known now: saving it again writes nothing, so the
  // target does not abort on it again.
  auto again = t->saveFindings(*found);
  ASSERT_TRUE(bool(again));
  EXPECT_TRUE(again->empty());
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace cc::fuzz
