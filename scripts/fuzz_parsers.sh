#!/usr/bin/env bash
# Builds the libFuzzer targets of crosscheck's own parsers (graph JSON,
# .npy, ONNX, the tv front end, finding files, campaign stores;
# harness/fuzz/parsers) with clang-22 and our
# code under ASan and UBSan, then fuzzes each from its seed corpus
# corpus/fuzz/<name>. A crash, timeout, out-of-memory or sanitizer report
# fails the script; its input is left in BUILD/artifacts.
#   usage: fuzz_parsers.sh [--build DIR] [--runs N | --seconds S] [NAME...]
# --runs: executions per target (the ctest "libfuzzer-parsers" uses this);
# --seconds: time per target. Names: graph_json npy onnx tv finding store
# (default all).
# New inputs accumulate in BUILD/corpus/<name> between runs.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="$src/build-fuzz-parsers"
limit="-runs=1000"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --runs) limit="-runs=$2"; shift 2 ;;
    --seconds) limit="-max_total_time=$2"; shift 2 ;;
    *) break ;;
  esac
done
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(graph_json npy onnx tv finding store)

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCC_LIBFUZZER=ON \
  -DCC_SANITIZE=address,undefined >/dev/null
cmake --build "$build" -j 2 --target "${names[@]/#/cc_fuzz_}"

status=0
mkdir -p "$build/artifacts"
for name in "${names[@]}"; do
  corpus="$build/corpus/$name"
  log="$build/$name.log"
  mkdir -p "$corpus"
  start=$SECONDS
  # Leaks are not crashes here (MLIR and Z3 keep global caches).
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/harness/fuzz/parsers/cc_fuzz_$name" "$limit" -seed=1 \
    -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$name-" \
    "$corpus" "$src/corpus/fuzz/$name" > "$log" 2>&1 || {
      status=1
      grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" || tail -n 30 "$log"
    }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "$name: ${execs:-?} executions, $((SECONDS - start)) s," \
    "corpus $(find "$corpus" -type f | wc -l) files"
  if grep -qE "(Address|Undefined)Sanitizer|runtime error:" "$log"; then
    echo "FAIL: $name: a sanitizer report (see $log)"
    status=1
  fi
done
exit $status
