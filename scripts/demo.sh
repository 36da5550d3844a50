#!/usr/bin/env bash
# Installs everything, builds, and runs the demo: every seed graph through the
# embedded default compiler under test (the in-process MLIR pipelines) against
# the reference interpreter. Results go to out/demo/ (one JSON per run and a
# summary.txt). Exits non-zero if any run finds a bug or fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
out=out/demo
rm -rf "$out" && mkdir -p "$out"
status=0
for pipeline in tosa-O0 tosa-O3; do
  for graph in corpus/seeds/*.json; do
    name=$(basename "$graph" .json)
    rc=0
    ./build/tools/crosscheck run "$graph" --cut "mlir:$pipeline" --ref ref \
      --seed 1 --json >"$out/$name.$pipeline.json" || rc=$?
    verdict=$(./build/tools/crosscheck run "$graph" --cut "mlir:$pipeline" \
      --ref ref --seed 1 2>&1 || true)
    echo "$pipeline $name: $verdict" | tee -a "$out/summary.txt"
    [ "$rc" -eq 0 ] || status=1
  done
done
echo "demo results: $out/ ($(grep -c . "$out/summary.txt") runs)"
exit "$status"
