// Bug bundles (files, pipeline split, repro.mlir) and the dashboard's HTML.
#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/PassPipeline.h"
#include "backends/ref/Interpreter.h"
#include "backends/torch/Torch.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Npy.h"
#include "oracles/Tv.h"
#include "process/Process.h"
#include "reducers/Reduce.h"
#include "reports/Bundle.h"
#include "reports/Dashboard.h"
#include "reports/ReproScript.h"
#include "tests/mutants/Mutants.h"

#include <algorithm>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

using namespace cc;
namespace fs = std::filesystem;

namespace {

// The sub-swap mutant in front of the straight lowering (as in the lit
// tests): every tosa.sub computes b - a.
const char *const kMutantCut =
    "mlir:pipeline=builtin.module(func.func(cc-mutant-sub-swap,tosa-to-linalg-"
    "named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor)"
    ",one-shot-bufferize{bufferize-function-boundaries function-boundary-type-"
    "conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-"
    "allocs modify-public-functions},buffer-deallocation-pipeline,func.func("
    "convert-linalg-to-loops),convert-math-to-libm,convert-scf-to-cf,expand-"
    "strided-metadata,lower-affine,convert-to-llvm,reconcile-unrealized-casts)";

std::string tempDir(const std::string &name) {
  std::string d = (fs::temp_directory_path() /
                   ("cc-reports-" + std::to_string(getpid()) + "-" + name))
                      .string();
  fs::remove_all(d);
  return d;
}

FindingRecord subFinding() {
  registerMutantPasses();
  Graph g;
  g.name = "sub";
  ValueId a = g.addInput("a", {DType::f32, {2, 3}});
  ValueId b = g.addInput("b", {DType::f32, {1, 3}});
  g.addOutput(*g.add("sub", {a, b}));
  TestCase c;
  Tensor ta(DType::f32, {2, 3}), tb(DType::f32, {1, 3});
  for (int i = 0; i < 6; ++i)
    ta.setF(i, 1.5 * i - 2);
  for (int i = 0; i < 3; ++i)
    tb.setF(i, 0.25 + i);
  c.inputs = {ta, tb};
  c.graph = g;
  c.cut = kMutantCut;
  auto f = judgeCase(c);
  EXPECT_TRUE(bool(f)) << (f ? "" : f.error().message());
  return f ? *f : FindingRecord{};
}

TEST(Pipeline, SplitAndJoinRoundTripTheNamedPipelines) {
  for (const NamedPipeline &p : namedPipelines()) {
    auto leaves = splitPipeline(p.pipeline);
    ASSERT_TRUE(bool(leaves)) << p.name << ": " << leaves.error().message();
    EXPECT_GT(leaves->size(), 10u);
    EXPECT_EQ(joinPipeline(*leaves), p.pipeline) << p.name;
  }
}

TEST(Pipeline, KeepsAnchorsAndOptionsOfEachLeaf) {
  auto leaves =
      splitPipeline("builtin.module(func.func(a,b{x=1 y={2}}),c,func.func(d))");
  ASSERT_TRUE(bool(leaves));
  ASSERT_EQ(leaves->size(), 4u);
  EXPECT_EQ((*leaves)[1].text(), "b{x=1 y={2}}");
  EXPECT_EQ((*leaves)[1].anchors,
            (std::vector<std::string>{"builtin.module", "func.func"}));
  EXPECT_EQ((*leaves)[2].anchors, std::vector<std::string>{"builtin.module"});
  std::vector<PipelineLeaf> tail(leaves->begin() + 1, leaves->end());
  EXPECT_EQ(joinPipeline(tail),
            "builtin.module(func.func(b{x=1 y={2}}),c,func.func(d))");
  EXPECT_FALSE(bool(splitPipeline("builtin.module(a")));
  EXPECT_FALSE(bool(splitPipeline("a)")));
  EXPECT_FALSE(bool(splitPipeline("a{x")));
}

TEST(Bundle, WritesEveryFileAndSplitsOffTheMutantPass) {
  FindingRecord f = subFinding();
  ASSERT_EQ(f.finding.signature.kind, Kind::Miscompile);
  std::string dir = tempDir("bundle");
  BundleOptions o;
  o.bisect = false;
  auto r = writeBundle(f, dir, o);
  ASSERT_TRUE(bool(r)) << r.error().message();
  for (const char *name :
       {"README.md", "ISSUE.md", "repro.sh", "repro.mlir", "compare.awk",
        "expected.txt", "input.mlir", "graph.json", "graph.dot", "finding.json",
        "inputs/a.npy", "inputs/b.npy", "expected_0.npy"})
    EXPECT_TRUE(fs::exists(dir + "/" + name)) << name;
  // Inputs and expected outputs round-trip through .npy.
  auto in0 = readNpy(dir + "/inputs/a.npy");
  ASSERT_TRUE(bool(in0));
  EXPECT_EQ(*in0, f.testCase.inputs[0]);
  EXPECT_EQ(inputFile(dir, f.testCase.graph, 1), dir + "/inputs/b.npy");
  auto expected = readNpy(dir + "/expected_0.npy");
  auto ref = interpret(f.testCase.graph, f.testCase.inputs);
  ASSERT_TRUE(expected && ref);
  EXPECT_EQ(*expected, (*ref)[0]);
  auto g = loadGraph(dir + "/graph.json");
  ASSERT_TRUE(bool(g));
  EXPECT_EQ(*g, f.testCase.graph);
  auto again = loadFinding(dir + "/finding.json");
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->finding.signature, f.finding.signature);

  // repro.sh runs only upstream passes: the mutant ran while bundling.
  EXPECT_EQ(r->pipeline.find("cc-mutant"), std::string::npos) << r->pipeline;
  EXPECT_NE(r->pipeline.find("tosa-to-linalg"), std::string::npos);
  auto repro = readFile(dir + "/repro.mlir");
  auto input = readFile(dir + "/input.mlir");
  ASSERT_TRUE(repro && input);
  EXPECT_NE(*repro, *input);
  EXPECT_NE(input->find("func.func @repro_main()"), std::string::npos);
  EXPECT_NE(input->find("vector.print"), std::string::npos);
  // Both programs are valid MLIR.
  EXPECT_FALSE(bool(verifyMlir(*repro))) << *repro;
  EXPECT_FALSE(bool(verifyMlir(*input))) << *input;
  auto readme = readFile(dir + "/README.md");
  ASSERT_TRUE(bool(readme));
  EXPECT_NE(readme->find("# miscompile: `miscompile|"), std::string::npos);
  EXPECT_NE(readme->find("crosscheck's own test passes"), std::string::npos);
  EXPECT_NE(readme->find("First mismatching elements"), std::string::npos);
  fs::remove_all(dir);
}

// The bundle of the sub-swap finding, without bisection (with repro.sh run
// once when `verify`).
struct SubBundle {
  FindingRecord finding;
  std::string dir;
  Expected<BundleResult> result;
};
SubBundle subBundle(const std::string &name, bool verify) {
  FindingRecord f = subFinding();
  std::string dir = tempDir(name);
  BundleOptions o;
  o.bisect = false;
  o.verify = verify;
  auto r = writeBundle(f, dir, o);
  return {f, dir, std::move(r)};
}

// ISSUE.md is the upstream issue: the one command with the upstream
// pipeline, expected versus actual, a placeholder for the specification's
// sentence, versions; nothing of crosscheck (names, signatures, test
// passes, machine paths).
TEST(Bundle, IssueHasTheCommandAndNoInternalNames) {
  auto [f, dir, r] = subBundle("issue", true);
  ASSERT_TRUE(bool(r)) << r.error().message();
  auto issue = readFile(dir + "/ISSUE.md");
  ASSERT_TRUE(bool(issue));
  EXPECT_TRUE(issue->starts_with("# [mlir] ")) << *issue;
  for (const char *want :
       {"**Pass:**", "## Input", "```mlir\n", "func.func @repro_main()",
        "## Command", "mlir-opt repro.mlir --pass-pipeline='",
        "mlir-runner -e repro_main", "## Expected versus actual",
        "## Why it is a bug", "TODO (maintainer)", "## Versions", "MLIR/LLVM "})
    EXPECT_NE(issue->find(want), std::string::npos) << want << "\n" << *issue;
  EXPECT_NE(
      issue->find("mlir-opt repro.mlir --pass-pipeline='" + r->pipeline + "'"),
      std::string::npos);
  for (const char *internal :
       {"crosscheck", "cc-mutant", "miscompile|", "fingerprint", "campaign",
        "regressions", "finding.json", "/tmp/", "/usr/"})
    EXPECT_EQ(issue->find(internal), std::string::npos) << internal << "\n"
                                                        << *issue;
  // The culprit named by the finding is said, never "not known".
  EXPECT_EQ(issue->find("not known"), std::string::npos);
  fs::remove_all(dir);
}

// A bundle's inputs go straight back to the case: read as `crosscheck run
// --inputs DIR/inputs` reads them (DIR/inputs/<input name>.npy with the
// graph's types), they are the finding's inputs, and the reference gives
// the bundle's expected outputs on them.
TEST(Bundle, InputsRoundTripAsRunReadsThem) {
  auto [f, dir, r] = subBundle("inputs", false);
  ASSERT_TRUE(bool(r)) << r.error().message();
  auto g = loadGraph(dir + "/graph.json");
  ASSERT_TRUE(bool(g));
  Inputs read;
  for (ValueId v : g->inputs) {
    const ValueInfo &info = g->values.at(v);
    auto t = readNpyAs(dir + "/inputs/" + info.name + ".npy", info.type);
    ASSERT_TRUE(bool(t)) << t.error().message();
    read.push_back(*t);
  }
  EXPECT_EQ(read, f.testCase.inputs);
  auto outs = interpret(*g, read);
  ASSERT_TRUE(bool(outs));
  for (size_t i = 0; i < outs->size(); ++i) {
    auto want = readNpy(dir + "/expected_" + std::to_string(i) + ".npy");
    ASSERT_TRUE(bool(want));
    EXPECT_EQ((*outs)[i], *want) << i;
  }
  fs::remove_all(dir);
}

// The curated reproducers of corpus/regressions compare with the generator's
// own compare.awk and expected.txt format, and every curated bundle of
// corpus/found has an ISSUE.md with the fields of an upstream issue, its
// specification sentence filled in and its upstream status said.
TEST(Bundle, CuratedBundlesMatchTheGenerator) {
  std::string root = CC_SOURCE_DIR;
  auto awk = readFile(root + "/corpus/regressions/compare.awk");
  ASSERT_TRUE(bool(awk));
  EXPECT_EQ(*awk, repro::compareProgram());
  int compared = 0;
  for (const auto &e : fs::directory_iterator(root + "/corpus/regressions")) {
    if (!fs::exists(e.path() / "expected.txt"))
      continue;
    ++compared;
    auto own = readFile((e.path() / "compare.awk").string());
    auto table = readFile((e.path() / "expected.txt").string());
    ASSERT_TRUE(own && table) << e.path();
    EXPECT_EQ(*own, *awk) << e.path();
    EXPECT_TRUE(table->starts_with(repro::expectedHeader())) << e.path();
  }
  EXPECT_GT(compared, 0);
  int issues = 0;
  for (const auto &e : fs::directory_iterator(root + "/corpus/found")) {
    if (!e.is_directory())
      continue;
    ++issues;
    auto issue = readFile((e.path() / "ISSUE.md").string());
    ASSERT_TRUE(bool(issue)) << e.path();
    for (const char *want :
         {"# [mlir]", "**Pass:**", "**Upstream status:**", "## Input",
          "## Command", "mlir-opt", "## Expected versus actual",
          "## Why it is a bug", "## Versions"})
      EXPECT_NE(issue->find(want), std::string::npos)
          << e.path() << ": " << want;
    for (const char *internal : {"crosscheck", "TODO", "regressions.test"})
      EXPECT_EQ(issue->find(internal), std::string::npos)
          << e.path() << ": " << internal;
    EXPECT_TRUE(fs::exists(e.path() / "repro.sh")) << e.path();
  }
  EXPECT_GT(issues, 0);
}

TEST(Bundle, DotNamesEveryOpAndOutput) {
  FindingRecord f = subFinding();
  std::string dot = graphDot(f.testCase.graph);
  EXPECT_NE(dot.find("label=\"sub\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("-> out0"), std::string::npos);
  EXPECT_NE(dot.find("f32[2,3]"), std::string::npos);
}

TEST(Bundle, OtherBackendsAreSaidToBeUnreproducible) {
  FindingRecord f = subFinding();
  f.testCase.cut = "ref";
  std::string dir = tempDir("ref");
  auto r = writeBundle(f, dir, {});
  ASSERT_TRUE(bool(r)) << r.error().message();
  EXPECT_TRUE(r->pipeline.empty());
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes[0].find("neither an MLIR pass pipeline"),
            std::string::npos);
  auto script = readFile(dir + "/repro.sh");
  ASSERT_TRUE(bool(script));
  EXPECT_NE(script->find("exit 2"), std::string::npos);
  fs::remove_all(dir);
}

// Runs DIR/repro.sh with `env` in front; its exit status and output.
std::pair<int, std::string> runScript(const std::string &dir,
                                      const std::string &env = "") {
  process::ChildOptions o;
  o.outputPath = dir + "/test.out";
  o.limits = RunLimits::timeOnly(1e9); // its tools have their own limits
  auto r = process::runShell(env + " sh " + dir + "/repro.sh", o);
  auto text = readFile(o.outputPath);
  int status = r && !r->signal ? r->exitCode : -1;
  return {status, text ? *text : ""};
}

// The bundle, in a new directory named `name` that holds `files`, of the
// miscompile that judging `c` finds; "" (and a test failure) otherwise.
std::string externalBundle(const TestCase &c, const std::string &name,
                           std::initializer_list<const char *> files) {
  auto judged = judgeCase(c);
  if (!judged || judged->finding.signature.kind != Kind::Miscompile) {
    ADD_FAILURE() << (judged ? judged->finding.message
                             : judged.error().message());
    return "";
  }
  std::string dir = tempDir(name);
  auto r = writeBundle(*judged, dir, {});
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return "";
  }
  for (const char *file : files)
    EXPECT_TRUE(fs::exists(dir + "/" + file)) << file;
  return dir;
}

// repro.sh shows the bug; with a correct compiler (cat) in its place, the
// same script passes.
void expectFailsUntilTheCompilerIsCat(const std::string &dir) {
  auto [bad, badOut] = runScript(dir);
  EXPECT_EQ(bad, 1) << badOut;
  EXPECT_NE(badOut.find("MISMATCH"), std::string::npos) << badOut;
  auto [good, goodOut] = runScript(dir, "REPRO_COMPILER=cat");
  EXPECT_EQ(good, 0) << goodOut;
}

// An external compiler that turns every subtraction into an addition: its
// finding reproduces with its own command, completed by upstream mlir-opt.
TEST(Bundle, ExternalCompilerFindingReproducesWithItsCommand) {
  FindingRecord f = subFinding();
  f.testCase.cut = "mlir-ext:sed s/tosa.sub/tosa.add/";
  std::string dir = externalBundle(f.testCase, "ext",
                                   {"tosa.mlir", "driver.mlir", "repro.out"});
  ASSERT_FALSE(dir.empty());
  expectFailsUntilTheCompilerIsCat(dir);
  auto readme = readFile(dir + "/README.md");
  ASSERT_TRUE(bool(readme));
  EXPECT_NE(readme->find("sed s/tosa.sub/tosa.add/ < tosa.mlir"),
            std::string::npos);
  EXPECT_NE(readme->find("exited with status 1 (the bug shows)"),
            std::string::npos);
  fs::remove_all(dir);
}

// f16 math is widened with arith.extf, whose lowering keeps arith's
// fastmath attribute on llvm.fpext (llvm/llvm-project#156692), which
// mlir-runner cannot parse: repro.sh drops it, so f16 findings reproduce.
TEST(Bundle, HalfPrecisionFindingReproducesUnderMlirRunner) {
  Graph g;
  g.name = "tanh_sub";
  ValueId a = g.addInput("a", {DType::f16, {2, 3}});
  ValueId b = g.addInput("b", {DType::f16, {2, 3}});
  g.addOutput(*g.add("sub", {*g.add("tanh", {a}), b}));
  TestCase c;
  Tensor ta(DType::f16, {2, 3}), tb(DType::f16, {2, 3});
  for (int i = 0; i < 6; ++i) {
    ta.setF(i, 0.5 * i - 1);
    tb.setF(i, 0.25 + i);
  }
  c.graph = g;
  c.inputs = {ta, tb};
  c.cut = "mlir-ext:sed s/tosa.sub/tosa.add/";
  auto judged = judgeCase(c);
  ASSERT_TRUE(bool(judged)) << judged.error().message();
  ASSERT_EQ(judged->finding.signature.kind, Kind::Miscompile);
  std::string dir = tempDir("f16");
  auto r = writeBundle(*judged, dir, {});
  ASSERT_TRUE(bool(r)) << r.error().message();
  auto [bad, badOut] = runScript(dir);
  EXPECT_EQ(bad, 1) << badOut;
  EXPECT_NE(badOut.find("MISMATCH"), std::string::npos) << badOut;
  auto [good, goodOut] = runScript(dir, "REPRO_COMPILER=cat");
  EXPECT_EQ(good, 0) << goodOut;
  fs::remove_all(dir);
}

// A mid-level program's bundle: the program with @repro_main, the straight
// lowering's outputs as exact expected values, and repro.sh on upstream
// passes only. The test-only mutant that made the finding is not upstream,
// so repro.sh computes exactly the expected values (bf16 casts included,
// through arith-expand); one expected value changed makes it report the
// mismatch.
TEST(Bundle, ProgramFindingReproducesWithUpstreamPassesOnly) {
  registerMutantPasses();
  TestCase c;
  // Attribute aliases first, as MLIR prints a reduced program.
  c.program = MlirProgram{"main",
                          R"(#map = affine_map<(d0) -> (d0)>
module {
  func.func @main(%x: tensor<4xi32>, %y: tensor<3xbf16>) -> (tensor<4xi32>, tensor<3xf32>) {
    %c = arith.constant dense<3> : tensor<4xi32>
    %m = arith.maxsi %x, %c : tensor<4xi32>
    %e = arith.extf %y : tensor<3xbf16> to tensor<3xf32>
    return %m, %e : tensor<4xi32>, tensor<3xf32>
  }
}
)",
                          {{DType::i32, {4}}, {DType::bf16, {3}}},
                          {{DType::i32, {4}}, {DType::f32, {3}}}};
  Tensor x(DType::i32, {4}), y(DType::bf16, {3});
  for (int i = 0; i < 4; ++i)
    x.setI(i, 5 - 4 * i);
  for (int i = 0; i < 3; ++i)
    y.setF(i, 0.75 - i);
  c.inputs = {x, y};
  c.cut = "mlir:pipeline-O0=" +
          straightLowering({"cc-mutant-minmax-unsigned", "", "", ""}).pipeline;
  auto judged = judgeCase(c);
  ASSERT_TRUE(bool(judged)) << judged.error().message();
  ASSERT_EQ(judged->finding.signature.kind, Kind::Miscompile);
  std::string dir = tempDir("program");
  auto r = writeBundle(*judged, dir, {});
  ASSERT_TRUE(bool(r)) << r.error().message();
  EXPECT_EQ(r->culprit, "cc-mutant-minmax-unsigned");
  EXPECT_EQ(r->pipeline.find("cc-"), std::string::npos) << r->pipeline;
  EXPECT_NE(r->pipeline.find("arith-expand{include-bf16=true}"),
            std::string::npos)
      << r->pipeline;
  auto expected = readFile(dir + "/expected.txt");
  ASSERT_TRUE(bool(expected));
  // max(x, 3) of 5, 1, -3, -7 and the three bf16 values, exactly.
  EXPECT_NE(expected->find("0 0 i32 5 0 -\n0 1 i32 3 0 -\n0 2 i32 3 0 -\n"
                           "0 3 i32 3 0 -\n1 0 f32 0.75 0 exact\n"
                           "1 1 f32 -0.25 0 exact\n1 2 f32 -1.25 0 exact"),
            std::string::npos)
      << *expected;
  auto [good, goodOut] = runScript(dir);
  EXPECT_EQ(good, 0) << goodOut;
  std::string table = *expected;
  table.replace(table.find("0 2 i32 3 0"), 11, "0 2 i32 4 0");
  ASSERT_FALSE(bool(writeFile(dir + "/expected.txt", table)));
  auto [bad, badOut] = runScript(dir);
  EXPECT_EQ(bad, 1) << badOut;
  EXPECT_NE(badOut.find("MISMATCH"), std::string::npos) << badOut;
  for (const char *name :
       {"README.md", "ISSUE.md", "input.mlir", "repro.mlir", "finding.json"})
    EXPECT_TRUE(fs::exists(dir + "/" + name)) << name;
  auto issue = readFile(dir + "/ISSUE.md");
  ASSERT_TRUE(bool(issue));
  EXPECT_NE(issue->find("what the program computes when lowered by direct "
                        "conversions only"),
            std::string::npos);
  fs::remove_all(dir);
}

// An external compiler's program finding reproduces with its command, and
// a signed-zero difference alone keeps repro.sh failing: a compiler that
// writes -x as 0 - x gives +0 for x = +0.
TEST(Bundle, ExternalProgramFindingOfASignedZeroReproduces) {
  TestCase c;
  c.program =
      MlirProgram{"main",
                  R"(func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = arith.negf %x : tensor<3xf32>
  return %r : tensor<3xf32>
}
)",
                  {{DType::f32, {3}}},
                  {{DType::f32, {3}}}};
  Tensor x(DType::f32, {3});
  x.setF(0, 0), x.setF(1, 1.5), x.setF(2, -2);
  c.inputs = {x};
  c.cut = "mlir-ext:sed 's|%r = arith.negf %x : tensor<3xf32>|%z = "
          "arith.constant dense<0.0> : tensor<3xf32> %r = arith.subf %z, %x : "
          "tensor<3xf32>|'";
  std::string dir =
      externalBundle(c, "external-program", {"program.mlir", "driver.mlir"});
  ASSERT_FALSE(dir.empty());
  auto expected = readFile(dir + "/expected.txt");
  ASSERT_TRUE(bool(expected));
  EXPECT_NE(expected->find("0 0 f32 -0 0 exact\n"), std::string::npos)
      << *expected;
  expectFailsUntilTheCompilerIsCat(dir);
  fs::remove_all(dir);
}

// compare.awk on one f32 element: its exit status.
int compareOne(const std::string &dir, const std::string &row,
               const std::string &bits) {
  EXPECT_FALSE(bool(writeFile(dir + "/compare.awk", repro::compareProgram())));
  EXPECT_FALSE(bool(
      writeFile(dir + "/expected.txt", repro::expectedHeader() + row + "\n")));
  EXPECT_FALSE(bool(writeFile(dir + "/actual.txt", bits + "\n")));
  std::string cmd = "awk -f " + dir + "/compare.awk " + dir + "/expected.txt " +
                    dir + "/actual.txt >" + dir + "/out.txt";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// An exact element compares the sign of a zero (awk's -0 equals 0): a
// signed-zero bug's repro.sh exits 1 while the bug is there; where the sign
// is open ("finite"), either zero matches.
TEST(Bundle, ExactElementsCompareTheSignOfZero) {
  std::string dir = tempDir("compare");
  fs::create_directories(dir);
  const std::string plus = "0", minus = "2147483648";
  EXPECT_EQ(compareOne(dir, "0 0 f32 -0 0 exact", plus), 1);
  EXPECT_EQ(compareOne(dir, "0 0 f32 -0 0 exact", minus), 0);
  EXPECT_EQ(compareOne(dir, "0 0 f32 0 0 exact", minus), 1);
  EXPECT_EQ(compareOne(dir, "0 0 f32 0 0 exact", plus), 0);
  EXPECT_EQ(compareOne(dir, "0 0 f32 -0 0 finite", plus), 0);
  // 1.5 exactly; NaN against a number.
  EXPECT_EQ(compareOne(dir, "0 0 f32 1.5 0 exact", "1069547520"), 0);
  EXPECT_EQ(compareOne(dir, "0 0 f32 1.5 0 exact", "1069547521"), 1);
  EXPECT_EQ(compareOne(dir, "0 0 f32 nan 0 exact", "1069547520"), 1);
  EXPECT_EQ(compareOne(dir, "0 0 f32 nan 0 exact", "2143289344"), 0);
  auto out = readFile(dir + "/out.txt");
  ASSERT_TRUE(bool(out));
  EXPECT_NE(out->find("OK"), std::string::npos) << *out;
  ASSERT_EQ(compareOne(dir, "0 0 f32 -0 0 exact", plus), 1);
  out = readFile(dir + "/out.txt");
  ASSERT_TRUE(bool(out));
  EXPECT_NE(out->find("MISMATCH"), std::string::npos) << *out;
  fs::remove_all(dir);
}

// A TorchScript finding reproduces with LibTorch only: repro.cpp loads the
// traced module. Against TorchScript, which computes sub correctly, it
// passes; with a module that computes b - a in its place, it fails.
TEST(Bundle, TorchScriptFindingReproducesWithLibTorchOnly) {
  FindingRecord f = subFinding();
  f.testCase.cut = "torchscript";
  std::string dir = tempDir("torchscript");
  BundleOptions o;
  o.verify = false; // run below
  auto r = writeBundle(f, dir, o);
  ASSERT_TRUE(bool(r)) << r.error().message();
  for (const char *name : {"repro.cpp", "model.pt", "inputs.pt"})
    EXPECT_TRUE(fs::exists(dir + "/" + name)) << name;
  auto [good, goodOut] = runScript(dir);
  EXPECT_EQ(good, 0) << goodOut;
  EXPECT_NE(goodOut.find("OK: all 6 output elements match"), std::string::npos)
      << goodOut;

  Graph swapped = f.testCase.graph;
  swapped.nodes[0].operands = {swapped.inputs[1], swapped.inputs[0]};
  ASSERT_FALSE(bool(saveTorchScript(swapped, f.testCase.inputs,
                                    dir + "/model.pt", dir + "/inputs.pt")));
  auto [bad, badOut] = runScript(dir);
  EXPECT_EQ(bad, 1) << badOut;
  EXPECT_NE(badOut.find("BUG: 6 of 6 output elements differ"),
            std::string::npos)
      << badOut;
  auto readme = readFile(dir + "/README.md");
  ASSERT_TRUE(bool(readme));
  EXPECT_NE(readme->find("Needs only LibTorch"), std::string::npos);
  fs::remove_all(dir);
}

#ifdef CC_HAVE_SMT
// A tv-incorrect finding of the sub-swap mutant pass: its README shows the
// confirmed counterexample that translation validation found.
TEST(Bundle, TvFindingShowsTheCounterexample) {
  FindingRecord sub = subFinding();
  TvCaseOptions o;
  // Wall-clock limits far above what the check needs, even on a loaded
  // machine: the counterexample is found by a probe input.
  o.timeoutMs = 60000;
  o.budgetSeconds = 600;
  std::vector<FindingRecord> tv = tvFindings(sub.testCase, o);
  ASSERT_FALSE(tv.empty());
  const FindingRecord &f = tv.front();
  ASSERT_EQ(f.finding.signature.kind, Kind::TvIncorrect);
  EXPECT_EQ(f.finding.signature.stage, "cc-mutant-sub-swap");
  std::string dir = tempDir("tv");
  BundleOptions bo;
  bo.bisect = false;
  auto r = writeBundle(f, dir, bo);
  ASSERT_TRUE(bool(r)) << r.error().message();
  auto readme = readFile(dir + "/README.md");
  ASSERT_TRUE(bool(readme));
  size_t at = readme->find("## SMT counterexample");
  ASSERT_NE(at, std::string::npos) << *readme;
  // The counterexample's arguments and both sides' results.
  std::string section = readme->substr(at, readme->find("\n## ", at + 1) - at);
  EXPECT_NE(section.find("%arg0 = ["), std::string::npos) << section;
  EXPECT_NE(section.find("source result 0"), std::string::npos) << section;
  EXPECT_NE(section.find("target result 0"), std::string::npos) << section;
  fs::remove_all(dir);
}
#endif

DashboardData sampleData() {
  DashboardData d;
  d.title = "crosscheck campaign test";
  d.totalCases = 3;
  d.caseTimes = {100, 101, 103};
  d.coverage = {{"add", "f32", 3}, {"sub", "f32", 1}, {"add", "i8", 2}};
  DashboardData::Finding f;
  f.signature = {Kind::Miscompile, "mlir:tosa-O0", "", "sub:f32:value"};
  f.message = "miscompile: <bad> & worse";
  f.count = 2;
  f.firstSeen = 101;
  f.bundle = "bundles/1-miscompile";
  d.findings.push_back(f);
  f.known = true;
  f.signature.detail = "add:f32:value";
  d.findings.push_back(f);
  return d;
}

TEST(Dashboard, ShowsEverySectionAndEscapesText) {
  std::string html = dashboardHtml(sampleData());
  for (const char *s :
       {"Cases over time", "Cases per second", "Findings over time",
        "Op &times; dtype coverage", "Pass and pattern coverage",
        "<title>add x f32: 3</title>", "<title>sub x i8: 0</title>",
        "href=\"bundles/1-miscompile/README.md\"", ">NEW<", ">known<",
        "miscompile: &lt;bad&gt; &amp; worse", "data-loaded"})
    EXPECT_NE(html.find(s), std::string::npos) << s;
  EXPECT_EQ(html.find("<bad>"), std::string::npos);
  // No network: nothing is loaded from elsewhere.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  // The empty pass coverage is an honest "no data".
  EXPECT_NE(html.find("No pass or pattern coverage recorded"),
            std::string::npos);
}

TEST(Dashboard, PassCoverageTableWhenThereIsData) {
  DashboardData d = sampleData();
  d.passCoverage = {{"pass", "canonicalize", 7, 0},
                    {"pattern", "FoldAddZero", 2, 3}};
  std::string html = dashboardHtml(d);
  EXPECT_EQ(html.find("No pass or pattern coverage"), std::string::npos);
  EXPECT_NE(html.find("<code>FoldAddZero</code>"), std::string::npos);
}

TEST(Dashboard, PassAndPatternCoverageOverTime) {
  DashboardData d = sampleData(); // cases from t = 100 to 103
  d.passCoverage = {{"pass", "canonicalize", 7, 0, 100},
                    {"pattern", "FoldAddZero", 2, 1, 101},
                    {"pattern", "FoldMulOne", 1, 2, 103},
                    {"path", "1234", 1, 2, 103}};
  std::string html = dashboardHtml(d);
  size_t at = html.find("<b>Pass and pattern coverage over time</b>");
  ASSERT_NE(at, std::string::npos);
  std::string plot = html.substr(at, html.find("</svg>", at) - at);
  // Two step lines (patterns reach 2, passes 1; paths are not drawn), and
  // the y axis tops out at 2 * 1.05.
  EXPECT_NE(plot.find(">patterns</text>"), std::string::npos) << plot;
  EXPECT_NE(plot.find(">passes</text>"), std::string::npos) << plot;
  EXPECT_EQ(std::count(plot.begin(), plot.end(), 'M'), 2) << plot;
  EXPECT_NE(plot.find(">2.1</text>"), std::string::npos) << plot;
  // Without dates it says so rather than drawing nothing.
  for (auto &p : d.passCoverage)
    p.firstSeen = 0;
  EXPECT_NE(dashboardHtml(d).find("carries no dates"), std::string::npos);
}

TEST(Dashboard, SummaryCountsNewAndKnown) {
  std::string md = summaryMarkdown(sampleData());
  // Not grouped by the campaign: each finding is its own root cause.
  EXPECT_NE(md.find("**1 new root cause(s)**, 1 known (2 distinct "
                    "signatures); 3 cases"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`miscompile/mlir:tosa-O0//sub:f32:value`"),
            std::string::npos)
      << md;
  DashboardData empty;
  empty.title = "t";
  EXPECT_NE(summaryMarkdown(empty).find("No new root causes"),
            std::string::npos);
  EXPECT_NE(dashboardHtml(empty).find("No cases recorded"), std::string::npos);
}

// A hostile store's root cause and culprit text stay text in summary.md:
// no heading, image, HTML or extra table row.
TEST(Dashboard, SummaryMarkdownEscapesTextFromTheStore) {
  DashboardData d = sampleData();
  d.findings[0].rootCause = "x |\n# Heading\n![i](http://e/i.png) <b>";
  d.findings[0].culprit = "p` | **fake** |\n| row";
  std::string md = summaryMarkdown(d);
  EXPECT_EQ(md.find("\n# Heading"), std::string::npos) << md;
  EXPECT_EQ(md.find("!["), std::string::npos) << md;
  EXPECT_EQ(md.find("<b>"), std::string::npos) << md;
  EXPECT_EQ(md.find("\n| row"), std::string::npos) << md;
  // Each table row still has its 8 cell borders.
  size_t row = md.find("| **new** |");
  ASSERT_NE(row, std::string::npos) << md;
  std::string line = md.substr(row, md.find('\n', row) - row);
  size_t borders = 0;
  for (size_t i = 0; i < line.size(); ++i)
    borders += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  EXPECT_EQ(borders, 8u) << line;
}

// Many findings of one long pipeline: the summary names it once and refers
// to it by number, keeping every finding.
TEST(Dashboard, SummaryNamesALongPipelineOnce) {
  std::string pipeline =
      "mlir:pipeline=builtin.module(" + std::string(500, 'x') + ")";
  DashboardData d = sampleData();
  d.findings.clear();
  for (int i = 0; i < 50; ++i) {
    DashboardData::Finding f;
    f.signature = {Kind::Miscompile, pipeline, "", "op" + std::to_string(i)};
    d.findings.push_back(f);
  }
  std::string md = summaryMarkdown(d);
  size_t at = md.find(pipeline);
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_EQ(md.find(pipeline, at + 1), std::string::npos);
  EXPECT_NE(md.find("- [1] `" + pipeline + "`\n"), std::string::npos);
  for (int i = 0; i < 50; ++i)
    EXPECT_NE(md.find("`miscompile/[1]//op" + std::to_string(i) + "`"),
              std::string::npos)
        << i;
}

} // namespace
