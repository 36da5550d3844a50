#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.pow, lowers with the bundle's
# pipeline, runs, and prints 15360 as output line 13 (the bundle's
# first wrong element: output 0 element 12).
exec "$(dirname "$0")/../wrong-value.sh" 'tosa.pow' 13 '15360' 2 \
  'builtin.module(func.func(tosa-to-linalg,tosa-to-arith{include-apply-rescale}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{modify-public-functions},func.func(convert-linalg-to-loops),convert-scf-to-cf,convert-to-llvm)' "$1"
