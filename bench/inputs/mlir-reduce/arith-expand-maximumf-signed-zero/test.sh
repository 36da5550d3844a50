#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.maximum, lowers with the bundle's
# pipeline, runs, and prints 4286578688 as output line 1 (the bundle's
# first wrong element: output 0 element 0).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.maximum' 1 '4286578688' 2 \
  'builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,arith-expand{include-bf16},convert-to-llvm)' "$1"
