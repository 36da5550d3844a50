#!/bin/sh
# MLIR 19 int-range-optimizations folds select(x == 0, 1, x) to the
# constant 1 inside a linalg.generic, where x is a result of an scf.if that
# also yields the generic's input (x = 5 gives 1). Fixed in MLIR 22, most
# likely by llvm/llvm-project PR #173716 ("Fix SelectOp unsafe int range
# inference with uninitialized range case"). Judged on the IR: the select
# must survive the pass.
# Exit status: 1 while mlir-opt-19 has the bug, 0 once not, 2 when
# mlir-opt-19 is missing. Environment: MLIR_OPT_19.
set -u
here=$(cd "$(dirname "$0")" && pwd)
MLIR_OPT_19=${MLIR_OPT_19:-mlir-opt-19}
command -v "$MLIR_OPT_19" >/dev/null 2>&1 || { echo "needs mlir-opt-19 (set MLIR_OPT_19)"; exit 2; }
body=$("$MLIR_OPT_19" --int-range-optimizations "$here/repro.mlir" | sed -n '/bb0/,/linalg.yield/p') ||
  { echo "BUG: mlir-opt-19 failed"; exit 1; }
printf '%s\n' "$body"
case "$body" in
*arith.select*) echo "OK: the select survives"; exit 0 ;;
esac
echo "BUG: select(x == 0, 1, x) was folded to a constant"
exit 1
