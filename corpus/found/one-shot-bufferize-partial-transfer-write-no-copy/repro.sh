#!/bin/sh
# one-shot-bufferize: an out-of-place vector.transfer_write that does not
# overwrite its whole destination (a mask operand, or a vector of lower
# rank than the tensor) gets a new buffer without a copy of the destination,
# so the elements it does not write are uninitialized. repro-mask.mlir and
# repro-rank.mlir return the written tensor and the destination (so the
# write cannot be in place); control-1d.mlir is the same shape of write that
# does get its copy. Judged on the IR (deterministic); the values read back
# are shown too (leftover heap contents).
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
P='builtin.module(one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,convert-vector-to-scf,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)'
copies() {
  "$MLIR_OPT" "$here/$1" --one-shot-bufferize=bufferize-function-boundaries |
    sed -n '/func.func @f/,/^  }/p' | grep -c 'memref.copy'
}
status=0
for t in mask:"( 1, 2, 3, 4 )" rank:"( 9, 9, 3 )"; do
  name=${t%%:*}; want=${t#*:}
  got=$("$MLIR_OPT" "$here/repro-$name.mlir" --pass-pipeline="$P" |
        "$MLIR_RUNNER" -e main -entry-point-result=void -shared-libs="$MLIR_C_RUNNER_UTILS")
  n=$(copies "repro-$name.mlir")
  echo "repro-$name.mlir: memref.copy before the write: $n; expected $want, read back $got"
  [ "$n" -ge 1 ] || status=1
done
echo "control-1d.mlir (vector<2> into tensor<3>, unmasked): memref.copy: $(copies control-1d.mlir)"
if [ $status = 1 ]; then
  echo "BUG: the out-of-place partial write is not preceded by a copy of its destination"
  exit 1
fi
echo "OK: every out-of-place partial write copies its destination first"
