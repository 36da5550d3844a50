// repro.sh variants; see ReproScript.h. Every variant prints the tools it
// runs, and a tool that fails, crashes or hangs is the bug showing.
#include "reports/ReproScript.h"

#include "core/Quote.h"

#include <sstream>

namespace cc::repro {

namespace {

// The start of every script: the title, what it does, and the helpers.
std::string head(const Check &check, const std::string &what) {
  return "#!/bin/sh\n# " + shellComment(check.title) + "\n" + what + R"SH(set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
REPRO_TIMEOUT=${REPRO_TIMEOUT:-120}
limit=""
command -v timeout >/dev/null 2>&1 && limit="timeout $REPRO_TIMEOUT"
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
# A failing, crashing or hanging tool is the bug showing: exit 1; a
# missing one is exit 2.
failed() { # $1: what ran, $2: its exit status, $3: its stderr
  cat "$3" >&2
  if [ "$2" -eq 127 ]; then echo "$1: command not found"; exit 2
  elif [ "$2" -eq 124 ]; then echo "BUG: $1 hung (killed after $REPRO_TIMEOUT s)"
  elif [ "$2" -gt 128 ]; then echo "BUG: $1 crashed (signal $(($2 - 128)))"
  else echo "BUG: $1 failed (exit status $2)"; fi
  exit 1
}
)SH";
}

// mlir-opt and mlir-runner, and the runtime library beside mlir-runner.
std::string mlirSetup() {
  return R"SH(MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(pick mlir-runner-22 mlir-runner)}
case $MLIR_OPT in */*) MLIR_OPT=$(cd "$(dirname "$MLIR_OPT")" && pwd)/$(basename "$MLIR_OPT") ;; esac
if [ -z "${MLIR_C_RUNNER_UTILS:-}" ]; then
  runner=$(command -v "$MLIR_RUNNER" || echo "$MLIR_RUNNER")
  MLIR_C_RUNNER_UTILS=$(dirname "$(readlink -f "$runner")")/../lib/libmlir_c_runner_utils.so
fi
)SH";
}

// mlir-opt with the pipeline on $REPRO_MLIR, then mlir-runner; what the
// program prints goes to $work/actual.txt.
std::string mlirLowerAndRun(const std::string &pipeline, int optLevel) {
  return "REPRO_PIPELINE=${REPRO_PIPELINE:-" + shellWord(pipeline) +
         "}\nREPRO_OPT_LEVEL=${REPRO_OPT_LEVEL:-" + std::to_string(optLevel) +
         "}\n" +
         R"SH(echo "mlir-opt:    $(basename "$MLIR_OPT") ($("$MLIR_OPT" --version 2>/dev/null | grep -i version | head -n 1 | sed 's/^ *//'))"
echo "pipeline:    $REPRO_PIPELINE"
# From the input's folder, so that diagnostics name the file alone.
(cd "$(dirname "$REPRO_MLIR")" && exec $limit "$MLIR_OPT" "$(basename "$REPRO_MLIR")" \
  --pass-pipeline="$REPRO_PIPELINE" -o "$work/lowered.mlir") 2>"$work/opt.err" ||
  failed mlir-opt $? "$work/opt.err"
# convert-arith-to-llvm leaves arith's fastmath attribute on llvm.fpext and
# llvm.fptrunc (llvm/llvm-project#156692); mlir-runner, which lacks the arith
# dialect, cannot parse it. LLVM IR translation ignores it: drop it.
sed 's/ {fastmath = #arith\.fastmath<[a-z, ]*>}//g' "$work/lowered.mlir" >"$work/runnable.mlir"
$limit "$MLIR_RUNNER" "$work/runnable.mlir" -e repro_main -entry-point-result=void \
  -O"$REPRO_OPT_LEVEL" -shared-libs="$MLIR_C_RUNNER_UTILS" >"$work/actual.txt" 2>"$work/run.err" ||
  failed "the compiled program (mlir-runner)" $? "$work/run.err"
)SH";
}

// The script's end: compare.awk judges $work/actual.txt against
// expected.txt and gives the exit status.
std::string compare(const Check &check) {
  if (!check.compare)
    return "echo \"OK: the compiler and the program ran without a failure\"\n"
           "exit 0\n";
  return "awk -f \"$here/compare.awk\" \"$here/expected.txt\" "
         "\"$work/actual.txt\"\n";
}

} // namespace

// compare.awk beside this file, as a string literal made by CMake.
const char *compareProgram() {
  return
#include "CompareAwk.inc"
      ;
}

std::string mlirScript(const Check &check, const std::string &pipeline,
                       int optLevel) {
  return head(
             check,
             R"SH(# Lowers repro.mlir with upstream mlir-opt, runs @repro_main (which prints
# every output element) with mlir-runner, and compares the outputs with
# expected.txt (compare.awk).
# Exit status: 1 while the bug is present, 0 once it is fixed.
# Environment: MLIR_OPT, MLIR_RUNNER, MLIR_C_RUNNER_UTILS, REPRO_MLIR,
# REPRO_PIPELINE, REPRO_OPT_LEVEL, REPRO_TIMEOUT (seconds).
)SH") + mlirSetup() +
         R"SH(REPRO_MLIR=${REPRO_MLIR:-$here/repro.mlir}
echo "input:       ${REPRO_MLIR#"$here"/}"
)SH" + mlirLowerAndRun(pipeline, optLevel) +
         compare(check);
}

namespace {
// MLIR 19 prints bufferization.to_tensor without its result type and
// linalg.map's payload without the init's block argument; MLIR 22 needs
// both (backends/mlir/OlderSyntax.cpp does the same for crosscheck).
const char *kUpgradeFrom19 =
    R"SH(# MLIR 19 prints bufferization.to_tensor without its result type and
# linalg.map's payload without the init's argument: as MLIR 22 spells them.
awk '/= bufferization\.to_tensor / && !/ to tensor</ && match($0, /: memref<[^>]*>/) {
    t = substr($0, RSTART + 9, RLENGTH - 10); sub(/,.*/, "", t)
    $0 = $0 " to tensor<" t ">" }
  ins && /^[ \t]*\(.*\) \{$/ { h = $0
    if (gsub(/%/, "", h) == ins) sub(/\) \{$/, ", %cc_init" k++ ": " elt ") {") }
  { ins = 0 }
  /= linalg\.map ins\(/ && match($0, /outs\([^)]*\)/) {
    elt = substr($0, RSTART, RLENGTH); sub(/>.*/, "", elt)
    sub(/.*</, "", elt); sub(/.*[0-9?]x/, "", elt)
    s = $0; sub(/.*= linalg\.map ins\(/, "", s); sub(/ : .*/, "", s)
    ins = gsub(/%/, "", s) }
  { print }' "$work/compiled.mlir" >"$work/upgraded.mlir" && mv "$work/upgraded.mlir" "$work/compiled.mlir"
)SH";
} // namespace

std::string externalScript(const Check &check, const std::string &command,
                           const std::string &input,
                           const std::string &completion, int optLevel,
                           int syntaxVersion) {
  return head(check,
              "# Reproduces with upstream tools only: the compiler under test "
              "(the\n# command below) compiles " +
                  input + R"SH(; @repro_main (driver.mlir), which prints
# every output element (floats as their bit patterns), is added to its
# output, which mlir-opt lowers the rest of the way and mlir-runner runs;
# the outputs are compared with expected.txt (compare.awk).
# Exit status: 1 while the bug is present, 0 once it is fixed.
# Environment: REPRO_COMPILER (the command, run by sh, its input on stdin),
# MLIR_OPT, MLIR_RUNNER (default mlir-opt-22/mlir-runner-22 or
# mlir-opt/mlir-runner on PATH), MLIR_C_RUNNER_UTILS (the runtime library,
# default next to mlir-runner), REPRO_PIPELINE (the completing lowering),
# REPRO_OPT_LEVEL, REPRO_TIMEOUT (seconds).
)SH") + mlirSetup() +
         "REPRO_COMPILER=${REPRO_COMPILER:-" + shellWord(command) + "}\n" +
         R"SH(echo "compiler:    $REPRO_COMPILER"
$limit sh -c "$REPRO_COMPILER" <"$here/)SH" +
         input + R"SH(" >"$work/compiled.mlir" 2>"$work/compiler.err" ||
  failed "the compiler under test" $? "$work/compiler.err"
)SH" + std::string(syntaxVersion < 22 ? kUpgradeFrom19 : "") +
         R"SH(# The driver goes before the closing brace of the compiled module, or after
# the text when its top level is not a module (a pass-through compiler).
awk 'FNR == NR { driver = driver $0 "\n"; next }
  { line[++n] = $0 }
  !seen && /^[ \t]*[^ \t#\/]/ { seen = 1; wrapped = /^[ \t]*module/ }
  END { last = n + 1
        if (wrapped) for (last = n; last > 0 && line[last] !~ /^}/; last--) ;
        for (i = 1; i <= n; i++) { if (i == last) printf "%s", driver; print line[i] }
        if (last > n) printf "%s", driver }' \
  "$here/driver.mlir" "$work/compiled.mlir" >"$work/program.mlir"
REPRO_MLIR=$work/program.mlir
)SH" + mlirLowerAndRun(completion, optLevel) +
         compare(check);
}

std::string torchScript(const Check &check) {
  return head(
             check,
             R"SH(# Reproduces with LibTorch only: builds repro.cpp against LibTorch (Debian's
# libtorch-dev), which loads the traced module model.pt, freezes it, runs
# optimize_for_inference and executes it twice on inputs.pt with the
# TensorExpr fuser on CPU (the second run executes the fused graph), printing
# every output element (floats as their bit patterns); the outputs are
# compared with expected.txt (compare.awk).
# Exit status: 1 while the bug is present, 0 once it is fixed, 2 when
# repro.cpp cannot be built.
# Environment: CXX (default g++), TORCH_INCLUDE (LibTorch's C++ API headers),
# TORCH_LIBS (link flags), REPRO_TIMEOUT (seconds).
)SH") + R"SH(CXX=${CXX:-g++}
TORCH_INCLUDE=${TORCH_INCLUDE:-/usr/include/torch/csrc/api/include}
TORCH_LIBS=${TORCH_LIBS:--ltorch -ltorch_cpu -lc10}
echo "compiler:    $CXX, LibTorch $(dpkg-query -W -f '${Version}' libtorch-dev 2>/dev/null || echo '(version unknown)')"
echo "model:       model.pt (TorchScript, traced), inputs.pt"
$CXX -std=c++17 -O1 -isystem "$TORCH_INCLUDE" "$here/repro.cpp" -o "$work/repro" \
  $TORCH_LIBS 2>"$work/build.err" || {
  cat "$work/build.err" >&2
  echo "cannot build repro.cpp against LibTorch (set CXX, TORCH_INCLUDE, TORCH_LIBS)"
  exit 2
}
$limit "$work/repro" "$here/model.pt" "$here/inputs.pt" >"$work/actual.txt" 2>"$work/run.err" ||
  failed "TorchScript (repro.cpp)" $? "$work/run.err"
)SH" + compare(check);
}

const char *torchProgram() {
  return R"CPP(// Reruns a TorchScript finding with LibTorch alone: loads the traced module
// (model.pt) and its inputs (inputs.pt, a pickled tuple), freezes it, runs
// optimize_for_inference, and executes it twice with the TensorExpr fuser on
// CPU: the profiling executor runs the fused graph on the second call. Prints
// every element of every output, one per line: floats as their bit pattern
// (f64 as two 32-bit halves), integers as values.
#include <ATen/Parallel.h>
#include <torch/csrc/jit/passes/tensorexpr_fuser.h>
#include <torch/csrc/jit/tensorexpr/kernel.h>
#include <torch/script.h>
#include <torch/serialize.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace torch::jit {
// Defined in libtorch_cpu; its header is not installed.
TORCH_API void overrideCanFuseOnCPU(bool value);
} // namespace torch::jit

template <typename T> static const T *elements(const at::Tensor &t) {
  return static_cast<const T *>(t.data_ptr());
}

static void printElements(const at::Tensor &out) {
  at::Tensor t = out.contiguous();
  int64_t n = t.numel();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.scalar_type()) {
    case at::kFloat: std::printf("%" PRIu32 "\n", elements<uint32_t>(t)[i]); break;
    case at::kHalf:
    case at::kBFloat16: std::printf("%" PRIu16 "\n", elements<uint16_t>(t)[i]); break;
    case at::kDouble: {
      uint64_t b = elements<uint64_t>(t)[i];
      std::printf("%" PRIu64 "\n%" PRIu64 "\n", b >> 32, b & 0xffffffffu);
      break;
    }
    case at::kBool: std::printf("%d\n", int(elements<bool>(t)[i])); break;
    case at::kChar: std::printf("%d\n", int(elements<int8_t>(t)[i])); break;
    case at::kShort: std::printf("%d\n", int(elements<int16_t>(t)[i])); break;
    case at::kInt: std::printf("%" PRId32 "\n", elements<int32_t>(t)[i]); break;
    case at::kLong: std::printf("%" PRId64 "\n", elements<int64_t>(t)[i]); break;
    default:
      std::fprintf(stderr, "unexpected output dtype %s\n", c10::toString(t.scalar_type()));
      std::exit(3);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s MODEL.pt INPUTS.pt\n", argv[0]);
    return 2;
  }
  try {
    at::set_num_threads(1);
    torch::jit::setTensorExprFuserEnabled(true);
    torch::jit::overrideCanFuseOnCPU(true);
    torch::jit::tensorexpr::getTEMustUseLLVMOnCPU() = false;
    torch::NoGradGuard noGrad;
    std::ifstream in(argv[2], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    c10::IValue inputs = torch::pickle_load(bytes);
    torch::jit::Module module = torch::jit::load(argv[1]);
    module.eval();
    torch::jit::Module frozen = torch::jit::freeze(module);
    torch::jit::Module optimized = torch::jit::optimize_for_inference(frozen);
    c10::IValue result;
    for (int run = 0; run < 2; ++run) { // profile, then the fused graph
      std::vector<c10::IValue> args;
      for (const c10::IValue &v : inputs.toTupleRef().elements())
        args.emplace_back(v.toTensor().clone());
      result = optimized.forward(args);
    }
    if (result.isTensor())
      printElements(result.toTensor());
    else
      for (const c10::IValue &v : result.toTupleRef().elements())
        printElements(v.toTensor());
  } catch (const c10::Error &e) {
    std::fprintf(stderr, "TorchScript failed: %s\n", e.what_without_backtrace());
    return 3;
  }
  return 0;
}
)CPP";
}

} // namespace cc::repro
