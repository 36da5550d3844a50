#!/bin/sh
# The transfer_write(transfer_read) identity fold ignores the read's mask:
# canonicalize folds a write of a masked read of %t back into %t, although
# the masked-off lanes hold the padding. Known upstream: fixed by
# llvm/llvm-project PR #192966 (after 22.1.8).
# Exit status: 1 while canonicalize folds the write away, 0 once it keeps
# it, 2 when mlir-opt is missing.
# Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
echo "command:  mlir-opt repro.mlir --canonicalize"
out=$("$MLIR_OPT" "$here/repro.mlir" --canonicalize) || { echo "BUG: mlir-opt failed"; exit 1; }
if ! echo "$out" | grep -q "vector.transfer_write"; then
  echo "$out" | grep "return"
  echo "BUG: the write of a masked read was folded into its tensor"
  exit 1
fi
echo "OK: the write of a masked read is kept"
