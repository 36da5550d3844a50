#!/bin/sh
# Exits 1 while MLIR's buffer-results-to-out-params{hoist-static-allocs}
# crashes on a function that returns one buffer twice, 0 once it is fixed.
# MLIR_OPT overrides the mlir-opt used (default mlir-opt-22).
# The pass reads an erased op (a use after free, as valgrind shows):
# MALLOC_PERTURB_ fills freed memory so that the read crashes on every heap
# layout, not only where the freed block happens to hold a bad pointer.
here=$(dirname "$0")
export MALLOC_PERTURB_=${MALLOC_PERTURB_:-165}
opt=${MLIR_OPT:-mlir-opt-22}
"$opt" "$here/repro.mlir" \
  --pass-pipeline='builtin.module(buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' \
  > /dev/null 2> "${TMPDIR:-/tmp}/repro-brop.$$.err"
status=$?
if [ "$status" -gt 128 ]; then
  grep -m1 -o 'mlir::[A-Za-z_:]*hasRank()' "${TMPDIR:-/tmp}/repro-brop.$$.err"
  echo "BUG: mlir-opt crashed (signal $((status - 128)))"
  rm -f "${TMPDIR:-/tmp}/repro-brop.$$.err"
  exit 1
fi
rm -f "${TMPDIR:-/tmp}/repro-brop.$$.err"
[ "$status" -eq 0 ] && echo "fixed: the pass runs" && exit 0
echo "mlir-opt failed without crashing (exit $status)"
exit 2
