#!/bin/sh
# [mlir][tosa] `tosa.mul` folder folds x * 0.0 to 0.0, wrong for Inf and NaN
# Lowers repro.mlir with upstream mlir-opt, runs @repro_main (which prints
# every output element) with mlir-runner, and compares the outputs with
# expected.txt (compare.awk).
# Exit status: 1 while the bug is present, 0 once it is fixed.
# Environment: MLIR_OPT, MLIR_RUNNER, MLIR_C_RUNNER_UTILS, REPRO_MLIR,
# REPRO_PIPELINE, REPRO_OPT_LEVEL, REPRO_TIMEOUT (seconds).
set -u
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
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(pick mlir-runner-22 mlir-runner)}
case $MLIR_OPT in */*) MLIR_OPT=$(cd "$(dirname "$MLIR_OPT")" && pwd)/$(basename "$MLIR_OPT") ;; esac
if [ -z "${MLIR_C_RUNNER_UTILS:-}" ]; then
  runner=$(command -v "$MLIR_RUNNER" || echo "$MLIR_RUNNER")
  MLIR_C_RUNNER_UTILS=$(dirname "$(readlink -f "$runner")")/../lib/libmlir_c_runner_utils.so
fi
REPRO_MLIR=${REPRO_MLIR:-$here/repro.mlir}
echo "input:       ${REPRO_MLIR#"$here"/}"
REPRO_PIPELINE=${REPRO_PIPELINE:-'builtin.module(func.func(canonicalize,tosa-layerwise-constant-fold,canonicalize,tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor,linalg-generalize-named-ops,linalg-fuse-elementwise-ops,canonicalize,cse),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},buffer-deallocation-pipeline,func.func(convert-linalg-to-affine-loops,affine-super-vectorize{virtual-vector-size=8 test-fastest-varying=0},affine-scalrep,canonicalize,cse,lower-affine,loop-invariant-code-motion),convert-vector-to-scf,math-extend-to-supported-types,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)'}
REPRO_OPT_LEVEL=${REPRO_OPT_LEVEL:-3}
echo "mlir-opt:    $(basename "$MLIR_OPT") ($("$MLIR_OPT" --version 2>/dev/null | grep -i version | head -n 1 | sed 's/^ *//'))"
echo "pipeline:    $REPRO_PIPELINE"
# From the input's folder, so that diagnostics name the file alone.
(cd "$(dirname "$REPRO_MLIR")" && exec $limit "$MLIR_OPT" "$(basename "$REPRO_MLIR")" \
  --pass-pipeline="$REPRO_PIPELINE" -o "$work/lowered.mlir") 2>"$work/opt.err" ||
  failed mlir-opt $? "$work/opt.err"
$limit "$MLIR_RUNNER" "$work/lowered.mlir" -e repro_main -entry-point-result=void \
  -O"$REPRO_OPT_LEVEL" -shared-libs="$MLIR_C_RUNNER_UTILS" >"$work/actual.txt" 2>"$work/run.err" ||
  failed "the compiled program (mlir-runner)" $? "$work/run.err"
awk -f "$here/compare.awk" "$here/expected.txt" "$work/actual.txt"
