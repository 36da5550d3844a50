#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.depthwise_conv2d, and the bundle's pipeline
# fails on it with the bundle's error: op expect input and output to have same element type, got
f=$1
grep -q 'tosa.depthwise_conv2d' "$f" || exit 1
timeout 20 mlir-opt-22 "$f" -o /dev/null --pass-pipeline='builtin.module(func.func(tosa-optional-decompositions))' 2>&1 |
  grep -qF 'op expect input and output to have same element type, got'
