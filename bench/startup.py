#!/usr/bin/env python3
"""Start-up of crosscheck's commands beside mlir-opt's, as one JSON object.

Each command runs RUNS times on a trivial input (a one-op graph, a function
that returns its argument); reported is the median wall time of each, and
its ratio to `mlir-opt` parsing and printing the same function. The `run`
rows include the compilation and JIT of the one-op graph, the `tv` row a
check of two identical functions (no solver query).

  bench/startup.py [--crosscheck PATH] [--runs N] [--mlir-opt CMD]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GRAPH = os.path.join(HERE, "..", "tests", "lit", "Inputs", "sub.json")
IDENTITY = """func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
"""


def commands(cc, mlir_opt, tmp):
    mlir = os.path.join(tmp, "identity.mlir")
    with open(mlir, "w") as f:
        f.write(IDENTITY)
    return {
        "crosscheck --help": [cc, "--help"],
        "crosscheck gen": [cc, "gen", "--seed", "1", "--count", "1",
                           "--ops", "1..1", "-o", os.path.join(tmp, "gen")],
        "crosscheck tv": [cc, "tv", mlir, mlir],
        "crosscheck verify-pass": [cc, "verify-pass", mlir,
                                   "--pass-pipeline=builtin.module(func.func("
                                   "canonicalize))"],
        "crosscheck run --cut mlir:tosa-O0": [cc, "run", GRAPH, "--cut",
                                               "mlir:tosa-O0"],
        "crosscheck run --cut torch": [cc, "run", GRAPH, "--cut", "torch"],
        "mlir-opt": [mlir_opt, mlir],
    }


def median_seconds(argv, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"startup.py: {' '.join(argv)} exited with "
                     f"{done.returncode}: {done.stderr.strip()}")
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--crosscheck", default="build/tools/crosscheck")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--mlir-opt", default="mlir-opt-22")
    a = p.parse_args()
    if a.runs < 1:
        sys.exit("startup.py: --runs must be at least 1")
    cc = a.crosscheck
    if not os.access(cc, os.X_OK):
        sys.exit(f"startup.py: {cc} is missing; build it first")
    mlir_opt = shutil.which(a.mlir_opt)
    if not mlir_opt:
        sys.exit(f"startup.py: {a.mlir_opt} is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        seconds = {name: median_seconds(argv, a.runs)
                   for name, argv in commands(cc, mlir_opt, tmp).items()}
    base = seconds["mlir-opt"]
    print(json.dumps({
        "bench": "startup",
        "runs": a.runs,
        "median_s": seconds,
        "ratio_to_mlir_opt": {k: v / base for k, v in seconds.items()},
    }, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
