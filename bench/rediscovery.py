#!/usr/bin/env python3
"""Rediscovery of known upstream bugs by plain campaigns.

The bugs are those crosscheck knows (corpus/known/mlir-19.json: MLIR 19
bugs fixed in 22, corpus/known/mlir-22.json: open in 22), grouped into pass
families by bench/inputs/rediscovery.json: each family names the compiler
under test (`--cut`), the generator and the bugs that live there. For every
family and seed the bench runs one `crosscheck fuzz` campaign with a fixed
budget and no `--known-bugs` (nothing is hidden from it, nothing is aimed
at a bug beyond the family's pipeline), reduces its findings (`--reduce`),
and only then recognises the bugs: `crosscheck merge` of the campaign with
the family's bugs as `--known-bugs`, the same patterns a nightly run uses.

Reported per bug, generator and seed: whether it was rediscovered, the seconds from
the campaign's start (workers included) to its first finding and that
case's index; per bug and generator the median over seeds (found when
more than half of the seeds find it); a bug counts as found when one of
its family's generators finds it; per family and in all the
share found. CPU time is the budget times --jobs. JSON on stdout (or
--out).

  python3 bench/rediscovery.py [--crosscheck build/tools/crosscheck]
      [--families a,b] [--seeds 1,2,3] [--budget 10m] [--jobs 1]
      [--parallel 1] [--reduce-budget 20s] [--work DIR] [--out JSON]
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TABLE = os.path.join(HERE, "inputs", "rediscovery.json")


def load_bugs(table):
    """name -> known-bugs entry, from every file the table names."""
    bugs = {}
    for rel in table["known"]:
        with open(os.path.join(ROOT, rel)) as f:
            for b in json.load(f)["bugs"]:
                if b["name"] in bugs:  # one bug in two releases
                    bugs[b["name"]]["match"] += b["match"]
                else:
                    bugs[b["name"]] = b
    return bugs


def known_file(family, bugs, path):
    """The family's bugs in the known-bugs format crosscheck reads."""
    missing = [n for n in family["bugs"] if n not in bugs]
    if missing:
        sys.exit("rediscovery: family %s names unknown bugs: %s" %
                 (family["name"], ", ".join(missing)))
    with open(path, "w") as f:
        json.dump({"format": "crosscheck-known-bugs",
                   "bugs": [bugs[n] for n in family["bugs"]]}, f, indent=1)


def run(cmd, log):
    with open(log, "ab") as out:
        out.write(("$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        return subprocess.run(cmd, stdout=out, stderr=out).returncode


def first_sightings(campaign, merged):
    """bug -> (seconds, case index) of its earliest finding."""
    with open(os.path.join(merged, "findings.json")) as f:
        found = json.load(f)
    db = sqlite3.connect(os.path.join(campaign, "campaign.db"))
    created = float(db.execute(
        "SELECT value FROM meta WHERE key = 'created'").fetchone()[0])
    seen = {}
    for root in found["root_causes"]:
        bug = root["known_bug"]
        if not bug:
            continue
        for i in root["findings"]:
            s = found["findings"][i]["signature"]
            row = db.execute(
                "SELECT first_seen, first_case FROM findings WHERE kind = ? "
                "AND backend = ? AND stage = ? AND detail = ?",
                (s["kind"], s["backend"], s.get("stage", ""),
                 s.get("detail", ""))).fetchone()
            if not row:
                continue
            at = (round(row[0] - created, 1), row[1])
            if bug not in seen or at < seen[bug]:
                seen[bug] = at
    return seen


# A family's generators: "lit" is the program generator seeded with the
# input side of MLIR's own lit tests (corpus/lit), mutated.
GENERATORS = {
    "graph": ["--generator", "graph"],
    "mlir": ["--generator", "mlir"],
    "lit": ["--generator", "mlir", "--seed-corpus",
            os.path.join(ROOT, "corpus", "lit")],
}


def campaign(args, family, generator, seed, bugs):
    name = "%s-%s-seed%d" % (family["name"], generator, seed)
    out = os.path.join(args.work, name)
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(out + ".merged", ignore_errors=True)
    log = out + ".log"
    cmd = [args.crosscheck, "fuzz"] + GENERATORS[generator] + [
           "--time", args.budget, "--jobs", str(args.jobs), "--seed",
           str(seed), "--reduce", "--reduce-budget", args.reduce_budget,
           "-q", "-o", out]
    for cut in family["cuts"]:
        cmd += ["--cut", cut]
    cmd += family.get("flags", [])
    if run(cmd, log) not in (0, 1):
        return name, {"error": "campaign failed, see " + log}
    known = out + ".known.json"
    known_file(family, bugs, known)
    merge = [args.crosscheck, "merge", out, "-o", out + ".merged",
             "--known-bugs", known]
    if run(merge, log) not in (0, 1):
        return name, {"error": "merge failed, see " + log}
    with open(os.path.join(out + ".merged", "findings.json")) as f:
        roots = json.load(f)["root_causes"]
    db = sqlite3.connect(os.path.join(out, "campaign.db"))
    cases = db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]
    return name, {"sightings": first_sightings(out, out + ".merged"),
                  "cases": cases,
                  "other_root_causes": sum(not r["known_bug"] for r in roots)}


def bug_row(bug, runs_of):
    """One bug on one generator: its runs and the median over seeds."""
    runs = []
    for seed, r in runs_of:
        at = r.get("sightings", {}).get(bug)
        runs.append({"seed": seed, "found": at is not None,
                     "seconds": at[0] if at else None,
                     "case": at[1] if at else None})
    hits = [r["seconds"] for r in runs if r["found"]]
    # Found when the median run finds it: more than half of the seeds.
    found = 2 * len(hits) > len(runs)
    return {"bug": bug, "found": found, "seeds_found": len(hits),
            "median_seconds": statistics.median(hits) if found else None,
            "runs": runs}


def summarize(table, results, seeds):
    report, found_all, total = {"families": []}, 0, 0
    for family in table["families"]:
        if family["name"] not in results:
            continue
        per_gen = results[family["name"]]
        rows, found = [], 0
        for bug in family["bugs"]:
            by_gen = {g: bug_row(bug, [(s, per_gen[g].get(s, {}))
                                       for s in seeds])
                      for g in family["generators"]}
            hit = any(r["found"] for r in by_gen.values())
            found += hit
            rows.append({"bug": bug, "found": hit, "generators": by_gen})
        campaigns = {"%s-seed%d" % (g, s): {
            k: v for k, v in per_gen[g].get(s, {}).items() if k != "sightings"}
            for g in family["generators"] for s in seeds}
        report["families"].append({
            "family": family["name"], "generators": family["generators"],
            "cuts": family["cuts"], "found": found,
            "bugs": len(family["bugs"]), "results": rows,
            "campaigns": campaigns})
        found_all += found
        total += len(family["bugs"])
    report["found"], report["bugs"] = found_all, total
    report["share"] = round(found_all / total, 3) if total else None
    return report


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--crosscheck",
                   default=os.path.join(ROOT, "build", "tools", "crosscheck"))
    p.add_argument("--table", default=TABLE)
    p.add_argument("--families", default="")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--budget", default="10m")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--parallel", type=int, default=1)
    p.add_argument("--reduce-budget", default="20s")
    p.add_argument("--work", default="")
    p.add_argument("--out", default="")
    args = p.parse_args()
    with open(args.table) as f:
        table = json.load(f)
    wanted = [n for n in args.families.split(",") if n]
    names = [f["name"] for f in table["families"]]
    for n in wanted:
        if n not in names:
            sys.exit("rediscovery: no family %s (have: %s)" %
                     (n, ", ".join(names)))
    families = [f for f in table["families"]
                if not wanted or f["name"] in wanted]
    seeds = [int(s) for s in args.seeds.split(",")]
    args.work = args.work or tempfile.mkdtemp(prefix="rediscovery-")
    os.makedirs(args.work, exist_ok=True)
    bugs = load_bugs(table)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        jobs = {pool.submit(campaign, args, f, g, s, bugs): (f["name"], g, s)
                for f in families for g in f["generators"] for s in seeds}
        for job in concurrent.futures.as_completed(jobs):
            family, generator, seed = jobs[job]
            name, r = job.result()
            results.setdefault(family, {}).setdefault(generator, {})[seed] = r
            print("rediscovery: %s: %s" % (name, json.dumps(
                r.get("sightings", r))), file=sys.stderr)
    report = summarize(table, results, seeds)
    report.update({"budget": args.budget, "jobs": args.jobs, "seeds": seeds,
                   "work": os.path.basename(args.work)})
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
