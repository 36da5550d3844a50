#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.abs, and the bundle's pipeline
# crashes on it (SIGSEGV).
exec "$(dirname "$0")/../crash.sh" 'tosa.abs' 'builtin.module(func.func(tosa-to-linalg),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' "$1"
