#!/bin/sh
# affine-super-vectorize treats a load at (i + 2) mod 3 as contiguous in i:
# it emits one vector.transfer_read starting at (0 + 2) mod 3, which reads
# a[2], then padding, where the loop reads a[2], a[0], a[1]. Judged on the
# IR: the vectorizer must leave the loop scalar (or gather).
# The same class as llvm/llvm-project PR #196973 (open: "Refuse
# affine-super-vectorize on non-unit access strides", for %i * 4).
# Exit status: 1 while the bug is present (or mlir-opt fails), 0 once it is
# fixed, 2 when mlir-opt is missing. Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
out=$("$MLIR_OPT" "$here/repro.mlir" --affine-super-vectorize=virtual-vector-size=4) ||
  { echo "BUG: mlir-opt failed"; exit 1; }
if printf '%s\n' "$out" | grep -q 'vector.transfer_read'; then
  echo "BUG: the load at (i + 2) mod 3 became one contiguous vector.transfer_read"
  exit 1
fi
echo "OK: the non-contiguous load is not vectorized as a contiguous read"
