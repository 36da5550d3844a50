#!/usr/bin/env bash
# Installs everything, builds, and runs the main job: a short fuzz campaign
# (crosscheck fuzz) against the embedded default compilers under test, the
# in-process MLIR pipelines tosa-O0 and tosa-O3, judged against the
# reference interpreter. The seed corpus opens the case stream, generated
# graphs (and precision variants) follow. Results go to out/demo/: the
# findings store campaign.db, junit.xml, findings.sarif, findings.json,
# summary.txt and one reproducer per finding under findings/; then
# crosscheck report writes its dashboard, out/demo/report/index.html, with a
# bug bundle per finding.
# Findings are grouped by root cause; those of the upstream bugs the
# project knows (corpus/known/mlir-22.json, with their upstream links) are
# listed as known, so a clean run on MLIR 22 reports 0 new root causes.
# Findings are results, not failures: the script fails only on an error
# (exit status 2).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
out=out/demo
rm -rf "$out"
rc=0
./build/tools/crosscheck fuzz --cut mlir:tosa-O0 --cut mlir:tosa-O3 --ref ref \
  --seed-corpus corpus/seeds --precision f16,bf16,int8 \
  --time "${DEMO_TIME:-2m}" --jobs "$(nproc)" --seed 1 -o "$out" \
  --known-bugs corpus/known/mlir-22.json || rc=$?
[ "$rc" -le 1 ] || exit "$rc"
./build/tools/crosscheck report "$out" --max-bundles 5
echo "demo: dashboard at $out/report/index.html"
