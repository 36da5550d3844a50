#!/bin/sh
# canonicalize folds index_cast(index_cast(%x : index to i1) : i1 to index)
# to %x, dropping the truncation (known upstream: llvm/llvm-project#90296).
# Exit status: 1 while canonicalize folds the pair away, 0 once it keeps
# it, 2 when mlir-opt is missing.
# Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
echo "command:  mlir-opt repro.mlir --canonicalize"
out=$("$MLIR_OPT" "$here/repro.mlir" --canonicalize) || { echo "BUG: mlir-opt failed"; exit 1; }
if ! echo "$out" | grep -q "arith.index_cast"; then
  echo "$out" | grep "return"
  echo "BUG: the truncating index_cast pair was folded to its operand"
  exit 1
fi
echo "OK: the truncation is kept"
