#!/usr/bin/env python3
"""Translation validation on MLIR's own lit tests.

Each test file is split at `// -----`; every chunk is a source, and each
of the file's RUN lines that pipes `mlir-opt` into FileCheck gives a
target: the chunk through `mlir-opt-22` with that line's flags. `crosscheck
tv` then checks every function of the pair. Reported per file and in all:
functions checked, decided (correct, incorrect or approximate), each verdict, the
unknowns by reason, chunks crosscheck could not read although mlir-opt
did, and crashes of crosscheck. JSON on stdout (or --out).

The test files are MLIR's, not ours: they are not committed. The manifest
(bench/inputs/mlir-lit/MANIFEST.tsv) pins each file to the llvm-project
commit it was read at, with its SHA-256; --lit-dir names the folder that
holds them as `mlir/test/...` (a checkout of llvm-project at those
commits, or copies). A file whose hash differs is refused. Every
`incorrect` is listed with the triage of bench/inputs/mlir-lit/triage.tsv
(a real upstream bug and its status, or a false alarm and its fix); one
that is not triaged is marked so.

  python3 bench/lit_tv.py --lit-dir DIR [--crosscheck build/tools/crosscheck]
      [--mlir-opt mlir-opt-22] [--jobs 2] [--timeout-ms 10000]
      [--manifest TSV] [--triage TSV] [--out JSON] [FILE...]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs", "mlir-lit")


def read_manifest(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            path, commit, chars, sha = line.rstrip("\n").split("\t")
            rows.append({"path": path, "commit": commit, "sha256": sha})
    return rows


def read_triage(path):
    triage = {}
    if not os.path.exists(path):
        return triage
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            file, run, func, kind, note = line.rstrip("\n").split("\t")
            triage[(file, run, func)] = {"kind": kind, "note": note}
    return triage


def run_lines(text):
    """The mlir-opt flags of each RUN line that pipes into FileCheck."""
    lines, cur = [], ""
    for raw in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", raw)
        if not m:
            continue
        cur += m.group(1)
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        lines.append(cur)
        cur = ""
    runs = []
    for line in lines:
        if "FileCheck" not in line:
            continue
        first = line.split("|")[0].strip()
        words = shlex.split(first)
        if not words or words[0] != "mlir-opt":
            continue
        # A RUN line is data: a flag that loads a library or writes a file
        # is not passed on, and its line is not run.
        if any(unsafe_flag(w) for w in words[1:]):
            continue
        flags = []
        for w in words[1:]:
            # The chunks are split here; expected diagnostics make the
            # chunk skipped below (mlir-opt fails on it).
            if w in ("%s", "-", "-o", "-split-input-file",
                     "--split-input-file", "-verify-diagnostics",
                     "--verify-diagnostics"):
                continue
            flags.append(anchored(w))
        runs.append(flags)
    return runs


UNSAFE = ("plugin", "load", "reproducer", "dump", "log-actions", "output",
          "-o=")


def unsafe_flag(word):
    return word.startswith("-") and any(u in word for u in UNSAFE)


def anchored(flag):
    """Older files name a pipeline without its builtin.module anchor,
    which mlir-opt used to add."""
    m = re.match(r"(--?pass-pipeline=)(.*)$", flag)
    if not m or m.group(2).startswith(("builtin.module(", "any(")):
        return flag
    return f"{m.group(1)}builtin.module({m.group(2)})"


def first_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return re.sub(r"^.*?error:\s*", "", line)[:120]
    return stderr.strip().splitlines()[0][:120] if stderr.strip() else ""


def chunks(text):
    return re.split(r"^// -----\s*$", text, flags=re.M)


def functions_of(chunk):
    return re.findall(r"^\s*func\.func\s+(?:private\s+)?@([\w$.]+)\s*\(",
                      chunk, flags=re.M)


def unknown_class(reason):
    """The reason of an unknown without its particulars (op operands,
    values), so that counts group."""
    r = re.sub(r"'[^']*'", "'…'", reason) if "op '" not in reason else reason
    r = re.sub(r"\d+", "N", r)
    return r[:140]


def run_tv(args, src, tgt):
    cmd = [args.crosscheck, "tv", src, tgt, "--json", "--timeout-ms",
           str(args.timeout_ms), "--budget", str(args.budget)]
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=args.budget + 60)


def check_chunk(args, src_text, flags, tmp):
    """One chunk through one RUN line: the per-function results."""
    src = os.path.join(tmp, "src.mlir")
    tgt = os.path.join(tmp, "tgt.mlir")
    with open(src, "w") as f:
        f.write(src_text)
    funcs = functions_of(src_text)
    try:
        opt = subprocess.run([args.mlir_opt, *flags, src, "-o", tgt],
                             capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"skipped": "mlir-opt timed out", "functions": funcs}
    if opt.returncode != 0:
        return {"skipped": "mlir-opt-22: " + first_error(opt.stderr),
                "functions": funcs}
    try:
        done = run_tv(args, src, tgt)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"crash": f"crosscheck did not run: {e}", "functions": funcs}
    generic = False
    if done.returncode == 2 and "is not valid MLIR" in done.stderr:
        # Ops of dialects crosscheck does not link (MLIR's test dialect,
        # which Debian's mlir-opt registers) in their custom form: both
        # sides printed generically by mlir-opt, as a user would.
        keep = [f for f in flags if f == "-allow-unregistered-dialect"]
        gsrc = os.path.join(tmp, "src.generic.mlir")
        a = subprocess.run([args.mlir_opt, *keep, "--mlir-print-op-generic",
                            src, "-o", gsrc], capture_output=True, text=True)
        b = subprocess.run([args.mlir_opt, *flags, "--mlir-print-op-generic",
                            src, "-o", tgt], capture_output=True, text=True)
        if a.returncode == 0 and b.returncode == 0:
            try:
                done, generic = run_tv(args, gsrc, tgt), True
            except (OSError, subprocess.TimeoutExpired) as e:
                return {"crash": f"crosscheck did not run: {e}",
                        "functions": funcs}
    err = done.stderr.strip().splitlines()
    if done.returncode < 0 or "bug of crosscheck" in done.stderr:
        return {"crash": (err[-1] if err else f"signal {-done.returncode}"),
                "functions": funcs}
    if done.returncode == 2:
        return {"error": err[0] if err else "exit 2", "functions": funcs}
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"crash": "no JSON: " + (err[-1] if err else ""),
                "functions": funcs}
    return {"results": out.get("functions", []), "functions": funcs,
            "generic": generic}


def check_file(args, row, triage):
    path = os.path.join(args.lit_dir, row["path"])
    with open(path, "rb") as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() != row["sha256"]:
        return {"file": row["path"], "error": "SHA-256 differs from the "
                "manifest's"}
    text = data.decode("utf-8")
    runs = run_lines(text)
    stats = Counter()
    unknowns, incorrect, errors, crashes = Counter(), [], Counter(), []
    skips = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for ri, flags in enumerate(runs):
            for ci, chunk in enumerate(chunks(text)):
                r = check_chunk(args, chunk, flags, tmp)
                n = len(r["functions"])
                if "skipped" in r:
                    stats["chunks_skipped"] += 1
                    skips[r["skipped"]] += 1
                    continue
                stats["chunks"] += 1
                if "crash" in r:
                    crashes.append({"run": ri, "chunk": ci,
                                    "message": r["crash"]})
                    stats["functions"] += n
                    stats["crashed"] += n
                    continue
                if "error" in r:
                    errors[r["error"][:160]] += 1
                    stats["functions"] += n
                    stats["not_read"] += n
                    continue
                stats["chunks_read_generic"] += int(r["generic"])
                for fr in r["results"]:
                    stats["functions"] += 1
                    v = fr["verdict"]
                    stats[v] += 1
                    if v in ("correct", "incorrect", "approximate"):
                        stats["decided"] += 1
                    if v in ("unknown", "timeout"):
                        unknowns[v + ": " + unknown_class(fr["reason"])] += 1
                    if v == "incorrect":
                        key = (row["path"], str(ri), fr["function"])
                        incorrect.append({
                            "run": ri, "chunk": ci,
                            "function": fr["function"],
                            "reason": fr["reason"],
                            "triage": triage.get(key, {"kind": "untriaged",
                                                       "note": ""})})
    return {"file": row["path"], "commit": row["commit"],
            "runs": [" ".join(f) for f in runs], **dict(stats),
            "unknown_reasons": dict(unknowns.most_common()),
            "not_read_reasons": dict(errors.most_common()),
            "skipped_reasons": dict(skips.most_common()),
            "crashes": crashes, "incorrect_functions": incorrect}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lit-dir", required=True)
    p.add_argument("--crosscheck", default="build/tools/crosscheck")
    p.add_argument("--mlir-opt", default="mlir-opt-22")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout-ms", type=int, default=10000)
    p.add_argument("--budget", type=int, default=300,
                   help="seconds for one chunk's tv run")
    p.add_argument("--manifest", default=os.path.join(INPUTS, "MANIFEST.tsv"))
    p.add_argument("--triage", default=os.path.join(INPUTS, "triage.tsv"))
    p.add_argument("--out")
    p.add_argument("files", nargs="*", help="manifest paths (default: all)")
    args = p.parse_args()
    rows = read_manifest(args.manifest)
    if args.files:
        rows = [r for r in rows if r["path"] in args.files]
    triage = read_triage(args.triage)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        files = list(ex.map(lambda r: check_file(args, r, triage), rows))
    total = Counter()
    for f in files:
        for k in ("functions", "decided", "correct", "incorrect",
                  "approximate", "unknown", "timeout", "not_read", "crashed",
                  "chunks", "chunks_skipped"):
            total[k] += f.get(k, 0)
    total["decided_share"] = round(
        total["decided"] / total["functions"], 4) if total["functions"] else 0
    total["false_alarms"] = sum(
        1 for f in files for i in f.get("incorrect_functions", [])
        if i["triage"]["kind"] == "false-alarm")
    total["untriaged"] = sum(
        1 for f in files for i in f.get("incorrect_functions", [])
        if i["triage"]["kind"] == "untriaged")
    report = {"bench": "lit_tv", "mlir_opt": args.mlir_opt,
              "timeout_ms": args.timeout_ms, "total": dict(total),
              "files": files}
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    for f in files:
        print(f"{f['file']}: {f.get('decided', 0)}/{f.get('functions', 0)} "
              f"decided, {f.get('incorrect', 0)} incorrect, "
              f"{f.get('approximate', 0)} approximate, "
              f"{f.get('not_read', 0)} not read, {f.get('crashed', 0)} "
              f"crashed", file=sys.stderr)
    print(f"total: {total['decided']}/{total['functions']} decided "
          f"({100 * total['decided_share']:.1f}%), {total['incorrect']} "
          f"incorrect ({total['untriaged']} untriaged), {total['crashed']} "
          f"crashed", file=sys.stderr)


if __name__ == "__main__":
    main()
