#!/bin/sh
# crash.sh KEY PIPELINE FILE: exits 0 when FILE holds KEY and mlir-opt with
# PIPELINE crashes on it (SIGSEGV).
key=$1 pipeline=$2 f=$3
grep -q "$key" "$f" || exit 1
timeout 20 mlir-opt-22 "$f" -o /dev/null --pass-pipeline="$pipeline" \
  >/dev/null 2>&1
[ $? -eq 139 ]
