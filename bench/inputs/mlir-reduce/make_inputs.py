#!/usr/bin/env python3
"""Builds the MLIR reducer bench inputs from bundles (repro.mlir + repro.sh).

For each bundle: NAME/input.mlir (its repro.mlir) and NAME/test.sh, an
interestingness script that uses upstream tools only (mlir-opt, mlir-runner,
grep, sed; through wrong-value.sh, error.sh or crash.sh here): it exits 0
when the file still holds the bug's TOSA op, lowers with the bundle's
pipeline, runs, and prints the bundle's first wrong value at the same output
line (the bundle's expected values: expected.txt, or a here-document in
older repro.sh).

  bench/inputs/mlir-reduce/make_inputs.py BUNDLE_DIR... [NAME=OP...]

NAME=OP names the op that input NAME (the bundle folder's name) must keep
(the bug's). The committed inputs come from corpus/found/* (among them
tosa-argmax-lowest-finite-init=tosa.argmax and
tosa-mul-by-zero-fold=tosa.mul), corpus/regressions/tosa-pow-one-to-nan and
two findings of one campaign, `crosscheck fuzz --cut mlir:tosa-O3 --ref ref
--time 60s --seed 1 -o C` then `crosscheck report C --max-bundles 4
--no-bisect`: campaign-seed1-pass-failure (its 1-pass-failure bundle) and
campaign-seed1-miscompile=tosa.greater_equal (its 4-miscompile bundle, a
miscompile: wrong i1 values through tosa-O3), each bundle copied to a folder
of that name first.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

TEST = """#!/bin/sh
# Interesting (exit 0): FILE still holds {key}, lowers with the bundle's
# pipeline, runs, and prints {wrong} as output line {line} (the bundle's
# first wrong element: {what}).
exec "$(dirname "$0")/../wrong-value.sh" '{key}' {line} '{wrong}' {opt} \\
  '{pipeline}' "$1"
"""


def default(script, var):
    m = re.search(var + r":-'([^']*)'", script) or re.search(
        var + r":-([^}]*)}", script)
    return m.group(1)


def expected_rows(bundle, script):
    """The expected rows: expected.txt, or a here-document in repro.sh."""
    path = os.path.join(bundle, "expected.txt")
    if os.path.exists(path):
        body = open(path).read()
    else:
        body = script.split("<<'EXPECTED'\n", 1)[1].split("\nEXPECTED", 1)[0]
    return [line.split() for line in body.splitlines()
            if line.strip() and not line.startswith("#")]


ERROR_TEST = """#!/bin/sh
# Interesting (exit 0): FILE still holds {key}, and the bundle's pipeline
# fails on it with the bundle's error: {message}
exec "$(dirname "$0")/../error.sh" '{key}' '{message}' '{pipeline}' "$1"
"""

CRASH_TEST = """#!/bin/sh
# Interesting (exit 0): FILE still holds {key}, and the bundle's pipeline
# crashes on it (SIGSEGV).
exec "$(dirname "$0")/../crash.sh" '{key}' '{pipeline}' "$1"
"""


def write_input(bundle, name, text):
    out_dir = os.path.join(HERE, name)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(bundle, "repro.mlir")) as src, open(
            os.path.join(out_dir, "input.mlir"), "w") as d:
        d.write(src.read())
    test = os.path.join(out_dir, "test.sh")
    with open(test, "w") as f:
        f.write(text)
    os.chmod(test, 0o755)
    ok = subprocess.run([test, os.path.join(out_dir, "input.mlir")]).returncode
    return "ok" if ok == 0 else "FAILS"


def make_error(bundle, key, name, pipeline):
    err = subprocess.run(["mlir-opt-22", os.path.join(bundle, "repro.mlir"),
                          "--pass-pipeline=" + pipeline, "-o", "/dev/null"],
                         capture_output=True, text=True).stderr
    m = re.search(r"error: (.*)", err)
    if "Segmentation fault" in err or "Stack dump" in err:
        ok = write_input(bundle, name, CRASH_TEST.format(key=key,
                                                         pipeline=pipeline))
        print(f"{name}: key {key}, crash, test {ok}")
        return
    if not m:
        sys.exit(f"{bundle}: repro.sh shows neither a wrong value nor an error")
    # The longest piece without quotes (the script quotes it in '...').
    message = max(m.group(1).split("'"), key=len).strip()
    ok = write_input(bundle, name, ERROR_TEST.format(
        key=key, pipeline=pipeline, message=message))
    print(f"{name}: key {key}, error '{message}', test {ok}")


def make(bundle, key, name):
    script = open(os.path.join(bundle, "repro.sh")).read()
    pipeline = default(script, "REPRO_PIPELINE")
    opt = default(script, "REPRO_OPT_LEVEL")
    rows = expected_rows(bundle, script)
    mlir = os.path.join(bundle, "repro.mlir")
    report = subprocess.run(["sh", os.path.join(bundle, "repro.sh")],
                            capture_output=True, text=True).stdout
    bad = [l.split()[:2] for l in report.splitlines() if "MISMATCH" in l]
    if not bad:
        return make_error(bundle, key, name, pipeline)
    line = 1
    for r in rows:
        if r[:2] == bad[0]:
            break
        line += 2 if r[2] == "f64" else 1
    with tempfile.TemporaryDirectory() as t:
        low = os.path.join(t, "l.mlir")
        subprocess.run(["mlir-opt-22", mlir, "--pass-pipeline=" + pipeline,
                        "-o", low], check=True)
        # As repro.sh and wrong-value.sh: mlir-runner cannot parse arith's
        # fastmath attribute on llvm.fpext/llvm.fptrunc.
        with open(low) as f:
            text = re.sub(r" \{fastmath = #arith\.fastmath<[a-z, ]*>\}", "",
                          f.read())
        with open(low, "w") as f:
            f.write(text)
        out = subprocess.run(
            ["mlir-runner-22", low, "-e", "repro_main",
             "-entry-point-result=void", "-O" + opt,
             "-shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"],
            check=True, capture_output=True, text=True).stdout.splitlines()
    ok = write_input(bundle, name, TEST.format(
        key=key, pipeline=pipeline, opt=opt, line=line,
        wrong=out[line - 1], what="output %s element %s" % tuple(bad[0])))
    print(f"{name}: key {key}, line {line}, wrong {out[line - 1]}, test {ok}")


def main():
    keys = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    for bundle in (a for a in sys.argv[1:] if "=" not in a):
        name = os.path.basename(os.path.normpath(bundle))
        make(bundle, keys.get(name, ""), name)


if __name__ == "__main__":
    main()
