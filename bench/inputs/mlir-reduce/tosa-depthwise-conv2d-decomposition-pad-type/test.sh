#!/bin/sh
# Interesting (exit 0): FILE still holds tosa.depthwise_conv2d, and the bundle's pipeline
# fails on it with the bundle's error: op expect input and output to have same element type, got
exec "$(dirname "$0")/../error.sh" 'tosa.depthwise_conv2d' 'op expect input and output to have same element type, got' 'builtin.module(func.func(tosa-optional-decompositions))' "$1"
