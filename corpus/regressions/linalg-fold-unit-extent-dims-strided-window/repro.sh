#!/bin/sh
# linalg-fold-unit-extent-dims: dropping the unit loop d0 of a strided
# window (in[2*d0 + d1]) leaves the map (d1) on the size-4 input, while the
# size-3 kernel also has (d1): the generic it writes fails the verifier.
# Exit status: 1 while the bug is present, 0 once the pass succeeds, 2 when
# mlir-opt is missing.
# Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
echo "command:  mlir-opt repro.mlir --linalg-fold-unit-extent-dims"
"$MLIR_OPT" "$here/repro.mlir" >/dev/null 2>&1 ||
  { echo "the input itself does not verify"; exit 2; }
if ! err=$("$MLIR_OPT" "$here/repro.mlir" --linalg-fold-unit-extent-dims 2>&1 >/dev/null); then
  echo "$err" | head -1
  echo "BUG: mlir-opt failed on valid input (the pass wrote invalid IR)"
  exit 1
fi
echo "OK: the pass succeeded"
