#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.negate, lowers with the bundle's
# pipeline, runs, and prints -32768 as output line 4 (the bundle's
# first wrong element: output 0 element 3).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.negate' 4 '-32768' 0 \
  'builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},buffer-deallocation-pipeline,func.func(convert-linalg-to-loops),math-expand-ops{ops=rsqrt},convert-math-to-funcs{convert-ctlz},math-extend-to-supported-types,convert-math-to-libm,math-extend-to-supported-types,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' "$1"
