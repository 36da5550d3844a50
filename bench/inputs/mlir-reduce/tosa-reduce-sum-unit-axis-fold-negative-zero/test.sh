#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.reduce_sum, lowers with the bundle's
# pipeline, runs, and prints 64512 as output line 8 (the bundle's
# first wrong element: output 0 element 7).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.reduce_sum' 8 '64512' 2 \
  'builtin.module(func.func(tosa-to-linalg),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,convert-to-llvm)' "$1"
