#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.conv2d, and the bundle's pipeline
# fails on it with the bundle's error: op should not have broadcast dimensions
f=$1
grep -q 'tosa.conv2d' "$f" || exit 1
timeout 20 mlir-opt-22 "$f" -o /dev/null --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(convert-linalg-to-affine-loops,affine-super-vectorize{virtual-vector-size=8 test-fastest-varying=0}))' 2>&1 |
  grep -qF 'op should not have broadcast dimensions'
