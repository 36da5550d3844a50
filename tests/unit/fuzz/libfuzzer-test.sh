#!/usr/bin/env bash
# End to end test of the libFuzzer integration (ctest label "libfuzzer"):
#  1. .clusterfuzzlite/build.sh with the OSS-Fuzz environment variables
#     builds cc_fuzz_pipeline with clang-22 into $OUT;
#  2. the target runs 1,000 executions against a correct pipeline without a
#     finding;
#  3. `crosscheck fuzz --engine libfuzzer` finds a mutant pass and files it
#     in the campaign store (exit status 1, a NEW miscompile).
# With --sanitize, step 1 builds our code with ASan and UBSan as OSS-Fuzz's
# SANITIZER=address,undefined builds do, and step 2 runs 300 executions with
# findings written but not aborting: it checks that no sanitizer report
# comes from our code (the generator, mutator, reference and oracles run
# instrumented; Debian's MLIR does not).
# usage: libfuzzer-test.sh CROSSCHECK WORKDIR [--sanitize]
set -euo pipefail
src="$(cd "$(dirname "$0")/../../.." && pwd)"
crosscheck="$1"
work="$2"
sanitize="${3:-}"
mkdir -p "$work/out"

cxxflags="-fsanitize=fuzzer-no-link"
[ "$sanitize" = --sanitize ] &&
  cxxflags="$cxxflags -fsanitize=address,undefined -fno-sanitize-recover=undefined"
export CC=clang-22 CXX=clang++-22 CFLAGS="" CXXFLAGS="$cxxflags" \
  LIB_FUZZING_ENGINE="-fsanitize=fuzzer" \
  OUT="$work/out" SRC="$work" WORK="$work"
(cd "$src" && bash .clusterfuzzlite/build.sh)
fuzzer="$OUT/cc_fuzz_pipeline"
test -x "$fuzzer"
test -f "$OUT/lib/libmlir_c_runner_utils.so"

# tosa-O0 without buffer-results-to-out-params' hoist-static-allocs: with
# it, MLIR 22 crashes on functions that return one value twice (which
# folding makes of graphs whose two outputs fold to the same value); the
# target finds that within seconds, so the named pipelines are not a
# correct pipeline to run 1,000 inputs on.
o0='builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{modify-public-functions},buffer-deallocation-pipeline,func.func(convert-linalg-to-loops),math-expand-ops{ops=rsqrt},convert-math-to-funcs{convert-ctlz},math-extend-to-supported-types,convert-math-to-libm,convert-math-to-llvm,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)'

if [ "$sanitize" = --sanitize ]; then
  echo "--- 300 executions under ASan and UBSan"
  rm -rf "$work/corpus" "$work/findings" && mkdir -p "$work/corpus"
  status=0
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  CC_FUZZ_CUTS="mlir:pipeline=$o0" CC_FUZZ_FINDINGS_DIR="$work/findings" \
    CC_FUZZ_ABORT=0 "$fuzzer" -runs=300 -seed=1 -max_len=65536 \
    -artifact_prefix="$work/" "$work/corpus" > "$work/runs.log" 2>&1 ||
    status=$?
  grep -E "^Done 300 runs" "$work/runs.log" ||
    { tail -n 60 "$work/runs.log"; echo "FAIL: the target stopped ($status)"; exit 1; }
  # Also what an isolated child reported (it becomes a finding's stderr).
  if grep -lE "(Address|Undefined)Sanitizer|runtime error:|Failed to mmap" \
      "$work/runs.log" "$work"/findings/*.json 2>/dev/null; then
    echo "FAIL: a sanitizer report"
    exit 1
  fi
  echo "PASS"
  exit 0
fi

# Without the edge-value mutations: splats of 0 and -0 reach two upstream
# bugs of this pipeline within a few hundred executions (the tosa.mul x*0
# fold, corpus/regressions/tosa-mul-by-zero-fold, and arith-expand's
# maximumf on signed zeros, corpus/regressions/arith-expand-maximumf-signed-zero).
# Findings are written but do not stop the run; each must be a known
# upstream bug of this pipeline (a pattern of the kind, stage and detail of
# its signature, and of a mark of the graph), with its reproducer under
# corpus/regressions: those stay expected findings, as in KnownBugs.h; or a
# difference that is not a bug ("note:NAME", explained under that name in
# docs/BUGS.md's semantic notes). The
# mark is "double-negate" when an integer negate feeds a negate (the
# negate(negate(x)) fold shows at whatever op consumes it),
# "strided-tconv-nonfinite" when a strided transpose_conv2d reads a value
# computed from an Inf or NaN constant or input (its decomposition multiplies them by zero: the NaN shows at whatever
# op consumes it), else "-".
known_bugs=(
  "verifier|tosa-optional-decompositions|'tosa.pad' op expect input and output to have same element type, got 'i#' and 'i#'|*|tosa-depthwise-conv2d-decomposition-pad-type"
  "miscompile||pow:*:nan-inf|*|note:tosa-pow-nan-operand"
  "miscompile||*:i*:exact|double-negate|tosa-negate-double-negation-fold"
  "miscompile||*|strided-tconv-nonfinite|tosa-transpose-conv2d-decomposition-nan"
)
echo "--- 1,000 executions on a correct pipeline"
rm -rf "$work/corpus" "$work/findings" "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts"
CC_FUZZ_CUTS="mlir:pipeline=$o0" CC_FUZZ_FINDINGS_DIR="$work/findings" \
  CC_FUZZ_EDGES=0 CC_FUZZ_ABORT=0 CC_FUZZ_ISOLATE=0 "$fuzzer" -runs=1000 \
  -seed=1 -max_len=65536 -artifact_prefix="$work/artifacts/" "$work/corpus" \
  > "$work/runs.log" 2>&1 ||
  { tail -n 40 "$work/runs.log"; echo "FAIL: the target stopped"; exit 1; }
grep -E "^Done 1000 runs" "$work/runs.log"
for f in "$work"/findings/*.json; do
  [ -e "$f" ] || continue
  signature=$(python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))
s, g = f["signature"], f["case"]["graph"]
producer = {r["name"] if isinstance(r, dict) else r: n
            for n in g["nodes"] for r in n["results"]}
def int_negate(n):
    t = n["results"][0] if n["op"] == "negate" else None
    return isinstance(t, dict) and t["type"][0] == "i"
inputs = dict(zip([i["name"] if isinstance(i, dict) else i
                   for i in g["inputs"]], f["case"]["inputs"]))
def nonfinite(v):  # v depends on an Inf or NaN constant or input
    n = producer.get(v)
    if n is None or n["op"] == "const":
        data = n["attrs"]["value"]["data"] if n else \
            inputs.get(v, {}).get("data", [])
        return any(isinstance(x, str) for x in data)  # "inf", "-inf", "nan"
    return any(nonfinite(o) for o in n["operands"])
def strided_tconv(n):
    return n["op"] == "transpose_conv2d" and \
        any(s > 1 for s in n.get("attrs", {}).get("stride", [])) and \
        nonfinite(n["operands"][0])
mark = "double-negate" if any(
    int_negate(n) and int_negate(producer.get(n["operands"][0], {"op": ""}))
    for n in g["nodes"]) else "strided-tconv-nonfinite" if any(
    strided_tconv(n) for n in g["nodes"]) else "-"
print("|".join([s["kind"], s["stage"], s["detail"], mark]))' "$f")
  known=""
  for bug in "${known_bugs[@]}"; do
    # shellcheck disable=SC2053 # the known signature is a pattern
    [[ "$signature" == ${bug%|*} ]] && known="${bug##*|}"
  done
  case $known in
  note:*) grep -q "(${known#note:})" "$src/docs/BUGS.md" || known="" ;;
  *) [ -f "$src/corpus/regressions/$known/README.md" ] || known="" ;;
  esac
  if [ -z "$known" ]; then
    echo "FAIL: a finding on a correct pipeline: $f"
    echo "  $signature"
    exit 1
  fi
  case $known in
  note:*) echo "not a bug (docs/BUGS.md, ${known#note:}): $signature" ;;
  *) echo "known upstream bug (corpus/regressions/$known): $signature" ;;
  esac
done

echo "--- crosscheck fuzz --engine libfuzzer on a mutant pass"
mutant="${o0/func.func(tosa-optional-decompositions,/func.func(cc-mutant-tile-tail,tosa-optional-decompositions,}"
rm -rf "$work/campaign"
status=0
"$crosscheck" fuzz --engine libfuzzer --fuzzer "$fuzzer" --load-mutants \
  --cut="mlir:pipeline=$mutant" \
  --time 60s --jobs 1 --seed 3 --timeout 20 --out "$work/campaign" \
  > "$work/campaign.txt" 2>&1 || status=$?
cat "$work/campaign.txt"
if [ "$status" != 1 ]; then
  echo "FAIL: expected exit status 1 (a new finding), got $status"
  tail -n 30 "$work/campaign/libfuzzer.log" || true
  exit 1
fi
# The summary names the long pipeline once ([1]) and the finding by it.
grep -q "\[1\] mlir:pipeline=builtin.module(func.func(cc-mutant-tile-tail" \
  "$work/campaign.txt"
grep -q "NEW .*miscompile|\[1\]|" "$work/campaign.txt"
ls "$work"/campaign/findings/*.json >/dev/null
echo "PASS"
