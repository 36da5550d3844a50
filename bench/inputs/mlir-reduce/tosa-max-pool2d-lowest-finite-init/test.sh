#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.max_pool2d, lowers with the bundle's
# pipeline, runs, and prints 64511 as output line 9 (the bundle's
# first wrong element: output 0 element 8).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.max_pool2d' 9 '64511' 2 \
  'builtin.module(func.func(tosa-to-linalg-named,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-to-llvm)' "$1"
