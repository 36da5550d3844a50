// End to end: real failures (mutant passes, an upstream crash, a pass
// failure, an invalid compiler output) reduced to at most 3 ops with the same
// signature; two bugs in one graph reduce to the one asked for; an
// interrupted reduction leaves a valid best-so-far; pipelines shrink and the
// culprit pass is found.
#include "reducers/Reduce.h"
#include "backends/mlir/MlirBackend.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/OpTable.h"
#include "generators/Inputs.h"
#include "process/Process.h"
#include "tests/mutants/Mutants.h"
#include "tests/unit/reducers/Graphs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace cc;

namespace {

const std::string kSeeds = std::string(CC_SOURCE_DIR) + "/corpus/seeds/";

// tosa-O0 with `mutants` run on the TOSA input first.
std::string mutated(const std::string &mutants) {
  const std::string &o0 = namedPipelines().front().pipeline;
  const std::string prefix = "builtin.module(";
  return "mlir:pipeline=" + prefix + "func.func(" + mutants + ")," +
         o0.substr(prefix.size());
}

bool sameFailure(const Signature &a, const Signature &b) {
  return a.kind == b.kind && a.stage == b.stage && a.detail == b.detail;
}

// The finding a case shows; fails the test when it shows none.
FindingRecord findingOf(TestCase c) {
  registerMutantPasses();
  auto f = judgeCase(c);
  EXPECT_TRUE(f) << f.error().message();
  return f ? *f : FindingRecord{};
}

TestCase seedCase(const std::string &seed, const std::string &cut,
                  uint64_t inputSeed, double specialRate = 0) {
  auto g = loadGraph(kSeeds + seed + ".json");
  EXPECT_TRUE(g) << g.error().message();
  TestCase c;
  c.graph = *g;
  c.inputs = makeInputs(*g, inputSeed, InputOptions{0.15, specialRate});
  c.cut = cut;
  return c;
}

ReduceOptions quick() {
  ReduceOptions o;
  // The call limit bounds the work; the wall-clock budget is only a safety
  // net, so that a loaded machine gives the same result.
  o.budgetSeconds = 600;
  o.maxCalls = 300;
  o.reducePipeline = false;
  return o;
}

// Reduces, then checks the result as the issue demands.
ReduceResult reduceAndCheck(const FindingRecord &f,
                            const ReduceOptions &options = quick(),
                            int maxOps = 3) {
  auto r = reduceFinding(f, options);
  EXPECT_TRUE(r) << r.error().message();
  if (!r)
    return {};
  const TestCase &c = r->reduced.testCase;
  EXPECT_FALSE(verify(c.graph));
  EXPECT_LE(countOps(c.graph), maxOps) << printGraph(c.graph);
  EXPECT_TRUE(sameFailure(r->reduced.finding.signature, f.finding.signature))
      << r->reduced.finding.signature.str() << " vs "
      << f.finding.signature.str();
  // Re-judged from scratch, the reduced case still fails the same way.
  auto again = judgeCase(c);
  EXPECT_TRUE(again &&
              sameFailure(again->finding.signature, f.finding.signature));
  EXPECT_EQ(r->stats.opsAfter, countOps(c.graph));
  EXPECT_LE(r->stats.opsAfter, r->stats.opsBefore);
  EXPECT_GT(r->stats.oracleCalls, 0);
  return *r;
}

struct MutantCase {
  const char *mutant, *seed;
  uint64_t inputSeed;
  double specialRate;
};

// Seed graphs on which each mutant is caught (see the e2e mutant test).
const MutantCase kMutantCases[] = {
    {"cc-mutant-mul-zero", "fold_hazards_f32", 3, 0.1},
    {"cc-mutant-add-sub-cancel", "fold_hazards_f32", 3, 0.1},
    {"cc-mutant-sub-swap", "attention_f16", 1, 0},
    {"cc-mutant-slice-off-by-one", "data_movement_f32", 1, 0},
    {"cc-mutant-cast-trunc", "cast_chain", 1, 0},
    {"cc-mutant-clamp-drop", "binary_broadcast_f32", 1, 0},
    {"cc-mutant-transpose-invert", "layout_nchw_f32", 1, 0},
    {"cc-mutant-rescale-zp", "quant_conv_i8", 1, 0},
};

class MutantReduction : public testing::TestWithParam<MutantCase> {};

TEST_P(MutantReduction, KeepsTheSignatureInAtMostThreeOps) {
  const MutantCase &m = GetParam();
  registerMutantPasses();
  FindingRecord f = findingOf(
      seedCase(m.seed, mutated(m.mutant), m.inputSeed, m.specialRate));
  ASSERT_EQ(f.finding.signature.kind, Kind::Miscompile) << f.finding.message;
  ReduceResult r = reduceAndCheck(f);
  EXPECT_GT(r.stats.opsBefore, r.stats.opsAfter);
}

INSTANTIATE_TEST_SUITE_P(AllMutants, MutantReduction,
                         testing::ValuesIn(kMutantCases),
                         [](const testing::TestParamInfo<MutantCase> &info) {
                           std::string n = info.param.mutant;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// Inputs of a hand-built graph: generated, respecting the value domains.
TestCase caseOf(const Graph &g, const std::string &cut) {
  TestCase c;
  c.graph = g;
  c.inputs = makeInputs(g, 1);
  c.cut = cut;
  return c;
}

ValueId op(Graph &g, const std::string &name, std::vector<ValueId> operands) {
  auto v = g.add(name, std::move(operands));
  EXPECT_TRUE(v) << v.error().message();
  return v ? *v : 0;
}

// intdiv under tosa-O3 crashes (SIGFPE; corpus/regressions/
// affine-super-vectorize-divsi-padding), amid ops that do not matter.
Graph intdivGraph() {
  Graph g;
  g.name = "intdiv_chain";
  TensorType t{DType::i32, {4}};
  ValueId a = g.addInput("a", t), b = g.addInput("b", t),
          c = g.addInput("c", t);
  ValueId q = op(g, "intdiv", {a, b});
  ValueId m = op(g, "maximum", {q, c});
  ValueId n = op(g, "minimum", {a, c});
  g.addOutput(op(g, "bitwise_xor", {m, n}));
  g.addOutput(op(g, "abs", {c}));
  return g;
}

TEST(Reduce, CrashKeepsItsSignature) {
  FindingRecord f = findingOf(caseOf(intdivGraph(), "mlir:tosa-O3"));
  ASSERT_EQ(f.finding.signature.kind, Kind::Crash) << f.finding.message;
  ReduceResult r = reduceAndCheck(f, quick(), 1);
  EXPECT_EQ(r.reduced.testCase.graph.nodes.size(), 1u);
  EXPECT_EQ(r.reduced.testCase.graph.nodes[0].op, OpId::IntDiv);
}

TEST(Reduce, PassFailureKeepsItsSignature) {
  // An integer-only TOSA profile: tosa-validate rejects the float ops.
  const std::string &o0 = namedPipelines().front().pipeline;
  std::string cut =
      "mlir:pipeline=builtin.module(tosa-attach-target{profiles=pro_int},"
      "tosa-validate{strict-op-spec-alignment}," +
      o0.substr(std::string("builtin.module(").size());
  FindingRecord f = findingOf(caseOf(test::mixedGraph(), cut));
  ASSERT_EQ(f.finding.signature.kind, Kind::PassFailure) << f.finding.message;
  EXPECT_EQ(f.finding.signature.stage, "tosa-validate");
  // The signature names the last op rejected (tosa.maximum), so the
  // reduction keeps that op, not the first rejected one (tosa.sub).
  EXPECT_NE(f.finding.signature.detail.find("tosa.maximum"), std::string::npos)
      << f.finding.signature.detail;
  ReduceResult r = reduceAndCheck(f, quick(), 1);
  ASSERT_EQ(r.reduced.testCase.graph.nodes.size(), 1u);
  EXPECT_EQ(r.reduced.testCase.graph.nodes[0].op, OpId::Maximum);
}

TEST(Reduce, VerifierFailureKeepsItsSignature) {
  // An external "compiler" whose output fails the verifier whenever the
  // module has a tosa.maximum, and is the input unchanged otherwise.
  std::string script =
      std::filesystem::temp_directory_path() /
      ("cc-reduce-bad-opt-" + std::to_string(getpid()) + ".sh");
  ASSERT_FALSE(writeFile(
      script, "in=$(cat)\n"
              "case \"$in\" in *tosa.maximum*)\n"
              "  printf '%s' 'func.func @mixed() -> i32 { return }';;\n"
              "*) printf '%s' \"$in\";; esac\n"));
  FindingRecord f =
      findingOf(caseOf(test::mixedGraph(), "mlir-ext:sh " + script));
  EXPECT_EQ(f.finding.signature.kind, Kind::Verifier) << f.finding.message;
  ReduceResult r = reduceAndCheck(f, quick(), 1);
  ASSERT_EQ(r.reduced.testCase.graph.nodes.size(), 1u);
  EXPECT_EQ(r.reduced.testCase.graph.nodes[0].op, OpId::Maximum);
  std::filesystem::remove(script);
}

// sub and clamp in one graph, both broken by their mutants; the output
// order decides which one the finding names (negate of the difference, or
// abs of the clamp).
Graph twoBugs(bool clampFirst) {
  Graph g;
  g.name = "two_bugs";
  TensorType t{DType::f32, {4}};
  ValueId x = g.addInput("x", t), y = g.addInput("y", t);
  ValueId e = op(g, "abs", {x});
  ValueId d = op(g, "sub", {e, y});
  Attrs at;
  at.set("min", -0.25);
  at.set("max", 0.25);
  auto c = g.add("clamp", {x}, at);
  EXPECT_TRUE(c);
  ValueId n = op(g, "abs", {*c});
  if (clampFirst)
    g.addOutput(n);
  g.addOutput(op(g, "negate", {d}));
  if (!clampFirst)
    g.addOutput(n);
  return g;
}

TEST(Reduce, TwoBugsReduceToTheOneAskedFor) {
  std::string cut = mutated("cc-mutant-sub-swap,cc-mutant-clamp-drop");
  for (bool clampFirst : {false, true}) {
    FindingRecord f = findingOf(caseOf(twoBugs(clampFirst), cut));
    const std::string want = clampFirst ? "abs" : "negate";
    ASSERT_TRUE(f.finding.signature.detail.starts_with(want + ":"))
        << f.finding.signature.str();
    ReduceResult r = reduceAndCheck(f);
    bool hasSub = false, hasClamp = false;
    for (const Node &n : r.reduced.testCase.graph.nodes) {
      hasSub = hasSub || n.op == OpId::Sub;
      hasClamp = hasClamp || n.op == OpId::Clamp;
    }
    EXPECT_EQ(hasClamp, clampFirst);
    EXPECT_EQ(hasSub, !clampFirst);
  }
}

TEST(Reduce, ResultIsOneMinimalAndParallelRunsAgree) {
  FindingRecord f = findingOf(
      seedCase("binary_broadcast_f32", mutated("cc-mutant-clamp-drop"), 1));
  ReduceResult one = reduceAndCheck(f);
  ReduceOptions two = quick();
  two.jobs = 2;
  ReduceResult par = reduceAndCheck(f, two);
  EXPECT_EQ(printGraph(one.reduced.testCase.graph),
            printGraph(par.reduced.testCase.graph));
  // No single op can be dropped: replacing it by its value loses the bug.
  const Graph &g = one.reduced.testCase.graph;
  for (const Node &n : g.nodes)
    EXPECT_TRUE(n.operands.empty() || n.op == OpId::Clamp) << n.op;
}

TEST(Reduce, PipelineShrinksAndNamesTheCulprit) {
  FindingRecord f =
      findingOf(caseOf(twoBugs(false), mutated("cc-mutant-sub-swap")));
  ReduceOptions o = quick();
  o.reducePipeline = true;
  ReduceResult r = reduceAndCheck(f, o);
  EXPECT_LT(r.passesAfter.size(), r.passesBefore.size());
  ASSERT_FALSE(r.passesAfter.empty());
  EXPECT_EQ(r.passesAfter.front(), "cc-mutant-sub-swap");
  EXPECT_EQ(r.firstFailingPass, "cc-mutant-sub-swap");
  EXPECT_TRUE(r.reduced.testCase.cut.starts_with("mlir:pipeline="));
}

// A campaign's triage bisects the whole pipeline. Its prefixes past
// buffer-deallocation-pipeline do not complete (the completion's own
// deallocation rejects memref.dealloc), so the prefixes alone blame the pass
// that lowers memref.dealloc; removing each pass names the mutant. The graph
// is kept whole, with its intermediate buffers.
TEST(Reduce, BisectionConfirmsTheCulpritByRemoval) {
  FindingRecord f =
      findingOf(caseOf(twoBugs(false), mutated("cc-mutant-sub-swap")));
  ReduceOptions o = quick();
  o.quick = true;
  o.reduceGraph = false;
  o.reducePipeline = true;
  std::vector<std::string> log;
  o.log = [&](const std::string &line) { log.push_back(line); };
  auto r = reduceFinding(f, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->passesAfter, r->passesBefore);
  EXPECT_EQ(r->firstFailingPass, "cc-mutant-sub-swap");
  bool refined = false;
  for (const std::string &line : log)
    refined = refined || line.find("vanishes without cc-mutant-sub-swap") !=
                             std::string::npos;
  EXPECT_TRUE(refined) << "the prefixes alone named the culprit";
}

// A budget spent before the named pipeline is spelled out leaves it named:
// the reduction stops there, keeping the finding.
TEST(Reduce, BudgetSpentOnANamedPipelineKeepsTheFinding) {
  FindingRecord f = findingOf(caseOf(intdivGraph(), "mlir:tosa-O3"));
  ASSERT_EQ(f.finding.signature.kind, Kind::Crash) << f.finding.message;
  for (int64_t calls : {1, 2, 3}) {
    ReduceOptions o = quick();
    o.reduceGraph = false;
    o.reducePipeline = true;
    o.maxCalls = calls;
    auto r = reduceFinding(f, o);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_TRUE(sameFailure(r->reduced.finding.signature, f.finding.signature));
    EXPECT_TRUE(r->firstFailingPass.empty()) << calls;
  }
}

TEST(Reduce, NotReproducedIsAnError) {
  FindingRecord f = findingOf(caseOf(intdivGraph(), "mlir:tosa-O3"));
  f.testCase.cut = "mlir:tosa-O0"; // no crash there
  auto r = reduceFinding(f, quick());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotReproduced);
  auto pass = judgeCase(f.testCase);
  ASSERT_FALSE(pass);
  EXPECT_EQ(pass.error().code(), ErrorCode::NotReproduced);
}

TEST(Reduce, InterruptedReductionLeavesAValidBestSoFar) {
  FindingRecord f = findingOf(
      seedCase("binary_broadcast_f32", mutated("cc-mutant-clamp-drop"), 1));
  std::string dir = std::filesystem::temp_directory_path() /
                    ("cc-reduce-kill-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ReduceOptions o = quick();
  o.outDir = dir;
  o.reducePipeline = true;
  auto child = process::Background::start([&] {
    (void)reduceFinding(f, o);
    return 0;
  });
  ASSERT_TRUE(bool(child)) << child.error().message();
  // Killed without warning at some point of the reduction (or after it).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  child->kill(SIGKILL);
  child->wait();
  auto best = loadFinding(dir);
  ASSERT_TRUE(best) << best.error().message();
  EXPECT_FALSE(verify(best->testCase.graph));
  auto again = judgeCase(best->testCase);
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_TRUE(sameFailure(again->finding.signature, f.finding.signature));
  auto graph = loadGraph(dir + "/graph.json");
  EXPECT_TRUE(graph) << graph.error().message();
  std::filesystem::remove_all(dir);
}

TEST(Reduce, CallBudgetIsHonoured) {
  FindingRecord f = findingOf(
      seedCase("binary_broadcast_f32", mutated("cc-mutant-clamp-drop"), 1));
  ReduceOptions o = quick();
  o.maxCalls = 5;
  auto r = reduceFinding(f, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_TRUE(r->stats.budgetExhausted);
  EXPECT_LE(r->stats.oracleCalls, 5 + 2); // plus the two checks of the ends
  EXPECT_TRUE(sameFailure(r->reduced.finding.signature, f.finding.signature));
}

} // namespace
