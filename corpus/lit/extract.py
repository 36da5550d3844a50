#!/usr/bin/env python3
"""Derives corpus/lit/ from MLIR's own lit tests (upstream llvm-project).

    python3 corpus/lit/extract.py RAW_DIR [--mlir-opt mlir-opt-22]

RAW_DIR holds the upstream files, unchanged, at their llvm-project paths
(RAW_DIR/mlir/test/Dialect/...). For each file in FILES below this writes
corpus/lit/<Dialect>-<basename> and one line of MANIFEST.tsv; the rules are
in README.md. Standard library only; the output depends only on the inputs
and on which chunks the given mlir-opt parses.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

# (llvm-project path, commit). The output name is <Dialect>-<basename>.
FILES = [
    ("mlir/test/Dialect/Arith/canonicalize.mlir",
     "020f396457e7b844c5e3b62fadd5d783e986d601"),
    ("mlir/test/Dialect/Arith/int-narrowing.mlir",
     "13d73d78496b44d9ab90bed8c5d1b42a728a40f1"),
    ("mlir/test/Dialect/Arith/unsigned-when-equivalent.mlir",
     "2abc4c3efd7c5ac6e72383b5dcbd7ee2b3aa47f4"),
    ("mlir/test/Dialect/Arith/int-range-opts.mlir",
     "fb907c109d5a531065ecf37d0273898fa7932810"),
    ("mlir/test/Dialect/Arith/int-range-narrowing.mlir",
     "cec13294ab6cbb8062b8cc1436fe9328c8e8b7ca"),
    ("mlir/test/Dialect/Arith/expand-ops.mlir",
     "7f8951094c5867e57f399a5557cf9f298b0ce198"),
    ("mlir/test/Dialect/Index/index-canonicalize.mlir",
     "0ac0252b9e8b5d630acdb941d87b1d0895554be9"),
    ("mlir/test/Dialect/Math/expand-math.mlir",
     "03a5b92df2dd58ec447a46f18d1640e43f91d04a"),
    ("mlir/test/Dialect/Math/canonicalize.mlir",
     "c4743c2180feaf2ae54b9442995ad367bd5b84a8"),
]

SPLIT = "// -----"
DIAGNOSTICS = ("expected-error", "expected-warning", "expected-note",
               "expected-remark")
HERE = os.path.dirname(os.path.abspath(__file__))


def out_name(path):
    parts = path.split("/")
    return parts[-2] + "-" + parts[-1]  # mlir/test/Dialect/<D>/<f>


def chunks_of(text):
    """The chunks of --split-input-file: split at lines exactly `// -----`."""
    chunks, cur = [], []
    for line in text.split("\n"):
        if line == SPLIT:
            chunks.append(cur)
            cur = []
        else:
            cur.append(line)
    chunks.append(cur)
    return chunks


def clean(lines):
    """Drops `//` lines, collapses blank runs, trims; None if nothing is left."""
    out = []
    for line in lines:
        if line.lstrip().startswith("//"):
            continue
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n" if out else None


def parses(mlir_opt, chunk):
    """Whether mlir-opt takes the chunk alone (parse and verify)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False,
                                     encoding="utf-8") as f:
        f.write(chunk)
        tmp = f.name
    try:
        r = subprocess.run([mlir_opt, tmp, "-o", os.devnull],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
        return r.returncode == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        os.unlink(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", help="folder with the upstream files")
    ap.add_argument("--mlir-opt", default="mlir-opt-22")
    args = ap.parse_args()

    manifest = ["# file\tllvm-project path\tcommit\tcharacters\t"
                "sha256 (of the upstream text)\tchunks kept\tchunks upstream"]
    for path, commit in FILES:
        src = os.path.join(args.raw, path)
        if not os.path.exists(src):
            print(f"{path}: not in {args.raw}, skipped", file=sys.stderr)
            continue
        with open(src, encoding="utf-8", newline="") as f:
            text = f.read()
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        raw = chunks_of(text)
        # Diagnostic tests go whole; the rest lose their comments.
        kept = [clean(c) for c in raw
                if not any(d in l for l in c for d in DIAGNOSTICS)]
        kept = [c for c in kept if c is not None]
        cleaned = len(kept)
        kept = [c for c in kept if parses(args.mlir_opt, c)]
        name = out_name(path)
        header = (f"// From llvm-project {path} at {commit}.\n"
                  "// Part of the LLVM Project, under the Apache License v2.0"
                  " with LLVM Exceptions.\n"
                  "// CHECK and RUN lines removed; see corpus/lit/README.md.\n")
        dest = os.path.join(HERE, name)
        if kept:
            with open(dest, "w", encoding="utf-8", newline="\n") as f:
                f.write(header + "\n" + f"\n{SPLIT}\n\n".join(kept))
        elif os.path.exists(dest):
            os.unlink(dest)  # nothing left: no file, the manifest says 0
        manifest.append("\t".join([name, path, commit, str(len(text)), sha,
                                   str(len(kept)), str(len(raw))]))
        print(f"{name}: {len(raw)} upstream, {cleaned} after the rules, "
              f"{cleaned - len(kept)} refused by {args.mlir_opt}, "
              f"{len(kept)} kept")
    with open(os.path.join(HERE, "MANIFEST.tsv"), "w", encoding="utf-8",
              newline="\n") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
