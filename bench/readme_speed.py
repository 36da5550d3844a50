#!/usr/bin/env python3
"""Regenerates the README's speed table from the benches.

Runs bench/startup.py, build/bench/campaign_bench and build/bench/upstream_bench
and writes their headline numbers, with the machine they ran on, between the
README's `<!-- speed:begin -->` and `<!-- speed:end -->` markers (or prints
the table with --print).

  bench/readme_speed.py [--build DIR] [--cases N] [--print]
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
BEGIN, END = "<!-- speed:begin -->", "<!-- speed:end -->"


def bench(argv):
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"readme_speed.py: {' '.join(argv)} exited with "
                 f"{done.returncode}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            names = re.findall(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            cpu = names[0] if names else cpu
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu})"


def table(build, cases):
    up = bench([os.path.join(build, "bench", "upstream_bench"),
                "--cases", str(cases)])
    camp = bench([os.path.join(build, "bench", "campaign_bench"),
                  "--cases", str(cases)])
    start = bench([sys.executable, os.path.join(ROOT, "bench", "startup.py"),
                   "--crosscheck", os.path.join(build, "tools", "crosscheck"),
                   "--runs", "3"])
    both = camp["runs"][1]
    med = start["median_s"]
    rows = [
        ("10-op graphs through tosa-O0, generated, run and judged",
         f"{up['crosscheck']['cases_per_second']:.1f} cases/s with 1 worker "
         f"({both['cases_per_second']:.1f} with 2); each graph compiled once "
         f"for {up['input_sets_per_graph']} input sets: "
         f"{up['crosscheck']['graphs_per_second']:.1f} graphs/s",
         f"{up['mlir_opt_and_mlir_runner']['cases_per_second']:.1f} cases/s: "
         "`mlir-opt` + `mlir-runner` per case (a bundle's `repro.sh`)"),
        ("start-up of `crosscheck tv` / `verify-pass`",
         f"{med['crosscheck tv']:.2f} s / {med['crosscheck verify-pass']:.2f} s",
         f"{med['mlir-opt']:.2f} s: `mlir-opt` parsing and printing"),
    ]
    lines = [f"Measured {datetime.date.today()} on {machine()} by "
             f"`bench/readme_speed.py` ({cases} cases; details and history "
             "in [docs/BENCHMARKS.md](docs/BENCHMARKS.md)).", "",
             "| what | crosscheck | instead |", "|---|---|---|"]
    lines += [f"| {w} | {c} | {i} |" for w, c, i in rows]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--cases", type=int, default=30)
    p.add_argument("--print", action="store_true")
    a = p.parse_args()
    text = table(os.path.abspath(a.build), a.cases)
    if a.print:
        sys.stdout.write(text)
        return
    readme = os.path.join(ROOT, "README.md")
    with open(readme) as f:
        old = f.read()
    if BEGIN not in old or END not in old:
        sys.exit(f"readme_speed.py: README.md lacks {BEGIN} ... {END}")
    head, rest = old.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(readme, "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


if __name__ == "__main__":
    main()
