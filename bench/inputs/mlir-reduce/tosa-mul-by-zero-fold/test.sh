#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.mul, lowers with the bundle's
# pipeline, runs, and prints 0 as output line 1 (the bundle's
# first wrong element: output 0 element 0).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.mul' 1 '0' 3 \
  'builtin.module(func.func(canonicalize,tosa-layerwise-constant-fold,canonicalize,tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor,linalg-generalize-named-ops,linalg-fuse-elementwise-ops,canonicalize,cse),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions},buffer-deallocation-pipeline,func.func(convert-linalg-to-affine-loops,affine-super-vectorize{virtual-vector-size=8 test-fastest-varying=0},affine-scalrep,canonicalize,cse,lower-affine,loop-invariant-code-motion),convert-vector-to-scf,math-extend-to-supported-types,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' "$1"
