#!/usr/bin/env python3
"""same_report.py CROSSCHECK BUNDLE [FLAG...]: passes a bug bundle's inputs
straight back to `crosscheck run --inputs BUNDLE/inputs` on its graph with
the finding's compiler (and FLAGs), and checks that the outputs are judged
as the finding judged them: the same per-output report (mismatches, first
mismatch with its expected and actual values, largest errors, tolerance).
Exits 1 when they differ."""
import json
import os
import subprocess
import sys

crosscheck, bundle = sys.argv[1], sys.argv[2]
finding = json.load(open(os.path.join(bundle, "finding.json")))
run = subprocess.run(
    [crosscheck, "run", "--json", "--cut=" + finding["case"]["cut"]]
    + sys.argv[3:]
    + [os.path.join(bundle, "graph.json"),
       "--inputs", os.path.join(bundle, "inputs")],
    stdout=subprocess.PIPE, text=True)
if run.returncode != 1:
    sys.exit("same_report: crosscheck run exited %d, not 1 (a finding)"
             % run.returncode)
# The oracle's report: "numeric" in a campaign's finding, "report" in one
# judged alone.
evidence = finding["evidence"]
want = (evidence.get("numeric") or evidence["report"])["outputs"]
got = json.loads(run.stdout)["report"]["outputs"]
# Fields the oracle added after the finding was recorded are not compared.
got = [{k: o[k] for k in w if k in o} for w, o in zip(want, got)] + got[len(want):]
if want != got:
    sys.exit("same_report: the outputs differ\nfinding: %s\nrun:     %s"
             % (json.dumps(want), json.dumps(got)))
print("same report: %d output(s), %d mismatching element(s)"
      % (len(got), sum(o["mismatches"] for o in got)))
