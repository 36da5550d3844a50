#!/bin/sh
# arith-int-range-narrowing: arith.remui of a sign-extended i32 is narrowed
# to an i32 remui. Runs repro.mlir through `mlir-opt
# --arith-int-range-narrowing=int-bitwidths-supported=32 --convert-to-llvm`
# and mlir-runner; @main prints remui(index_cast(-7 : i32), 9), which is 0
# ((2^64 - 7) mod 9); the narrowed i32 remui gives (2^32 - 7) mod 9 = 6.
# Exit status: 1 while the bug is present (or a tool fails), 0 once it is
# fixed, 2 when a tool is missing.
# Environment: MLIR_OPT, MLIR_RUNNER, MLIR_C_RUNNER_UTILS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(pick mlir-runner-22 mlir-runner)}
command -v "$MLIR_OPT" >/dev/null 2>&1 && command -v "$MLIR_RUNNER" >/dev/null 2>&1 ||
  { echo "needs mlir-opt and mlir-runner (set MLIR_OPT, MLIR_RUNNER)"; exit 2; }
runner=$(command -v "$MLIR_RUNNER")
MLIR_C_RUNNER_UTILS=${MLIR_C_RUNNER_UTILS:-$(dirname "$(readlink -f "$runner")")/../lib/libmlir_c_runner_utils.so}
echo "command:  mlir-opt repro.mlir --arith-int-range-narrowing=int-bitwidths-supported=32 --convert-to-llvm | mlir-runner -e main"
actual=$("$MLIR_OPT" "$here/repro.mlir" --arith-int-range-narrowing=int-bitwidths-supported=32 --convert-to-llvm |
  "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$MLIR_C_RUNNER_UTILS") ||
  { echo "BUG: mlir-opt or mlir-runner failed"; exit 1; }
echo "expected: 0"
echo "actual:   $actual"
if [ "$actual" != 0 ]; then
  echo "BUG: remui(index_cast(-7), 9) after --arith-int-range-narrowing is $actual, not 0"
  exit 1
fi
echo "OK: remui(index_cast(-7), 9) is 0"
