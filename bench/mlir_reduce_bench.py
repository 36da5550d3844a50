#!/usr/bin/env python3
"""crosscheck's MLIR-level reducer beside upstream mlir-reduce, as JSON.

Each input is bench/inputs/mlir-reduce/NAME/{input.mlir,test.sh} (test.sh
FILE exits 0 when FILE is interesting; see make_inputs.py there). Both tools
reduce it with the same script: `crosscheck reduce input.mlir --test=test.sh`
and mlir-reduce (which calls a file interesting when its tester exits
non-zero, so it gets an inverting wrapper), best of two modes: the reduction
tree alone, and symbol-dce and canonicalize before it. Reported per tool:
ops and non-empty lines after, test calls, seconds, whether the output is
still interesting, and a UB check of the output: no `scf.for` whose step is
a zero constant, and, lowered with runtime verification (out-of-bounds
memref accesses abort) and run, no abort and no hang.

  bench/mlir_reduce_bench.py [--crosscheck PATH] [--mlir-reduce PATH]
      [--only NAME,...] [--tools crosscheck,mlir-reduce] [--budget S]
      [--jobs N]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs", "mlir-reduce")
UTILS = "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
# Lowers any of the inputs with memref runtime verification.
UB_PIPELINE = (
    "builtin.module(func.func(tosa-optional-decompositions,"
    "tosa-to-linalg-named,tosa-to-linalg,"
    "tosa-to-arith,tosa-to-tensor),one-shot-bufferize{"
    "bufferize-function-boundaries function-boundary-type-conversion="
    "identity-layout-map},generate-runtime-verification,func.func("
    "convert-linalg-to-loops),expand-strided-metadata,lower-affine,"
    "convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)")
GENERIC_OP = re.compile(r'^\s*(%[^=]*= )?"[A-Za-z_]+\.[A-Za-z_.0-9]+"')


def count_ops(path):
    """Ops of the module (generic form, one per line), the module left out."""
    out = subprocess.run(["mlir-opt-22", path, "--mlir-print-op-generic"],
                         capture_output=True, text=True)
    if out.returncode:
        return None
    return sum(1 for l in out.stdout.splitlines()
               if GENERIC_OP.match(l) and '"builtin.module"' not in l)


def count_lines(path):
    with open(path) as f:
        return sum(1 for l in f if l.strip())


def ub_check(path):
    """'ok', 'zero-step', 'out-of-bounds', 'hang', or 'ok (static)' when the
    module does not lower to a runnable program."""
    text = open(path).read()
    zeros = set(re.findall(r"(%\w+) = arith.constant 0 : index", text))
    for step in re.findall(r"scf.for .* step (%\w+)", text):
        if step in zeros:
            return "zero-step"
    with tempfile.TemporaryDirectory() as t:
        low = os.path.join(t, "l.mlir")
        if subprocess.run(["mlir-opt-22", path, "--pass-pipeline=" +
                           UB_PIPELINE, "-o", low],
                          capture_output=True).returncode:
            return "ok (static)"
        try:
            run = subprocess.run(
                ["mlir-runner-22", low, "-e", "repro_main",
                 "-entry-point-result=void", "-shared-libs=" + UTILS],
                capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            return "hang"
        if "verification failed" in run.stderr + run.stdout or (
                run.returncode != 0 and "Stack dump" in run.stderr):
            return "out-of-bounds"
        return "ok" if run.returncode == 0 else "ok (static)"


def counted_test(tmp, test, invert):
    """A wrapper of test.sh that counts its calls (and inverts its answer
    for mlir-reduce)."""
    calls = os.path.join(tmp, "calls")
    open(calls, "w").close()
    wrapper = os.path.join(tmp, "test-wrapper.sh")
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\necho >> '%s'\n%s'%s' \"$1\"\n" %
                (calls, "! " if invert else "", test))
    os.chmod(wrapper, 0o755)
    return wrapper, calls


def run_crosscheck(args, name, tmp):
    d = os.path.join(INPUTS, name)
    wrapper, calls = counted_test(tmp, os.path.join(d, "test.sh"), False)
    out = os.path.join(tmp, "cc")
    argv = [args.crosscheck, "reduce", os.path.join(d, "input.mlir"), "-o",
            out, "--test=" + wrapper, "--budget=%ds" % args.budget]
    if args.jobs > 1:
        argv.append("--jobs=%d" % args.jobs)
    start = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if r.returncode:
        return {"error": r.stderr.strip()[-300:], "seconds": seconds}
    return measure(os.path.join(out, "reduced.mlir"), d, calls, seconds)


def run_mlir_reduce(args, name, tmp):
    d = os.path.join(INPUTS, name)
    best = None
    modes = {
        "tree": ["-reduction-tree=traversal-mode=0 test={w}"],
        "dce+canonicalize+tree": [
            "-opt-reduction-pass=opt-pass=symbol-dce test={w}",
            "-opt-reduction-pass=opt-pass=canonicalize test={w}",
            "-reduction-tree=traversal-mode=0 test={w}"],
    }
    why = []
    for mode, passes in modes.items():
        sub = os.path.join(tmp, mode)
        os.makedirs(sub)
        wrapper, calls = counted_test(sub, os.path.join(d, "test.sh"), True)
        out = os.path.join(sub, "reduced.mlir")
        argv = [args.mlir_reduce, os.path.join(d, "input.mlir"), "-o", out]
        argv += [p.format(w=wrapper) for p in passes]
        start = time.monotonic()
        try:
            r = subprocess.run(argv, capture_output=True, text=True,
                               timeout=args.budget * 2)
            if r.returncode:
                why.append("%s: exit %d" % (mode, r.returncode))
        except subprocess.TimeoutExpired:
            why.append("%s: killed after %d s" % (mode, args.budget * 2))
        seconds = time.monotonic() - start
        if why and why[-1].startswith(mode) or not os.path.exists(out):
            continue
        m = measure(out, d, calls, seconds)
        m["mode"] = mode
        if best is None or (m["ops"], m["lines"]) < (best["ops"], best["lines"]):
            best = m
    return best or {"error": "; ".join(why) or "no output"}


def measure(path, d, calls, seconds):
    with open(calls) as f:
        n = sum(1 for _ in f)
    still = subprocess.run([os.path.join(d, "test.sh"), path]).returncode == 0
    return {"ops": count_ops(path), "lines": count_lines(path),
            "test_calls": n, "seconds": round(seconds, 1),
            "interesting": still, "ub": ub_check(path)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--crosscheck",
                   default=os.path.join(HERE, "..", "build", "tools",
                                        "crosscheck"))
    p.add_argument("--mlir-reduce", default="/usr/lib/llvm-22/bin/mlir-reduce")
    p.add_argument("--only", default="")
    p.add_argument("--tools", default="crosscheck,mlir-reduce")
    p.add_argument("--budget", type=int, default=120)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    names = sorted(n for n in os.listdir(INPUTS)
                   if os.path.isdir(os.path.join(INPUTS, n)))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    rows = {}
    for name in names:
        path = os.path.join(INPUTS, name, "input.mlir")
        row = {"input": {"ops": count_ops(path), "lines": count_lines(path),
                         "ub": ub_check(path)}}
        for tool in args.tools.split(","):
            with tempfile.TemporaryDirectory() as tmp:
                run = run_crosscheck if tool == "crosscheck" else run_mlir_reduce
                row[tool] = run(args, name, tmp)
        rows[name] = row
        print(json.dumps({name: row}), file=sys.stderr, flush=True)
    json.dump({"bench": "mlir-reduce", "budget_s": args.budget,
               "jobs": args.jobs, "inputs": rows}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
