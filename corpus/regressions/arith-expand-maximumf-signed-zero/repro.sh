#!/bin/sh
# miscompile: miscompile|mlir:pipeline=builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,arith-expand{include-bf16},convert-to-llvm)||reciprocal:f32:nan-inf
# Reproduces with upstream MLIR only (mlir-opt, mlir-runner): lowers
# repro.mlir with the pipeline below, runs @repro_main, which prints every
# output element (floats as their bit patterns), and compares with the
# expected values within the tolerance crosscheck's oracle held them to.
# Exit status: 1 while the bug is present, 0 once it is fixed.
# Environment: MLIR_OPT, MLIR_RUNNER (default mlir-opt-22/mlir-runner-22 or
# mlir-opt/mlir-runner on PATH), MLIR_C_RUNNER_UTILS (the runtime library,
# default next to mlir-runner), REPRO_MLIR (default repro.mlir beside this
# script), REPRO_PIPELINE, REPRO_OPT_LEVEL, REPRO_TIMEOUT (seconds).
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
REPRO_TIMEOUT=${REPRO_TIMEOUT:-120}
limit=""
command -v timeout >/dev/null 2>&1 && limit="timeout $REPRO_TIMEOUT"
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
# A failing, crashing or hanging tool is the bug showing.
failed() { # $1: what ran, $2: its exit status, $3: its stderr
  cat "$3" >&2
  if [ "$2" -eq 124 ]; then echo "BUG: $1 hung (killed after $REPRO_TIMEOUT s)"
  elif [ "$2" -gt 128 ]; then echo "BUG: $1 crashed (signal $(($2 - 128)))"
  else echo "BUG: $1 failed (exit status $2)"; fi
  exit 1
}
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
MLIR_RUNNER=${MLIR_RUNNER:-$(pick mlir-runner-22 mlir-runner)}
if [ -z "${MLIR_C_RUNNER_UTILS:-}" ]; then
  runner=$(command -v "$MLIR_RUNNER" || echo "$MLIR_RUNNER")
  MLIR_C_RUNNER_UTILS=$(dirname "$(readlink -f "$runner")")/../lib/libmlir_c_runner_utils.so
fi
REPRO_MLIR=${REPRO_MLIR:-$here/repro.mlir}
echo "input:       ${REPRO_MLIR#"$here"/}"
REPRO_PIPELINE=${REPRO_PIPELINE:-'builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,arith-expand{include-bf16},convert-to-llvm)'}
REPRO_OPT_LEVEL=${REPRO_OPT_LEVEL:-2}
echo "mlir-opt:    $MLIR_OPT ($("$MLIR_OPT" --version 2>/dev/null | grep -i version | head -n 1 | sed 's/^ *//'))"
echo "mlir-runner: $MLIR_RUNNER"
echo "pipeline:    $REPRO_PIPELINE"
$limit "$MLIR_OPT" "$REPRO_MLIR" --pass-pipeline="$REPRO_PIPELINE" -o "$work/lowered.mlir" 2>"$work/opt.err" ||
  failed mlir-opt $? "$work/opt.err"
$limit "$MLIR_RUNNER" "$work/lowered.mlir" -e repro_main -entry-point-result=void \
  -O"$REPRO_OPT_LEVEL" -shared-libs="$MLIR_C_RUNNER_UTILS" >"$work/actual.txt" 2>"$work/run.err" ||
  failed "the compiled program (mlir-runner)" $? "$work/run.err"
cat > "$work/expected.txt" <<'EXPECTED'
0 0 f32 inf nan inf
EXPECTED
# awk decodes the printed bit patterns exactly (all fit in a double).
awk '
function decode(hi, lo, ebits, mbits,   sign, e, m, bias, top) {
  top = 2 ^ (ebits + mbits)
  if (ebits == 11) { sign = hi >= 2 ^ 31; hi = hi % 2 ^ 31; e = int(hi / 2 ^ 20); m = (hi % 2 ^ 20) * 2 ^ 32 + lo }
  else { sign = hi >= top; hi = hi % top; e = int(hi / 2 ^ mbits); m = hi % 2 ^ mbits }
  bias = 2 ^ (ebits - 1) - 1
  if (e == 2 ^ ebits - 1) return m != 0 ? "nan" : (sign ? "-inf" : "inf")
  if (e == 0) return (sign ? -1 : 1) * m * 2 ^ (1 - bias - mbits)
  return (sign ? -1 : 1) * (1 + m / 2 ^ mbits) * 2 ^ (e - bias)
}
function cls(v) { return (v == "nan" || v == "inf" || v == "-inf") ? v : "finite" }
function absf(x) { return x < 0 ? -x : x }
NR == FNR { n++; out[n] = $1; idx[n] = $2; kind[n] = $3; want[n] = $4; tol[n] = $5; alt[n] = $6; next }
{ got[++m] = $1 }
END {
  line = 0; bad = 0; shown = 0
  printf "%-8s %-8s %-24s %-24s %s\n", "output", "element", "expected", "actual", "allowed error"
  for (i = 1; i <= n; i++) {
    k = kind[i]
    if (k == "f64") { hi = got[++line]; lo = got[++line] } else { hi = got[++line]; lo = 0 }
    if (hi == "") { print "BUG: the program printed fewer values than the outputs have"; exit 1 }
    if (k == "f32") a = decode(hi, 0, 8, 23)
    else if (k == "f16") a = decode(hi, 0, 5, 10)
    else if (k == "bf16") a = decode(hi, 0, 8, 7)
    else if (k == "f64") a = decode(hi, lo, 11, 52)
    else a = hi
    if (k ~ /^(f16|bf16|f32|f64)$/) {
      ac = cls(a); ec = cls(want[i])
      if (ac != "finite" || ec != "finite") wrong = (ac != ec && ac != alt[i])
      else if (alt[i] != "finite") wrong = 0
      else wrong = absf(a - want[i]) > tol[i] + 0
      as = ac == "finite" ? sprintf("%.9g", a) : a
    } else {
      wrong = (a "" != want[i] "") && (a "" != alt[i] "")
      as = a
    }
    if (wrong) bad++
    if (wrong && shown < 10 || !bad && i <= 4 && !wrong) {
      printf "%-8s %-8s %-24s %-24s %s%s\n", out[i], idx[i], want[i], as, tol[i], wrong ? "   <-- MISMATCH" : ""
      if (wrong) shown++
    }
  }
  if (bad) { printf "BUG: %d of %d output elements differ from the expected values\n", bad, n; exit 1 }
  printf "OK: all %d output elements match the expected values\n", n
  exit 0
}' "$work/expected.txt" "$work/actual.txt"
