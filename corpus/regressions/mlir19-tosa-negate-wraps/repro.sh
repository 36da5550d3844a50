#!/bin/sh
# [mlir][tosa] MLIR 19: `tosa-to-linalg` lowers i16 `tosa.negate` as a wrapping `0 - x`: negate(-32768) = -32768
# Reproduces with upstream tools only: the compiler under test (the
# command below) compiles tosa.mlir; @repro_main (driver.mlir), which prints
# every output element (floats as their bit patterns), is added to its
# output, which mlir-opt lowers the rest of the way and mlir-runner runs;
# the outputs are compared with expected.txt (compare.awk).
# Exit status: 1 while the bug is present, 0 once it is fixed.
# Environment: REPRO_COMPILER (the command, run by sh, TOSA on stdin),
# MLIR_OPT, MLIR_RUNNER (default mlir-opt-22/mlir-runner-22 or
# mlir-opt/mlir-runner on PATH), MLIR_C_RUNNER_UTILS (the runtime library,
# default next to mlir-runner), REPRO_PIPELINE (the completing lowering),
# REPRO_OPT_LEVEL, REPRO_TIMEOUT (seconds).
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
REPRO_COMPILER=${REPRO_COMPILER:-'mlir-opt-19 --pass-pipeline='\''builtin.module(func.func(tosa-optional-decompositions,canonicalize,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor,linalg-fuse-elementwise-ops,canonicalize,cse))'\'''}
echo "compiler:    $REPRO_COMPILER"
$limit sh -c "$REPRO_COMPILER" <"$here/tosa.mlir" >"$work/compiled.mlir" 2>"$work/compiler.err" ||
  failed "the compiler under test" $? "$work/compiler.err"
# The driver goes before the closing brace of the compiled module.
awk 'FNR == NR { driver = driver $0 "\n"; next }
  { line[++n] = $0 }
  END { for (last = n; last > 0 && line[last] !~ /^}/; last--) ;
        for (i = 1; i <= n; i++) { if (i == last) printf "%s", driver; print line[i] } }' \
  "$here/driver.mlir" "$work/compiled.mlir" >"$work/program.mlir"
REPRO_MLIR=$work/program.mlir
REPRO_PIPELINE=${REPRO_PIPELINE:-'builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},buffer-deallocation-pipeline,func.func(convert-linalg-to-loops),math-expand-ops{ops=rsqrt},convert-math-to-funcs{convert-ctlz},math-extend-to-supported-types,convert-math-to-libm,math-extend-to-supported-types,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)'}
REPRO_OPT_LEVEL=${REPRO_OPT_LEVEL:-0}
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
