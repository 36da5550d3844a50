#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.pow, lowers with the bundle's
# pipeline, runs, and prints 15360 as output line 13 (the bundle's
# first wrong element: output 0 element 12).
f=$1
grep -q 'tosa.pow' "$f" || exit 1
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
timeout 20 mlir-opt-22 "$f" -o "$w/l.mlir" 2>/dev/null \
  --pass-pipeline='builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,convert-to-llvm)' || exit 1
timeout 20 mlir-runner-22 "$w/l.mlir" -e repro_main -entry-point-result=void \
  -O2 -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so >"$w/out" 2>/dev/null || exit 1
[ "$(sed -n 13p "$w/out")" = "15360" ]
