#!/usr/bin/env bash
# Pattern and pass coverage of the MLIR pipeline after the same time budget,
# with and without coverage guidance; prints one JSON object.
#   guided:     cc_fuzz_pipeline, extra counters from the semantic coverage
#   counters0:  cc_fuzz_pipeline with CC_FUZZ_COUNTERS=0 (libFuzzer sees only
#               crosscheck's own code coverage, not MLIR's)
#   generator:  crosscheck fuzz, the unguided generator campaign
# Distinct patterns/passes count every kind the target or the campaign saw
# (CC_FUZZ_COVERAGE_LOG for libFuzzer, the store's pass_coverage for the
# generator). libFuzzer runs in one process with CC_FUZZ_ABORT=0, so that
# a finding does not end it (fork mode re-runs the corpus in every job,
# which costs much at a few executions per second). The three run at the
# same time (three processes).
# The libFuzzer flags are those of `crosscheck fuzz --engine libfuzzer`;
# LIBFUZZER_FLAGS adds more to both libFuzzer runs.
# usage: bench/libfuzzer_coverage.sh CROSSCHECK FUZZER SECONDS [CUT] [WORKDIR]
set -euo pipefail
crosscheck="$1" fuzzer="$2" seconds="$3"
cut="${4:-mlir:tosa-O3}"
work="${5:-$(mktemp -d)}"
mkdir -p "$work"

# The same start for all three: the repository's seed graphs (those within
# the fuzzer's limits are written as fuzz inputs, like .clusterfuzzlite/build.sh).
seeds="$(cd "$(dirname "$0")/.." && pwd)/corpus/seeds"

run_libfuzzer() { # NAME COUNTERS
  local dir="$work/$1"
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/findings"
  for g in "$seeds"/*.json; do
    printf '{"graph":%s,"input_seed":1,"cut":0}' "$(tr -d '\n' < "$g")" \
      > "$dir/corpus/$(basename "$g")"
  done
  CC_FUZZ_CUTS="$cut" CC_FUZZ_COUNTERS="$2" CC_FUZZ_ABORT=0 \
    CC_FUZZ_FINDINGS_DIR="$dir/findings" \
    CC_FUZZ_COVERAGE_LOG="$dir/coverage.tsv" \
    "$fuzzer" -max_total_time="$seconds" -max_len=65536 -seed=1 \
    -entropic_scale_per_exec_time=1 \
    -artifact_prefix="$dir/" ${LIBFUZZER_FLAGS:-} "$dir/corpus" \
    > "$dir/log.txt" 2>&1 || true
}

# Side by side, so that the three share the machine alike.
run_libfuzzer guided 1 &
run_libfuzzer counters0 0 &
rm -rf "$work/generator"
"$crosscheck" fuzz -q --cut "$cut" --time "${seconds}s" --jobs 1 --seed 1 \
  --seed-corpus "$seeds" \
  --out "$work/generator" > /dev/null 2>&1 &
wait

python3 - "$work" "$seconds" "$cut" <<'PY'
import json, os, re, sqlite3, sys
work, seconds, cut = sys.argv[1], float(sys.argv[2]), sys.argv[3]
out = {"bench": "libfuzzer_coverage", "seconds": seconds, "cut": cut}

def libfuzzer(name):
    seen, first = {}, None
    try:
        for line in open(f"{work}/{name}/coverage.tsv"):
            t, kind, what = line.rstrip("\n").split("\t", 2)
            t = float(t)
            first = t if first is None else min(first, t)
            seen.setdefault((kind, what), t)
    except FileNotFoundError:
        pass
    log = open(f"{work}/{name}/log.txt", errors="replace").read()
    runs = [int(m) for m in re.findall(r"#(\d+):?\s", log)]
    execs = max(runs) if runs else 0
    kinds = {k: sum(1 for (kk, _) in seen if kk == k)
             for k in ("pass", "pattern", "path")}
    half = {k: sum(1 for (kk, _), t in seen.items()
                   if kk == k and first is not None and t - first <= seconds / 2)
            for k in ("pattern",)}
    crashes = len(os.listdir(f"{work}/{name}/findings"))
    return {"patterns": kinds["pattern"], "passes": kinds["pass"],
            "paths": kinds["path"], "patterns_at_half_time": half["pattern"],
            "executions": execs, "execs_per_second": execs / seconds,
            "corpus": len(os.listdir(f"{work}/{name}/corpus")),
            "finding_signatures": crashes}, {w for (k, w) in seen if k == "pattern"}

g, gp = libfuzzer("guided")
c, cp = libfuzzer("counters0")
db = sqlite3.connect(f"{work}/generator/campaign.db")
rows = db.execute("SELECT kind, name FROM pass_coverage").fetchall()
cases = db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
gen = {k: sum(1 for (kk, _) in rows if kk == k) for k in ("pass", "pattern", "path")}
genp = {n for (k, n) in rows if k == "pattern"}
out["guided"] = g
out["counters0"] = c
out["generator"] = {"patterns": gen["pattern"], "passes": gen["pass"],
                    "paths": gen["path"], "cases": cases,
                    "cases_per_second": cases / seconds}
union = gp | cp | genp
out["patterns_union"] = len(union)
out["patterns_only_guided"] = len(gp - cp - genp)
out["patterns_only_generator"] = len(genp - gp)
print(json.dumps(out, indent=1))
PY
