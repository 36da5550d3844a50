// The programs' oracle: each compiler against the straight lowering,
// compared exactly; and the finding file's program cases.
#include "backends/mlir/MlirBackend.h"
#include "oracles/FindingFile.h"
#include "oracles/Program.h"
#include "tests/mutants/Mutants.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace cc {
namespace {

// max(a, b) per element, signed: a wrong signedness shows where the signs
// differ.
const char *const kMax = R"(
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.maxsi %x, %y : i32
    linalg.yield %m : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}
)";

Tensor ints(std::vector<int64_t> values) {
  Tensor t(DType::i32, {int64_t(values.size())});
  for (size_t i = 0; i < values.size(); ++i)
    t.setI(int64_t(i), values[i]);
  return t;
}

TestCase maxCase() {
  TestCase c;
  TensorType t{DType::i32, {4}};
  c.program = MlirProgram{"main", kMax, {t, t}, {t}};
  c.inputs = {ints({1, -2, 3, 4}), ints({1, 5, -3, 4})};
  return c;
}

std::vector<ConsensusResult> judge(const TestCase &c, const std::string &spec) {
  auto cut = makeMlirBackend(spec);
  EXPECT_TRUE(cut) << cut.error().message();
  std::vector<ConsensusResult> out;
  for (auto &r : judgeProgramSets({c}, {cut->get()})) {
    EXPECT_TRUE(r) << r.error().message();
    if (r)
      out.push_back(std::move(*r));
  }
  return out;
}

TEST(ProgramOracle, PipelinesThatKeepTheSemanticsAgree) {
  for (const char *spec : {"mlir:mid-canon", "mlir:mid-O3", "mlir:tosa-O0"}) {
    auto r = judge(maxCase(), spec);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_FALSE(r[0].skipped) << r[0].skipReason;
    EXPECT_TRUE(r[0].findings.empty())
        << spec << ": " << r[0].findings.front().finding.message;
  }
}

// arith.maxnumf leaves the sign of max(-0, +0) open ("the result is
// either of them"): a compiler that swaps its operands may flip that
// sign, which is no finding; turning it into minnumf is one.
TEST(ProgramOracle, TheSignOfAMaxnumfZeroIsOpen) {
  TestCase c;
  TensorType t{DType::f32, {2}};
  c.program = MlirProgram{"main",
                          R"(
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %r = arith.maxnumf %x,%y : tensor<2xf32>
  return %r : tensor<2xf32>
}
)",
                          {t, t},
                          {t}};
  Tensor x(DType::f32, {2}), y(DType::f32, {2});
  x.setF(0, -0.0);
  y.setF(0, 0.0);
  x.setF(1, 1.0);
  y.setF(1, 2.0);
  c.inputs = {x, y};
  RunOptions ro;
  auto straight = makeMlirBackend("mlir:straight");
  auto swapped = makeMlirBackend("mlir-ext:sed s/%x,%y/%y,%x/");
  ASSERT_TRUE(straight && swapped);
  InputSets sets{&c.inputs};
  auto a = std::move((*straight)->runProgramSets(*c.program, sets, ro)[0]);
  auto b = std::move((*swapped)->runProgramSets(*c.program, sets, ro)[0]);
  ASSERT_TRUE(a) << a.error().message();
  ASSERT_TRUE(b) << b.error().message();
  if (std::signbit((*a)[0].getF(0)) == std::signbit((*b)[0].getF(0)))
    GTEST_SKIP() << "this machine's maxnum gives the same zero either way";
  auto same = judge(c, "mlir-ext:sed s/%x,%y/%y,%x/");
  ASSERT_EQ(same.size(), 1u);
  EXPECT_TRUE(same[0].findings.empty())
      << same[0].findings.front().finding.message;
  auto other = judge(c, "mlir-ext:sed s/maxnumf/minnumf/");
  ASSERT_EQ(other.size(), 1u);
  ASSERT_EQ(other[0].findings.size(), 1u);
  EXPECT_NE(other[0].findings[0].finding.message.find("element 1 is 1"),
            std::string::npos)
      << other[0].findings[0].finding.message;
}

TEST(ProgramOracle, WrongSignednessIsAMiscompileAtItsFirstElement) {
  registerMutantPasses();
  std::string spec =
      "mlir:pipeline-O0=" +
      straightLowering({"cc-mutant-minmax-unsigned", "", "", ""}).pipeline;
  auto r = judge(maxCase(), spec);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].findings.size(), 1u);
  const FindingRecord &f = r[0].findings[0];
  EXPECT_EQ(f.finding.signature.kind, Kind::Miscompile);
  EXPECT_EQ(f.finding.signature.backend, spec);
  EXPECT_EQ(f.finding.signature.detail, "i32:value");
  // max(-2, 5) as unsigned is -2.
  EXPECT_NE(f.finding.message.find("element 1 is -2, the straight lowering "
                                   "gives 5"),
            std::string::npos)
      << f.finding.message;
  EXPECT_EQ(f.testCase.cut, spec);
}

TEST(ProgramOracle, ACutThatDoesNotReachLlvmIsAnErrorNotAFinding) {
  // Not a bug of the compiler: the spec names no lowering to LLVM.
  auto cut = makeMlirBackend("mlir:pipeline=builtin.module(canonicalize)");
  ASSERT_TRUE(cut) << cut.error().message();
  auto r = judgeProgramSets({maxCase()}, {cut->get()});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_FALSE(r[0]);
  EXPECT_NE(r[0].error().message().find("_mlir_ciface_main"), std::string::npos)
      << r[0].error().message();
}

// A bf16 denormal kept across a (zero-trip) loop: at LLVM -O0 the value
// lives in f32 between blocks and is converted back; x86's conversion
// instructions would flush it to zero on hosts that have them, so the JIT
// converts in software and the reference does not depend on the host.
TEST(ProgramOracle, TheStraightLoweringKeepsBf16Denormals) {
  const char *copy = R"(
func.func @main(%i: tensor<i32>, %a: tensor<6xbf16>)
    -> (tensor<i32>, tensor<1xbf16>) {
  %x = tensor.extract %i[] : tensor<i32>
  %0 = arith.index_castui %x : i32 to index
  %c6 = arith.constant 6 : index
  %k = arith.remui %0, %c6 : index
  %v = tensor.extract %a[%k] : tensor<6xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %j = %c1 to %c0 step %c1 iter_args(%t = %i) -> (tensor<i32>) {
    scf.yield %t : tensor<i32>
  }
  %e = tensor.from_elements %v : tensor<1xbf16>
  return %r, %e : tensor<i32>, tensor<1xbf16>
}
)";
  Tensor i(DType::i32, {});
  i.setI(0, 3);
  Tensor a(DType::bf16, {6});
  const uint16_t denormal = 0x8020; // -2.9e-39
  std::memcpy(a.data() + 3 * 2, &denormal, 2);
  auto out =
      runMlirModule(copy, "main", {i.type(), TensorType{DType::bf16, {1}}},
                    {i, a}, straightLowering().pipeline, 0);
  ASSERT_TRUE(out) << out.error().message();
  uint16_t bits = 0;
  std::memcpy(&bits, out->at(1).data(), 2);
  EXPECT_EQ(bits, denormal);
}

TEST(ProgramOracle, ProgramCasesRoundTripThroughTheFindingFile) {
  TestCase c = maxCase();
  c.cut = "mlir:mid-canon";
  c.index = 7;
  auto back = testCaseFromJson(testCaseToJson(c));
  ASSERT_TRUE(back) << back.error().message();
  ASSERT_TRUE(back->program);
  EXPECT_EQ(*back->program, *c.program);
  EXPECT_EQ(back->inputs, c.inputs);
  EXPECT_EQ(back->index, 7u);
  EXPECT_EQ(caseName(*back), "main");

  nlohmann::json j = testCaseToJson(c);
  j["inputs"].erase(1);
  auto bad = testCaseFromJson(j);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("its program 2"), std::string::npos)
      << bad.error().message();
  j = testCaseToJson(c);
  j["program"]["args"] = {"f32[2"};
  EXPECT_FALSE(testCaseFromJson(j));
}

// A program from a file that calls system() (or any function outside
// libm, MLIR's runtime and malloc/free) is refused before it is compiled
// to native code, by every compiler and by the straight lowering.
TEST(ProgramOracle, AProgramCallingSystemIsRefusedNotRun) {
  std::filesystem::path marker = std::filesystem::temp_directory_path() /
                                 ("cc-system-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  std::string command = "touch " + marker.string();
  std::string mlir = "llvm.mlir.global internal constant @cmd(\"" + command +
                     "\\00\") {addr_space = 0 : i32} : !llvm.array<" +
                     std::to_string(command.size() + 1) + " x i8>" + R"(
func.func private @system(!llvm.ptr) -> i32
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %p = llvm.mlir.addressof @cmd : !llvm.ptr
  %s = func.call @system(%p) : (!llvm.ptr) -> i32
  return %a : tensor<4xi32>
}
)";
  TestCase c = maxCase();
  c.program->mlir = mlir;
  auto cut = makeMlirBackend("mlir:mid-canon");
  ASSERT_TRUE(cut) << cut.error().message();
  auto r = judgeProgramSets({c}, {cut->get()});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_FALSE(r[0]) << "the program ran";
  EXPECT_NE(r[0].error().message().find("not run: it calls @system"),
            std::string::npos)
      << r[0].error().message();
  EXPECT_FALSE(std::filesystem::exists(marker));
}

// A seed program (MLIR's lit tests) is not free of undefined behaviour by
// construction: on inputs where its encoding finds it undefined (here a
// division by zero, which traps when run), the case is skipped, not blamed
// on the reference or a compiler; on the others it is judged.
TEST(ProgramOracle, ASeedProgramUndefinedOnItsInputsIsSkipped) {
#ifndef CC_HAVE_SMT
  GTEST_SKIP() << "built without Z3";
#endif
  TensorType t{DType::i32, {4}};
  TestCase c;
  c.program = MlirProgram{"main",
                          R"(
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %r = arith.divsi %a, %b : tensor<4xi32>
  return %r : tensor<4xi32>
}
)",
                          {t, t},
                          {t},
                          "t.mlir, chunk 1, @main"};
  c.inputs = {ints({1, 2, 3, 4}), ints({1, 0, 1, 1})};
  TestCase defined = c;
  defined.inputs[1] = ints({1, 2, 3, -4});
  auto cut = makeMlirBackend("mlir:mid-canon");
  ASSERT_TRUE(cut) << cut.error().message();
  auto r = judgeProgramSets({c, defined}, {cut->get()});
  ASSERT_EQ(r.size(), 2u);
  ASSERT_TRUE(r[0]) << r[0].error().message();
  EXPECT_TRUE(r[0]->skipped);
  EXPECT_NE(r[0]->skipReason.find("undefined on these inputs"),
            std::string::npos)
      << r[0]->skipReason;
  EXPECT_TRUE(r[0]->findings.empty());
  ASSERT_TRUE(r[1]) << r[1].error().message();
  EXPECT_FALSE(r[1]->skipped) << r[1]->skipReason;
  EXPECT_TRUE(r[1]->findings.empty());
}

} // namespace
} // namespace cc
