#!/usr/bin/env python3
"""Passes and rewrite patterns fired by the graph generator versus the
mid-level program generator on the same pipelines, in the same time.

Runs one `crosscheck fuzz` campaign per generator (the same cuts, jobs,
seed and time budget) and reads the distinct passes that changed the IR and
the patterns that fired from each campaign's store; prints JSON:

  {"time_s": 600, "cuts": [...], "graph": {"cases": N, "cases_per_s": x,
   "passes": P, "patterns": Q, "signatures": S}, "mlir": {...},
   "patterns_only_mlir": [...], "patterns_only_graph": [...]}

  bench/generator_coverage.py [--build DIR] [--time 10m] [--jobs 2]
      [--cut SPEC ...] [--out DIR]
"""
import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
DEFAULT_CUTS = ["mlir:mid-canon", "mlir:mid-expand", "mlir:mid-intrange",
                "mlir:mid-linalg", "mlir:mid-loops", "mlir:mid-affine",
                "mlir:mid-O3"]


def campaign(crosscheck, generator, args, out):
    argv = [crosscheck, "fuzz", "--generator", generator, "--time", args.time,
            "--jobs", str(args.jobs), "--seed", "1", "-q", "-o", out]
    for cut in args.cut or DEFAULT_CUTS:
        argv += ["--cut", cut]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode not in (0, 1):  # 1: new findings
        sys.exit(f"generator_coverage.py: {' '.join(argv)} exited with "
                 f"{done.returncode}: {done.stderr.strip()[-2000:]}")
    first = done.stdout.splitlines()[0] if done.stdout else ""
    rate = re.search(r"([0-9.]+) cases/s", first)
    db = sqlite3.connect(f"file:{out}/campaign.db?mode=ro", uri=True)
    names = {kind: {n for (n,) in db.execute(
        "select name from pass_coverage where kind = ?", (kind,))}
        for kind in ("pass", "pattern")}
    cases = db.execute("select count(*) from cases").fetchone()[0]
    signatures = db.execute("select count(*) from findings").fetchone()[0]
    return {"cases": cases, "cases_per_s": float(rate.group(1)) if rate else 0,
            "passes": len(names["pass"]), "patterns": len(names["pattern"]),
            "signatures": signatures}, names


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--time", default="10m")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cut", action="append")
    p.add_argument("--out", help="keep the campaigns here")
    args = p.parse_args()
    crosscheck = os.path.join(args.build, "tools", "crosscheck")
    out = args.out or tempfile.mkdtemp(prefix="generator-coverage-")
    result = {"time": args.time, "jobs": args.jobs,
              "cuts": args.cut or DEFAULT_CUTS}
    names = {}
    for generator in ("graph", "mlir"):
        result[generator], names[generator] = campaign(
            crosscheck, generator, args, os.path.join(out, generator))
    result["patterns_only_mlir"] = sorted(
        names["mlir"]["pattern"] - names["graph"]["pattern"])
    result["patterns_only_graph"] = sorted(
        names["graph"]["pattern"] - names["mlir"]["pattern"])
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
