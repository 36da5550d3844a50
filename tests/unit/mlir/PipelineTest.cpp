// Backend specs, pipeline strings, failure classification and the external
// *-opt mode.
#include "MlirTestUtil.h"

#include "backends/mlir/MlirBackend.h"

#include <chrono>
#include <cstdlib>

namespace cc {
namespace {

using test::closeTo;
using test::tensorOf;

// A graph small enough to run in every mode: (a + b) * a.
Graph addMul() {
  Graph g;
  g.name = "addmul";
  ValueId a = g.addInput("a", {DType::f32, {2, 2}});
  ValueId b = g.addInput("b", {DType::f32, {2, 2}});
  auto s = g.add("add", {a, b});
  auto m = s ? g.add("mul", {*s, a}) : s;
  EXPECT_TRUE(bool(m)) << (m ? "" : m.error().message());
  if (m)
    g.addOutput(*m);
  return g;
}

Inputs addMulInputs() {
  return {tensorOf(DType::f32, {2, 2}, {1, 2, 3, 4}),
          tensorOf(DType::f32, {2, 2}, {0.5, -1, 2, 8})};
}

Expected<Outputs> runSpec(const std::string &spec, double timeout = 30) {
  auto backend = makeMlirBackend(spec);
  if (!backend)
    return backend.error();
  RunOptions options;
  options.limits.timeoutSeconds = timeout;
  return (*backend)->run(addMul(), addMulInputs(), options);
}

void expectAddMulResult(const Expected<Outputs> &out) {
  ASSERT_TRUE(bool(out)) << out.error().message();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_TRUE(
      closeTo((*out)[0], tensorOf(DType::f32, {2, 2}, {1.5, 2, 15, 48}), 0));
}

// The run fails with `code` and a message that contains `needle`.
void expectFailure(const Expected<Outputs> &out, ErrorCode code,
                   const std::string &needle) {
  ASSERT_FALSE(bool(out));
  EXPECT_EQ(out.error().code(), code) << out.error().message();
  EXPECT_NE(out.error().message().find(needle), std::string::npos)
      << out.error().message();
}

TEST(MlirSpec, NamedPipelinesExistAndParse) {
  ASSERT_GE(namedPipelines().size(), 2u);
  EXPECT_EQ(namedPipelines()[0].name, "tosa-O0");
  EXPECT_EQ(namedPipelines()[0].llvmOptLevel, 0);
  bool haveO3 = false;
  for (const NamedPipeline &p : namedPipelines()) {
    haveO3 |= p.name == "tosa-O3" && p.llvmOptLevel == 3;
    auto b = makeMlirBackend("mlir:pipeline=" + p.pipeline);
    EXPECT_TRUE(bool(b)) << p.name << ": " << b.error().message();
  }
  EXPECT_TRUE(haveO3);
}

TEST(MlirSpec, BadSpecsSayWhatIsWrong) {
  auto unknown = makeMlirBackend("mlir:tosa-O9");
  ASSERT_FALSE(bool(unknown));
  EXPECT_NE(unknown.error().message().find("tosa-O0"), std::string::npos);
  auto scheme = makeMlirBackend("llvm:tosa-O0");
  ASSERT_FALSE(bool(scheme));
  auto version = makeMlirBackend("mlir-ext[18]:mlir-opt-18");
  ASSERT_FALSE(bool(version));
  EXPECT_NE(version.error().message().find("mlir-ext[19]"), std::string::npos);
  EXPECT_FALSE(bool(makeMlirBackend("mlir-ext:  ")));
}

TEST(MlirSpec, InvalidPipelineIsAPlainErrorNamingThePass) {
  auto b = makeMlirBackend(
      "mlir:pipeline=builtin.module(func.func(no-such-pass),canonicalize)");
  ASSERT_FALSE(bool(b));
  EXPECT_EQ(b.error().code(),
            ErrorCode::None); // the user's input, not a finding
  EXPECT_NE(b.error().message().find("no-such-pass"), std::string::npos)
      << b.error().message();
  auto unbalanced = makeMlirBackend("mlir:pipeline=func.func(canonicalize");
  ASSERT_FALSE(bool(unbalanced));
  EXPECT_EQ(unbalanced.error().message().find('\n'), std::string::npos)
      << unbalanced.error().message();
}

TEST(MlirSpec, PipelineWithoutModuleAnchorIsAccepted) {
  std::string o0 = namedPipelines()[0].pipeline;
  std::string inner = o0.substr(std::string("builtin.module(").size());
  inner.pop_back();
  expectAddMulResult(runSpec("mlir:pipeline=" + inner));
}

TEST(MlirRun, PassFailureIsACompilerFailureNamingThePass) {
  // Rank 8 exceeds TOSA level 8K's MAX_RANK: tosa-validate fails.
  std::string module = R"(
func.func @f(%a: tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32> {
  %0 = tosa.abs %a : (tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x1x2xf32>
})";
  TensorType type{DType::f32, {1, 1, 1, 1, 1, 1, 1, 2}};
  std::string pipeline =
      "builtin.module(tosa-attach-target{level=8k},tosa-validate)";
  auto out = runMlirModule(module, "f", {type}, {Tensor(type)}, pipeline, 0);
  expectFailure(out, ErrorCode::CompilerFailure, "pass tosa-validate failed");
  expectFailure(out, ErrorCode::CompilerFailure, "MAX_RANK");
  // The isolated worker (the default) passes the failure on unchanged.
  RunOptions inProcess;
  inProcess.isolate = false;
  auto direct = runMlirModule(module, "f", {type}, {Tensor(type)}, pipeline, 0,
                              inProcess);
  expectFailure(direct, ErrorCode::CompilerFailure,
                "pass tosa-validate failed");
  EXPECT_EQ(direct.error().message(), out.error().message());
}

TEST(MlirRun, CallsToMissingFunctionsAreACompilerFailure) {
  // convert-math-to-libm lowers math.rsqrt to rsqrtf, which libm lacks;
  // tosa-O0 expands rsqrt first, this pipeline does not.
  std::string o0 = namedPipelines()[0].pipeline;
  std::string expand = "math-expand-ops{ops=rsqrt},";
  ASSERT_NE(o0.find(expand), std::string::npos);
  std::string pipeline = o0.replace(o0.find(expand), expand.size(), "");
  std::string module = R"(
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.rsqrt %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})";
  expectFailure(runMlirModule(module, "f", {{DType::f32, {2}}},
                              {tensorOf(DType::f32, {2}, {4, 16})}, pipeline,
                              0),
                ErrorCode::CompilerFailure, "rsqrtf");
  auto good = runMlirModule(module, "f", {{DType::f32, {2}}},
                            {tensorOf(DType::f32, {2}, {4, 16})},
                            namedPipelines()[0].pipeline, 0);
  ASSERT_TRUE(bool(good)) << good.error().message();
  EXPECT_TRUE(closeTo((*good)[0], tensorOf(DType::f32, {2}, {0.5, 0.25}), 0));
}

TEST(MlirRun, IncompletePipelineIsReported) {
  // Stops at linalg: the function never reaches the LLVM dialect.
  auto out = runSpec("mlir:pipeline=builtin.module(func.func(tosa-to-linalg))");
  ASSERT_FALSE(bool(out));
  EXPECT_NE(out.error().message().find("_mlir_ciface_addmul"),
            std::string::npos)
      << out.error().message();
}

TEST(MlirRun, ResultsReturnedInsteadOfOutParamsAreReported) {
  // Without buffer-results-to-out-params the C interface has the same
  // arity (one pointer per result), but the callee writes a descriptor
  // there, not into crosscheck's buffer: running it would read garbage.
  auto out = runSpec(
      "mlir:pipeline=builtin.module(func.func(tosa-to-linalg-named,"
      "tosa-to-linalg,tosa-to-arith,tosa-to-tensor),one-shot-bufferize{"
      "bufferize-function-boundaries function-boundary-type-conversion="
      "identity-layout-map},func.func(convert-linalg-to-loops),"
      "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
      "finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts)");
  ASSERT_FALSE(bool(out));
  EXPECT_NE(out.error().message().find(
                "returns its results instead of writing them to memref "
                "out-params"),
            std::string::npos)
      << out.error().message();
}

TEST(MlirRun, RunsHandWrittenModules) {
  std::string module = R"(
func.func @f(%x: tensor<3xi8>) -> tensor<3xi8> {
  %0 = tosa.abs %x : (tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
})";
  auto out = runMlirModule(module, "f", {{DType::i8, {3}}},
                           {tensorOf(DType::i8, {3}, {-5, 0, 7})},
                           namedPipelines()[0].pipeline, 0);
  ASSERT_TRUE(bool(out)) << out.error().message();
  EXPECT_TRUE(closeTo((*out)[0], tensorOf(DType::i8, {3}, {5, 0, 7}), 0));

  auto bad = runMlirModule("func.func @f(", "f", {}, {},
                           namedPipelines()[0].pipeline, 0);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(bad.error().code(), ErrorCode::None);
  EXPECT_NE(bad.error().message().find("cannot parse"), std::string::npos);
}

TEST(MlirExternal, MlirOpt22RoundTripAndPartialLowering) {
  expectAddMulResult(runSpec("mlir-ext:mlir-opt-22"));
  expectAddMulResult(
      runSpec("mlir-ext:mlir-opt-22 --pass-pipeline='builtin.module(func.func("
              "tosa-to-linalg-named,tosa-to-linalg,canonicalize))'"));
}

TEST(MlirExternal, OutputNeedingMathToLlvmIsCompleted) {
  // math-expand-ops writes ceil with math.copysign, which libm has no call
  // for: a completion by libm alone failed, and the failure was blamed on
  // the compiler, hiding what it computed.
  Graph g;
  g.name = "ceil";
  ValueId x = g.addInput("x", {DType::f32, {4}});
  auto c = g.add("ceil", {x});
  ASSERT_TRUE(bool(c)) << c.error().message();
  g.addOutput(*c);
  auto backend = makeMlirBackend(
      "mlir-ext:mlir-opt-22 --pass-pipeline='builtin.module(func.func("
      "tosa-to-linalg,math-expand-ops{ops=ceil}))'");
  ASSERT_TRUE(bool(backend)) << backend.error().message();
  RunOptions options;
  options.limits.timeoutSeconds = 30;
  auto out = (*backend)->run(
      g, {tensorOf(DType::f32, {4}, {-1.5, -0.25, 0.5, 2})}, options);
  ASSERT_TRUE(bool(out)) << out.error().message();
  EXPECT_TRUE(closeTo((*out)[0], tensorOf(DType::f32, {4}, {-1, 0, 1, 2}), 0));
}

TEST(MlirExternal, CompletionFailureIsCrosschecksProblemNotAFinding) {
  // Valid output that crosscheck's completing lowering cannot lower (no
  // conversion of tosa.custom): not the compiler's finding.
  auto out = runSpec(
      "mlir-ext:cat >/dev/null; printf '%s' 'func.func @addmul(%a: "
      "tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> { %0 = "
      "tosa.custom %a {domain_name = \"d\", implementation_attrs = \"\", "
      "operator_name = \"op\"} : (tensor<2x2xf32>) -> tensor<2x2xf32> "
      "return %0 : tensor<2x2xf32> }'");
  expectFailure(out, ErrorCode::Unsupported,
                "crosscheck's completing lowering failed in pass "
                "tosa-to-linalg on the output of");
  expectFailure(out, ErrorCode::Unsupported, "not a finding");
}

TEST(MlirExternal, MlirOpt19LowersTosa19Syntax) {
  if (system("command -v mlir-opt-19 >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "mlir-opt-19 is not installed";
  // MLIR 19 prints linalg that MLIR 22 reads; its TOSA syntax differs.
  expectAddMulResult(runSpec(
      "mlir-ext:mlir-opt-19 --pass-pipeline='builtin.module(func.func("
      "tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))'"));
}

TEST(MlirExternal, CrashIsACompilerFailureNamingTheSignal) {
  auto out = runSpec("mlir-ext:echo about to crash >&2; kill -SEGV $$");
  expectFailure(out, ErrorCode::CompilerFailure, "signal 11");
  expectFailure(out, ErrorCode::CompilerFailure, "about to crash");
}

TEST(MlirExternal, HangIsATimeout) {
  auto start = std::chrono::steady_clock::now();
  auto out = runSpec("mlir-ext:sleep 100", /*timeout=*/1);
  double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  expectFailure(out, ErrorCode::Timeout, "timed out");
  EXPECT_LT(took, 60); // killed, not waited for (sleep 100), even under load
}

TEST(MlirExternal, NonZeroExitIsACompilerFailureWithStderr) {
  expectFailure(runSpec("mlir-ext:mlir-opt-22 --no-such-flag"),
                ErrorCode::CompilerFailure, "no-such-flag");
}

TEST(MlirExternal, CommandThatCannotRunIsAPlainError) {
  // The shell's exit status 127 (not found) and 126 (not executable) mean a
  // wrong spec, not a compiler bug: no CompilerFailure code.
  auto missing = runSpec("mlir-ext:no-such-compiler-for-crosscheck --x");
  expectFailure(missing, ErrorCode::None, "command not found");
  expectFailure(missing, ErrorCode::None, "no-such-compiler-for-crosscheck");
  expectFailure(runSpec("mlir-ext:/dev/null"), ErrorCode::None,
                "not executable");
}

TEST(MlirExternal, InvalidOutputIsAFinding) {
  // Output that parses but fails the verifier: a compiler bug.
  expectFailure(runSpec("mlir-ext:cat >/dev/null; printf '%s' "
                        "'func.func @addmul() -> i32 { return }'"),
                ErrorCode::CompilerFailure, "fails the verifier");
}

} // namespace
} // namespace cc
