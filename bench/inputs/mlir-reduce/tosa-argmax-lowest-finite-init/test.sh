#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.argmax, lowers with the bundle's
# pipeline, runs, and prints 0 as output line 1 (the bundle's
# first wrong element: output 0 element 0).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.argmax' 1 '0' 2 \
  'builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,convert-to-llvm)' "$1"
