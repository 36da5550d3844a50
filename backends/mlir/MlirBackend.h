// The MLIR backend: emits a graph as a func.func of TOSA ops, lowers it
// through a pass pipeline to the LLVM dialect and runs it in-process with
// MLIR's ExecutionEngine. This header includes no MLIR headers, so its users
// stay cheap to compile.
#pragma once

#include "backends/Backend.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cc {

// The TOSA module of a graph: `func.func @<graph name>` whose arguments are
// the graph inputs and whose results are the graph outputs. syntaxVersion
// selects the MLIR release whose TOSA syntax is written (22, or 19).
Expected<std::string> emitModule(const Graph &g, int syntaxVersion = 22);

// Mid-level MLIR in MLIR 22's syntax rewritten as MLIR `version` (19) reads
// it, and an older release's printed output rewritten as MLIR 22 reads it
// (bufferization.to_tensor's result type, linalg.map's init argument; see
// OlderSyntax.cpp). Version 22 returns the text unchanged.
std::string toOlderSyntax(const std::string &text, int version);
std::string fromOlderSyntax(const std::string &text, int version);

// Parses and verifies MLIR text with MLIR 22 (all upstream dialects); the
// error carries MLIR's diagnostics.
Error verifyMlir(const std::string &module);

// The seed programs of an MLIR file (MLIR's lit tests, a user's suite):
// one per function with a body of each `// -----` chunk that parses and
// verifies, calls no bodiless function and takes and returns scalars,
// indices and static tensors of crosscheck's element types. Each is the
// chunk plus @cc_main, which takes every argument as a tensor (a scalar as
// tensor<T>, an index as i64) and calls the function; its `source` names
// `name`, the chunk and the function. Chunks that do not qualify are left
// out, not errors.
std::vector<MlirProgram> seedPrograms(const std::string &text,
                                      const std::string &name);

// MLIR's parser recurses once per nested bracket, so text nested thousands
// deep overflows the stack. Every parse of MLIR text from outside goes
// through this first: deeper than kMaxMlirNesting brackets is an error
// naming `what`. Real modules stay far below it.
inline constexpr int kMaxMlirNesting = 256;
Error checkMlirNesting(const std::string &text, const std::string &what);

struct NamedPipeline {
  std::string name;     // "tosa-O0"
  std::string summary;  // one line for --help
  std::string pipeline; // textual pass pipeline from TOSA to the LLVM dialect
  int llvmOptLevel;     // LLVM -O level used by the JIT
};
const std::vector<NamedPipeline> &namedPipelines();

// Pieces of the named pipelines that other pipelines build on (the GPU
// backend's): TOSA to linalg, arith and tensor (on func.func); one-shot
// bufferization with results as out-params (on the module; no
// deallocation).
extern const char *const kTosaToLinalgPasses;
extern const char *const kBufferizeToOutParams;

// The straight lowering (Straight.cpp): from TOSA or mid-level MLIR
// (linalg, tensor, arith, math, scf, vector) to the LLVM dialect by direct
// conversions only (no canonicalize, cse, folding, expansion or
// integer-range pass), LLVM at -O0. The reference lowering of generated
// programs and of counterexample replays. A pipeline under test inserts its
// passes at three levels: on tensors (func.func passes, before
// bufferization), on loops (func.func passes on memrefs and scf, after
// linalg becomes loops), and before the conversion to LLVM (module passes).
struct StraightInserts {
  // On tensors; on buffers (linalg on memrefs, before it becomes loops);
  // on the loops; before the conversion to LLVM.
  std::string onTensors, onBuffers, onLoops, beforeLlvm;
};
NamedPipeline straightLowering(const StraightInserts &at = {},
                               int llvmOptLevel = 0);
// A module pass for StraightInserts::beforeLlvm: math.expm1 and math.log1p
// (f32, f64) as calls of libm's, which convert-math-to-llvm computes by
// formulas of its own (exp(x) - 1): the reference that an approximation's
// accuracy is measured against.
extern const char *const kLibmPass;

// The completing lowering (Pipelines.cpp): what finishes an external
// compiler's output of a graph and a graph's bisection prefix (a
// program's is the straight lowering, which has no arith-expand). Upstream
// passes only, so that a bundle's repro.sh runs it with mlir-opt; from TOSA,
// linalg, tensor, vector, scf, affine, memref, arith and math (every op that
// the straight lowering handles: math-to-llvm before libm, vector transfers as
// loops) to the LLVM dialect, leaving what is already lowered alone; LLVM -O0.
const NamedPipeline &completionLowering();

// Parses a compiler-under-test spec:
//   mlir:NAME            a named pipeline (mlir:tosa-O3)
//   mlir:pipeline=TEXT   any textual pass pipeline from TOSA to LLVM
//   mlir-ext:CMD         an external *-opt compatible command line; it reads
//                        the TOSA module on stdin and writes MLIR on stdout
//                        (e.g. "mlir-opt-19 --tosa-to-linalg ..."), the
//                        result is lowered to LLVM (with tosa-O0, which
//                        leaves already lowered IR alone) and run in-process
//   mlir-ext[19]:CMD     the same, emitting MLIR 19's TOSA syntax; without
//                        [N] the version is 19 when the command's first word
//                        ends in "-19" (mlir-opt-19), else 22
// The pipeline text may omit the outer "builtin.module(...)".
// An invalid spec or pipeline string is an error that says what is wrong.
// mlir-ext failures: a crash (signal) or non-zero exit is
// ErrorCode::CompilerFailure, a hang past RunLimits::timeoutSeconds is
// ErrorCode::Timeout; a command the shell cannot run (exit status 127 or
// 126) is a plain error. A failure or crash of the completing lowering on
// valid output is crosscheck's problem: ErrorCode::Unsupported, saying so.
// Lowering, JIT compilation and execution run in a forked worker unless
// RunOptions::isolate is false: a crash there is ErrorCode::CompilerFailure
// naming the signal, the stage ("pass NAME", "jit", "execute") and a short
// stack, a run past RunLimits::timeoutSeconds is ErrorCode::Timeout.
Expected<std::unique_ptr<Backend>> makeMlirBackend(const std::string &spec);

// The pipeline an in-process spec compiles with, as makeMlirBackend resolves
// it: mlir:NAME gives the named pipeline, mlir:pipeline=TEXT gives TEXT (as
// written; it may omit builtin.module(...)) at LLVM -O2, and
// mlir:pipeline-O<k>=TEXT at LLVM -O<k>. nullopt for other specs and
// unknown names.
std::optional<NamedPipeline> pipelineOfSpec(const std::string &spec);

// An external compiler's spec, mlir-ext[19]:CMD or mlir-ext:CMD: the shell
// command (reads TOSA in `syntaxVersion`'s syntax on stdin, writes MLIR on
// stdout) and the in-process lowering that completes its output.
struct ExternalCompiler {
  std::string command;
  int syntaxVersion; // 19 or 22; mlir-ext: 19 when the command ends in -19
  NamedPipeline completion;
};
Expected<ExternalCompiler> externalOfSpec(const std::string &spec);

// Lowers an MLIR module (TOSA or partly lowered) with `pipeline` (textual,
// from its input to the LLVM dialect, results as out-params) and runs
// @funcName on the inputs; its results must have resultTypes. A module that
// does not parse or verify is a plain error; a failing or crashing pass, JIT
// or run is ErrorCode::CompilerFailure, a hang ErrorCode::Timeout (isolated
// as above). For hand-written modules and tools.
Expected<Outputs> runMlirModule(const std::string &module,
                                const std::string &funcName,
                                const std::vector<TensorType> &resultTypes,
                                const Inputs &inputs,
                                const std::string &pipeline, int llvmOptLevel,
                                const RunOptions &options = {});
// runMlirModule on several input sets, lowered and compiled once: one
// result per set.
std::vector<Expected<Outputs>>
runMlirModuleSets(const std::string &module, const std::string &funcName,
                  const std::vector<TensorType> &resultTypes,
                  const InputSets &sets, const std::string &pipeline,
                  int llvmOptLevel, const RunOptions &options = {});

} // namespace cc
