#!/bin/sh
# arith-int-range-narrowing narrows arith.shrsi of a sign-extended i8 to an
# i8 shift although the shift amount, andi(s, 63), can reach 63: an i8 shift
# by 8 or more is poison ("If the value of the second operand is greater or
# equal than the bitwidth of the first operand, then the operation returns
# poison"), where the index shift is defined. Judged on the IR: the pass
# must not emit an i8 shrsi here.
# Known upstream: llvm/llvm-project#218191, fixed by PR #218495 after
# MLIR 22.1.
# Exit status: 1 while the bug is present (or mlir-opt fails), 0 once it
# is fixed, 2 when mlir-opt is missing. Environment: MLIR_OPT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pick() { for t in "$@"; do command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return; }; done; echo "$1"; }
MLIR_OPT=${MLIR_OPT:-$(pick mlir-opt-22 mlir-opt)}
command -v "$MLIR_OPT" >/dev/null 2>&1 || { echo "needs mlir-opt (set MLIR_OPT)"; exit 2; }
out=$("$MLIR_OPT" "$here/repro.mlir" --arith-int-range-narrowing=int-bitwidths-supported=8,16,32) ||
  { echo "BUG: mlir-opt failed"; exit 1; }
shift=$(printf '%s\n' "$out" | grep -o 'arith.shrsi [^:]*: i[0-9]*' | head -1)
echo "shift after the pass: $shift"
case "$shift" in
*": i8")
  echo "BUG: the index shift by andi(s, 63) became an i8 shift (poison for amounts 8..63)"
  exit 1 ;;
esac
echo "OK: the shift keeps a width its amount cannot exceed"
