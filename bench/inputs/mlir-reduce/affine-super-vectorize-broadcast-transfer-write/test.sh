#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.conv2d, and the bundle's pipeline
# fails on it with the bundle's error: op should not have broadcast dimensions
exec "$(dirname "$0")/../error.sh" 'tosa.conv2d' 'op should not have broadcast dimensions' 'builtin.module(func.func(tosa-to-linalg-named),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(convert-linalg-to-affine-loops,affine-super-vectorize{virtual-vector-size=8 test-fastest-varying=0}))' "$1"
