// What makes two compiler failures "the same bug": the signatures the crash,
// timeout and verifier oracles derive from a backend's failure message.
#include "backends/Backend.h"
#include "oracles/Verdict.h"

#include <gtest/gtest.h>

namespace cc {
namespace {

TEST(Signature, CrashIsSignalAndSymbolizedTopFrames) {
  // Frames without a symbol change with every build of the library; libc's
  // abort path says nothing about the bug.
  std::string a = "crashed with signal 11 (Segmentation fault) in pass "
                  "buffer-results-to-out-params on the emitted module; stack:\n"
                  "  #0 mlir::BaseMemRefType::hasRank() const (libMLIR.so.22.1)\n"
                  "  #1 libMLIR.so.22.1+0x290963c\n"
                  "  #2 raise (libc.so.6)\n"
                  "  #3 mlir::walk(mlir::Operation*) (libMLIR.so.22.1)\n";
  std::string b = a;
  b.replace(b.find("0x290963c"), 9, "0x1234567");
  Finding fa = compilerFailureFinding("mlir:tosa-O3", ErrorCode::CompilerFailure, a);
  Finding fb = compilerFailureFinding("mlir:tosa-O3", ErrorCode::CompilerFailure, b);
  EXPECT_EQ(fa.signature.kind, Kind::Crash);
  EXPECT_EQ(fa.signature.stage, "buffer-results-to-out-params");
  EXPECT_EQ(fa.signature.detail,
            "signal 11 (Segmentation fault) at mlir::BaseMemRefType::hasRank < "
            "mlir::walk");
  EXPECT_EQ(fa.signature, fb.signature);
}

TEST(Signature, LlvmStackDumpsOfExternalToolsAreRead) {
  std::string msg = "'mlir-opt-19 --canonicalize' crashed with signal 6 "
                    "(Aborted); stderr: Stack dump:\n"
                    " #0 0x00007f llvm::sys::PrintStackTrace(llvm::raw_ostream&)\n"
                    " #1 0x00007f SignalHandler(int)\n"
                    " #2 0x00007f mlir::tosa::foldMul(mlir::Value) (libMLIR.so)\n";
  Finding f = compilerFailureFinding("mlir-ext:mlir-opt-19", ErrorCode::CompilerFailure, msg);
  EXPECT_EQ(f.signature.kind, Kind::Crash);
  EXPECT_EQ(f.signature.detail, "signal 6 (Aborted) at mlir::tosa::foldMul");
}

TEST(Signature, OutOfMemoryAndHangsHaveTheirOwnDetail) {
  Finding oom = compilerFailureFinding(
      "mlir-ext:x", ErrorCode::CompilerFailure,
      std::string("'x' (") + kOutOfMemory +
          ": limit 512 MiB) failed with exit status 1; stderr: MemoryError");
  EXPECT_EQ(oom.signature.kind, Kind::Crash);
  EXPECT_EQ(oom.signature.detail, "out of memory");
  Finding hang = compilerFailureFinding("mlir:tosa-O3", ErrorCode::Timeout,
                                        "timed out after 30 s in pass cse on "
                                        "the emitted module");
  EXPECT_EQ(hang.signature.kind, Kind::Timeout);
  EXPECT_EQ(hang.signature.stage, "cse");
  EXPECT_EQ(hang.signature.detail, "hang");
}

TEST(Signature, VerifierFailuresAreThePassAndTheMessageTemplate) {
  auto failure = [](const std::string &value, const std::string &shape) {
    return compilerFailureFinding(
        "mlir:tosa-O3", ErrorCode::CompilerFailure,
        "pass tosa-optional-decompositions failed on the emitted module: "
        "loc(\"m\":12:3): error: 'tosa.pad' op verification failed for " +
            value + " : tensor<" + shape + "xi8>\n  note: see current operation");
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
  Finding f = compilerFailureFinding(
      "mlir:tosa-O3", ErrorCode::CompilerFailure,
      "pass affine-super-vectorize failed on the emitted module: "
      "loc(\"m\":6:11): error: NYI: non-trivial layout map\n"
      "loc(\"m\":6:11): error: NYI: non-trivial layout map\n"
      "loc(\"m\":5:12): error: 'vector.transfer_write' op should not have "
      "broadcast dimensions note: see current operation: %11");
  EXPECT_EQ(f.signature.stage, "affine-super-vectorize");
  EXPECT_EQ(f.signature.detail,
            "'vector.transfer_write' op should not have broadcast dimensions");
}

} // namespace
} // namespace cc
