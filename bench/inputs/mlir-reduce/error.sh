#!/bin/sh
# error.sh KEY MESSAGE PIPELINE FILE: exits 0 when FILE holds KEY and
# mlir-opt with PIPELINE reports MESSAGE on it.
key=$1 message=$2 pipeline=$3 f=$4
grep -q "$key" "$f" || exit 1
timeout 20 mlir-opt-22 "$f" -o /dev/null --pass-pipeline="$pipeline" 2>&1 |
  grep -qF "$message"
