#!/usr/bin/env bash
# Installs everything, builds, and runs the demo campaign: every seed graph
# through the embedded default compilers under test (the in-process MLIR
# pipelines tosa-O0 and tosa-O3) against the reference interpreter, with
# generated inputs. Results go to out/demo/: one JSON report per run and
# summary.txt. Findings are results, not failures: the script fails only
# when crosscheck itself cannot run a case.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
out=out/demo
rm -rf "$out" && mkdir -p "$out"
errors=0 findings=0 runs=0
for pipeline in tosa-O0 tosa-O3; do
  for graph in corpus/seeds/*.json; do
    name=$(basename "$graph" .json)
    report="$out/$name.$pipeline.json"
    rc=0
    ./build/tools/crosscheck run "$graph" --cut "mlir:$pipeline" --ref ref \
      --seed 1 --json >"$report" 2>"$out/$name.$pipeline.err" || rc=$?
    runs=$((runs + 1))
    case $rc in
      0) line="pass" ;;
      1) line="FINDING $(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["finding"]; print(f["kind"] + ": " + f["message"])' "$report")"
         findings=$((findings + 1)) ;;
      *) line="ERROR $(cat "$out/$name.$pipeline.err")"; errors=$((errors + 1)) ;;
    esac
    echo "$pipeline $name: $line" | tee -a "$out/summary.txt"
  done
done
echo "demo: $runs runs, $findings findings, $errors errors; reports in $out/" |
  tee -a "$out/summary.txt"
[ "$errors" -eq 0 ]
