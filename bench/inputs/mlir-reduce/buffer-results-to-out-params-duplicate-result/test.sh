#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.abs, and the bundle's pipeline
# crashes on it (SIGSEGV).
f=$1
grep -q 'tosa.abs' "$f" || exit 1
timeout 20 mlir-opt-22 "$f" -o /dev/null --pass-pipeline='builtin.module(func.func(tosa-to-linalg),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions})'   >/dev/null 2>&1
[ $? -eq 139 ]
