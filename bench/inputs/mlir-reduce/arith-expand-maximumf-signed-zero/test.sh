#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.maximum, lowers with the bundle's
# pipeline, runs, and prints 4286578688 as output line 1 (the bundle's
# first wrong element: output 0 element 0).
f=$1
grep -q 'tosa.maximum' "$f" || exit 1
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
timeout 20 mlir-opt-22 "$f" -o "$w/l.mlir" 2>/dev/null \
  --pass-pipeline='builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,arith-expand{include-bf16},convert-to-llvm)' || exit 1
timeout 20 mlir-runner-22 "$w/l.mlir" -e repro_main -entry-point-result=void \
  -O2 -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so >"$w/out" 2>/dev/null || exit 1
[ "$(sed -n 1p "$w/out")" = "4286578688" ]
