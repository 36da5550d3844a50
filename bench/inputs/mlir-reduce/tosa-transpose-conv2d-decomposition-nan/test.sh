#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.transpose_conv2d, lowers with the bundle's
# pipeline, runs, and prints 2143289344 as output line 17 (the bundle's
# first wrong element: output 0 element 16).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.transpose_conv2d' 17 '2143289344' 2 \
  'builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-to-llvm)' "$1"
