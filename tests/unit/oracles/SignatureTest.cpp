// What makes two compiler failures "the same bug": the signatures the crash,
// timeout and verifier oracles derive from a backend's failure (the
// CompilerFault it carries; its message only for a diagnostic's template).
#include "backends/Backend.h"
#include "backends/mlir/MlirBackend.h"
#include "oracles/Verdict.h"
#include "tests/mutants/Mutants.h"

#include <gtest/gtest.h>

namespace cc {
namespace {

CompilerFault fault(CompilerFault::Kind kind, const std::string &stage = "") {
  CompilerFault f;
  f.kind = kind;
  f.stage = stage;
  return f;
}

CompilerFault crashed(int signal, const std::string &stage = "") {
  CompilerFault f = fault(CompilerFault::Kind::Crashed, stage);
  f.signal = signal;
  return f;
}

TEST(Signature, CrashIsSignalAndSymbolizedTopFrames) {
  // Frames without a symbol change with every build of the library; libc's
  // abort path says nothing about the bug.
  CompilerFault crash = crashed(11, "buffer-results-to-out-params");
  crash.frames = {"mlir::BaseMemRefType::hasRank() const (libMLIR.so.22.1)",
                  "libMLIR.so.22.1+0x290963c", "raise (libc.so.6)",
                  "mlir::walk(mlir::Operation*) (libMLIR.so.22.1)"};
  std::string message = "crashed with signal 11 (Segmentation fault) in pass "
                        "buffer-results-to-out-params on the emitted module";
  CompilerFault other = crash;
  other.frames[1] = "libMLIR.so.22.1+0x1234567";
  Finding fa =
      compilerFailureFinding("mlir:tosa-O3", compilerFault(message, crash));
  Finding fb =
      compilerFailureFinding("mlir:tosa-O3", compilerFault(message, other));
  EXPECT_EQ(fa.signature.kind, Kind::Crash);
  EXPECT_EQ(fa.signature.stage, "buffer-results-to-out-params");
  EXPECT_EQ(fa.signature.detail,
            "signal 11 (Segmentation fault) at mlir::BaseMemRefType::hasRank < "
            "mlir::walk");
  EXPECT_EQ(fa.signature, fb.signature);
}

TEST(Signature, LlvmStackDumpsOfExternalToolsAreRead) {
  std::string msg =
      "'mlir-opt-19 --canonicalize' crashed with signal 6 "
      "(Aborted); stderr: Stack dump:\n"
      " #0 0x00007f llvm::sys::PrintStackTrace(llvm::raw_ostream&)\n"
      " #1 0x00007f SignalHandler(int)\n"
      " #2 0x00007f mlir::tosa::foldMul(mlir::Value) (libMLIR.so)\n";
  CompilerFault crash = crashed(6);
  crash.diagnostic = msg.substr(msg.find("Stack dump:"));
  Finding f =
      compilerFailureFinding("mlir-ext:mlir-opt-19", compilerFault(msg, crash));
  EXPECT_EQ(f.signature.kind, Kind::Crash);
  EXPECT_EQ(f.signature.detail, "signal 6 (Aborted) at mlir::tosa::foldMul");
}

TEST(Signature, OutOfMemoryAndHangsHaveTheirOwnDetail) {
  CompilerFault memory = fault(CompilerFault::Kind::OutOfMemory);
  memory.diagnostic = "MemoryError";
  Finding oom = compilerFailureFinding(
      "mlir-ext:x",
      compilerFault(std::string("'x' (") + kOutOfMemory +
                        ": limit 512 MiB) failed with exit status 1; stderr: "
                        "MemoryError",
                    memory));
  EXPECT_EQ(oom.signature.kind, Kind::Crash);
  EXPECT_EQ(oom.signature.detail, "out of memory");
  Finding hang = compilerFailureFinding(
      "mlir:tosa-O3",
      compilerFault("timed out after 30 s in pass cse on the emitted module",
                    fault(CompilerFault::Kind::TimedOut, "cse")));
  EXPECT_EQ(hang.signature.kind, Kind::Timeout);
  EXPECT_EQ(hang.signature.stage, "cse");
  EXPECT_EQ(hang.signature.detail, "hang");
}

TEST(Signature, VerifierFailuresAreThePassAndTheMessageTemplate) {
  auto failure = [](const std::string &value, const std::string &shape) {
    std::string diagnostic =
        "loc(\"m\":12:3): error: 'tosa.pad' op verification failed for " +
        value + " : tensor<" + shape + "xi8>\n  note: see current operation";
    return compilerFailureFinding(
        "mlir:tosa-O3",
        compilerFault("pass tosa-optional-decompositions failed on the "
                      "emitted module: " +
                          diagnostic,
                      fault(CompilerFault::Kind::VerifierFailed,
                            "tosa-optional-decompositions")));
  };
  Finding a = failure("%v3", "2x4"), b = failure("%v17", "8x1");
  EXPECT_EQ(a.signature.kind, Kind::Verifier);
  EXPECT_EQ(a.signature.stage, "tosa-optional-decompositions");
  EXPECT_EQ(a.signature, b.signature);
  EXPECT_EQ(a.signature.detail,
            "'tosa.pad' op verification failed for % : tensor<#x#xi#>");
}

// affine-super-vectorize reports "NYI" errors for loops it gives up on and
// then fails on the verifier: the signature names the failure.
TEST(Signature, PassFailureNamesTheLastDiagnostic) {
  std::string diagnostic =
      "loc(\"m\":6:11): error: NYI: non-trivial layout map\n"
      "loc(\"m\":6:11): error: NYI: non-trivial layout map\n"
      "loc(\"m\":5:12): error: 'vector.transfer_write' op should not have "
      "broadcast dimensions note: see current operation: %11";
  Finding f = compilerFailureFinding(
      "mlir:tosa-O3",
      compilerFault("pass affine-super-vectorize failed on the emitted "
                    "module: " +
                        diagnostic,
                    fault(CompilerFault::Kind::VerifierFailed,
                          "affine-super-vectorize")));
  EXPECT_EQ(f.signature.kind, Kind::Verifier);
  EXPECT_EQ(f.signature.stage, "affine-super-vectorize");
  EXPECT_EQ(f.signature.detail,
            "'vector.transfer_write' op should not have broadcast dimensions");
}

// The isolated worker passes its failure's facts to the parent: a crash
// names its pass, and a pass failure is the same finding either way.
TEST(Signature, FaultsCrossTheIsolatedWorker) {
  // Rank 7 exceeds TOSA level 8K's MAX_RANK: tosa-validate fails.
  std::string module = R"(
func.func @f(%a: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
  %0 = tosa.transpose %a {perms = array<i32: 0, 1, 2, 3, 4, 5, 6>} : (tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
  return %0 : tensor<1x1x1x1x1x1x2xf32>
})";
  TensorType type{DType::f32, {1, 1, 1, 1, 1, 1, 2}};
  auto finding = [&](const std::string &pipeline, bool isolate) {
    RunOptions o;
    o.isolate = isolate;
    auto r = runMlirModule(module, "f", {type}, {Tensor(type)}, pipeline, 0, o);
    EXPECT_FALSE(bool(r));
    return compilerFailureFinding("mlir:test",
                                  r ? makeError("no failure") : r.error());
  };
  registerMutantPasses();
  Finding crash =
      finding("builtin.module(func.func(cc-crash-on-transpose))", true);
  EXPECT_EQ(crash.signature.kind, Kind::Crash);
  EXPECT_EQ(crash.signature.stage, "cc-crash-on-transpose");
  EXPECT_TRUE(
      crash.signature.detail.starts_with("signal 11 (Segmentation fault) at "))
      << crash.signature.detail;

  std::string validate =
      "builtin.module(tosa-attach-target{level=8k},tosa-validate)";
  Finding isolated = finding(validate, true);
  EXPECT_EQ(isolated.signature.kind, Kind::PassFailure);
  EXPECT_EQ(isolated.signature.stage, "tosa-validate");
  EXPECT_EQ(isolated.signature, finding(validate, false).signature);
}

} // namespace
} // namespace cc
