#!/bin/sh
# int-range-optimizations crashes (Bus error / segfault) in
# IntegerRangeAnalysis::visitNonControlFlowArguments on an affine.for whose
# bounds are not constants: AffineForOp returns no loop bounds there and
# the analysis dereferences them. Known upstream:
# llvm/llvm-project#180312, fixed by PR #183660 after MLIR 22.1.
# Exit status: 1 while the bug is present, 0 once it is fixed, 2 when
# mlir-opt is missing. Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
"$MLIR_OPT" "$here/repro.mlir" --int-range-optimizations >/dev/null 2>&1
status=$?
if [ $status -gt 128 ]; then
  echo "BUG: mlir-opt --int-range-optimizations crashed (signal $((status - 128)))"
  exit 1
fi
echo "OK: mlir-opt --int-range-optimizations exited with $status"
[ $status = 0 ]
