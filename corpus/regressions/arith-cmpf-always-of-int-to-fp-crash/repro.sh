#!/bin/sh
# canonicalize crashes on arith.cmpf with the always-false (or always-true)
# predicate of a uitofp/sitofp and a constant.
# Exit status: 1 while mlir-opt crashes or fails, 0 once it succeeds, 2
# when mlir-opt is missing.
# Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
echo "command:  mlir-opt repro.mlir --canonicalize"
"$MLIR_OPT" "$here/repro.mlir" --canonicalize >/dev/null 2>&1
status=$?
if [ "$status" -gt 128 ]; then
  echo "BUG: mlir-opt crashed (signal $((status - 128)))"
  exit 1
elif [ "$status" -ne 0 ]; then
  echo "BUG: mlir-opt failed (exit status $status)"
  exit 1
fi
echo "OK: canonicalize folds the comparison"
