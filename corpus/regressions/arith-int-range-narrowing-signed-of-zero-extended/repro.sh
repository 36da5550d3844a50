#!/bin/sh
# arith-int-range-narrowing: arith.minsi of a zero-extended index_castui is
# narrowed to an i32 minsi. Runs repro.mlir through `mlir-opt
# --arith-int-range-narrowing=int-bitwidths-supported=8,16,32
# --convert-to-llvm` and mlir-runner; @main prints
# minsi(index_castui(-9 : i32), 2), which is 2 (the operand is 2^32 - 9);
# the narrowed i32 minsi gives -9, zero-extended: 4294967287.
# Known upstream: fixed by llvm/llvm-project PR #189676 after MLIR 22.1.
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
actual=$("$MLIR_OPT" "$here/repro.mlir" --arith-int-range-narrowing=int-bitwidths-supported=8,16,32 --convert-to-llvm |
  "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$MLIR_C_RUNNER_UTILS") ||
  { echo "BUG: mlir-opt or mlir-runner failed"; exit 1; }
echo "expected: 2"
echo "actual:   $actual"
if [ "$actual" != 2 ]; then
  echo "BUG: minsi(index_castui(-9), 2) after --arith-int-range-narrowing is $actual, not 2"
  exit 1
fi
echo "OK: minsi(index_castui(-9), 2) is 2"
