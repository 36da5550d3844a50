#!/bin/sh
# scf-for-loop-peeling runs a zero-trip scf.for once. Runs repro.mlir
# through `mlir-opt --scf-for-loop-peeling` and mlir-runner; @main prints
# what two loops with lb >= ub (one with constant bounds, one with a
# runtime bound of 0) leave in memory, 42 42 (their bodies store 7).
# Known upstream: llvm/llvm-project#223232, fixed by PR #223257 (after
# 22.1.8).
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
echo "command:  mlir-opt repro.mlir --pass-pipeline='builtin.module(func.func(scf-for-loop-peeling),lower-affine,convert-scf-to-cf,convert-to-llvm)' | mlir-runner -e main"
actual=$("$MLIR_OPT" "$here/repro.mlir" \
    --pass-pipeline='builtin.module(func.func(scf-for-loop-peeling),lower-affine,convert-scf-to-cf,convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' |
  "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$MLIR_C_RUNNER_UTILS" | tr '\n' ' ') ||
  { echo "BUG: mlir-opt or mlir-runner failed"; exit 1; }
echo "expected: 42 42"
echo "actual:   $actual"
if [ "$actual" != "42 42 " ]; then
  echo "BUG: a zero-trip loop ran after --scf-for-loop-peeling"
  exit 1
fi
echo "OK: the zero-trip loops do not run"
