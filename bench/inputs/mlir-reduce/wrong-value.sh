#!/bin/sh
# wrong-value.sh KEY LINE WRONG OPT PIPELINE FILE: exits 0 when FILE holds
# KEY, lowers with PIPELINE (mlir-opt), runs (mlir-runner -OOPT, entry
# repro_main) and prints WRONG as output line LINE.
key=$1 line=$2 wrong=$3 opt=$4 pipeline=$5 f=$6
grep -q "$key" "$f" || exit 1
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
timeout 20 mlir-opt-22 "$f" -o "$w/l.mlir" --pass-pipeline="$pipeline" \
  2>/dev/null || exit 1
# As the bundles' repro.sh: mlir-runner cannot parse the arith fastmath
# attribute that convert-arith-to-llvm leaves on llvm.fpext/llvm.fptrunc.
sed -i 's/ {fastmath = #arith\.fastmath<[a-z, ]*>}//g' "$w/l.mlir"
timeout 20 mlir-runner-22 "$w/l.mlir" -e repro_main -entry-point-result=void \
  -O"$opt" -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so \
  >"$w/out" 2>/dev/null || exit 1
[ "$(sed -n "${line}p" "$w/out")" = "$wrong" ]
