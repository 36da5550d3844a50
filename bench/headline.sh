#!/usr/bin/env bash
# The project's headline numbers as ONE JSON object: runs the benchmarks in
# short but meaningful settings and keeps the numbers the README quotes.
# Builds nothing: build the benchmarks first, e.g.
#   ninja -C build gen_bench campaign_bench tv_bench reduce_bench detect_bench
#
#   bench/headline.sh [BUILD_DIR]        (default: build)
#
# Settings (environment): GEN_SEEDS=500 CAMPAIGN_CASES=40 TV_GRAPHS=20
# TV_BUDGET_S=10 REDUCE_FAILURES=5 REDUCE_BUDGET=60 DETECT_BUDGET=60s
# DETECT_JOBS=2 DETECT_MUTANTS= (comma-separated; empty: every mutant)
# DETECT_SEED_CORPUS= (a graph folder that opens each detect campaign).
# Each bench's full JSON is kept in $HEADLINE_DIR when that is set.
set -euo pipefail
build=${1:-build}
bin=$build/bench
for b in gen_bench campaign_bench reduce_bench detect_bench; do
  if [[ ! -x $bin/$b ]]; then
    echo "headline.sh: $bin/$b is missing; build it first" >&2
    exit 2
  fi
done
out=${HEADLINE_DIR:-$(mktemp -d)}
mkdir -p "$out"
[[ -n ${HEADLINE_DIR:-} ]] || trap 'rm -rf "$out"' EXIT

step() { echo "headline.sh: $*" >&2; }
# gen_bench exits 1 when some graph is invalid: that is a number, not an error.
step "gen_bench"
"$bin/gen_bench" --seeds "${GEN_SEEDS:-500}" >"$out/gen.json" || [[ $? == 1 ]]
step "campaign_bench"
"$bin/campaign_bench" --cases "${CAMPAIGN_CASES:-40}" >"$out/campaign.json"
if [[ -x $bin/tv_bench ]]; then
  step "tv_bench"
  "$bin/tv_bench" --graphs "${TV_GRAPHS:-20}" --budget-s "${TV_BUDGET_S:-10}" \
    >"$out/tv.json"
else
  echo '{}' >"$out/tv.json" # built without Z3
fi
step "reduce_bench"
"$bin/reduce_bench" --failures "${REDUCE_FAILURES:-5}" \
  --budget "${REDUCE_BUDGET:-60}" >"$out/reduce.json"
step "detect_bench"
detect_args=(--budget "${DETECT_BUDGET:-60s}" --jobs "${DETECT_JOBS:-2}")
[[ -z ${DETECT_MUTANTS:-} ]] || detect_args+=(--mutants "$DETECT_MUTANTS")
[[ -z ${DETECT_SEED_CORPUS:-} ]] ||
  detect_args+=(--seed-corpus "$DETECT_SEED_CORPUS")
"$bin/detect_bench" "${detect_args[@]}" >"$out/detect.json"

python3 - "$out" <<'EOF'
import json, os, sys

d = sys.argv[1]
load = lambda n: json.load(open(os.path.join(d, n + ".json")))
gen, camp, tv, red, det = (load(n) for n in
                           ("gen", "campaign", "tv", "reduce", "detect"))
runs = {r["jobs"]: r for r in camp["runs"]}
smt = {}
for pipeline in ("tosa-canonicalize", "tosa-to-linalg", "linalg"):
    for kind in ("pass", "rewrite"):
        c = tv.get(pipeline, {}).get(kind)
        if c and c["checks"]:
            smt[pipeline + ":" + kind] = {
                "checks": c["checks"], "median_s": c["median_s"],
                "p95_s": c["p95_s"], "decided_share": c["decided_share"]}
s = det["summary"]
print(json.dumps({
    "generation": {"graphs_per_s_10_ops": gen["graphs_per_s_10_ops"],
                   "graphs_per_s_30_ops": gen["graphs_per_s_30_ops"],
                   "validity": gen["validity"],
                   "validity_seeds": gen["validity_seeds"]},
    "campaign": {"cut": camp["cut"], "ops_per_graph": camp["ops_per_graph"],
                 "cases_per_s_1_worker": runs[1]["cases_per_second"],
                 "cases_per_s_2_workers": runs[2]["cases_per_second"]},
    "smt": smt,
    "reduction": {"failures": red["failures"],
                  "median_ops_before": red["median_ops_before"],
                  "median_ops_after": red["median_ops_after"],
                  "median_reduction_ratio": red["median_reduction_ratio"],
                  "median_oracle_calls": red["median_oracle_calls"],
                  "median_seconds": red["median_seconds"]},
    "detection": {"mutants": s["mutants"], "detected": s["detected"],
                  "detection_rate": s["detection_rate"],
                  "median_seconds_to_detect": s["median_seconds_to_detect"],
                  "max_seconds_to_detect": s["max_seconds_to_detect"],
                  "median_reduced_ops": s["median_reduced_ops"],
                  "budget_seconds": det["budget_seconds"],
                  "jobs": det["jobs"],
                  "seed_corpus": det.get("seed_corpus", False),
                  "missed": [r["mutant"] for r in det["results"]
                             if not r["found"]]},
    "cpus": camp["cpus"],
}, indent=2))
EOF
