#!/bin/sh
# MLIR 19's arith-int-narrowing widens `arith.trunci %x : i16 to i1` to a
# truncation to i8 under a uitofp, so uitofp(trunci(x)) is no longer 0 or 1
# (x = 11249 gives 241.0 instead of 1.0). Fixed in MLIR 22
# (arith-int-range-narrowing keeps the i1).
# Exit status: 1 while mlir-opt-19 widens the truncation, 0 once it does
# not, 2 when mlir-opt-19 is missing.
# Environment: MLIR_OPT_19.
set -u
here=$(cd "$(dirname "$0")" && pwd)
MLIR_OPT_19=${MLIR_OPT_19:-mlir-opt-19}
command -v "$MLIR_OPT_19" >/dev/null 2>&1 || { echo "needs mlir-opt-19 (set MLIR_OPT_19)"; exit 2; }
echo "command:  mlir-opt-19 repro.mlir --int-range-optimizations --arith-int-narrowing=int-bitwidths-supported=8,16,32"
out=$("$MLIR_OPT_19" "$here/repro.mlir" --int-range-optimizations \
  --arith-int-narrowing=int-bitwidths-supported=8,16,32) || { echo "BUG: mlir-opt-19 failed"; exit 1; }
if echo "$out" | grep -q "trunci .* to i1"; then
  echo "OK: the truncation to i1 is kept"
  exit 0
fi
echo "$out" | grep "trunci"
echo "BUG: the truncation to i1 was widened"
exit 1
