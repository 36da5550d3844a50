#!/usr/bin/env python3
"""check_bundle.py DIR: checks that a bug bundle holds every file and that
each is valid: .npy headers and sizes (one inputs/<name>.npy per graph
input), JSON, well-formed SVG, an executable repro.sh, a README and an
ISSUE.md with their sections. Prints one line per file checked and
exits 1 on the first problem."""
import ast
import json
import os
import struct
import sys
import xml.dom.minidom

ITEMSIZE = {"b1": 1, "i1": 1, "i2": 2, "i4": 4, "i8": 8, "u1": 1, "f2": 2,
            "f4": 4, "f8": 8}


def fail(msg):
    sys.exit("check_bundle: " + msg)


def check_npy(path):
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        fail(path + ": no NumPy magic")
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    if (start + hlen) % 64 != 0:
        fail(path + ": header not padded to 64 bytes")
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    for key in ("descr", "fortran_order", "shape"):
        if key not in header:
            fail(path + ": header lacks " + key)
    size = ITEMSIZE.get(header["descr"][1:])
    if size is None:
        fail(path + ": unknown dtype " + header["descr"])
    count = 1
    for d in header["shape"]:
        count *= d
    if len(data) - start - hlen != count * size:
        fail(path + ": %d data bytes, header says %d"
             % (len(data) - start - hlen, count * size))
    return header


d = sys.argv[1]
required = ["README.md", "ISSUE.md", "repro.sh", "repro.mlir", "compare.awk",
            "expected.txt", "input.mlir", "graph.json", "graph.dot", "graph.svg",
            "finding.json", "repro.out", "expected_0.npy"]
for name in required:
    if not os.path.isfile(os.path.join(d, name)):
        fail("missing " + name)
graph = json.load(open(os.path.join(d, "graph.json")))
for i in graph["inputs"]:
    if not os.path.isfile(os.path.join(d, "inputs", i["name"] + ".npy")):
        fail("missing inputs/%s.npy" % i["name"])
names = sorted(os.listdir(d)) + sorted(
    "inputs/" + n for n in os.listdir(os.path.join(d, "inputs")))
for name in names:
    path = os.path.join(d, name)
    if name.endswith(".npy"):
        h = check_npy(path)
        print("npy ok: %s %s %s" % (name, h["descr"], list(h["shape"])))
    elif name.endswith(".json"):
        j = json.load(open(path))
        print("json ok: %s (%s)" % (name, j.get("format", "?")))
    elif name.endswith(".svg"):
        xml.dom.minidom.parse(path)
        print("svg ok: " + name)
if not os.access(os.path.join(d, "repro.sh"), os.X_OK):
    fail("repro.sh is not executable")
readme = open(os.path.join(d, "README.md")).read()
for section in ("# ", "## What happened", "## Reproduce", "## The graph",
                "## Culprit", "## Numeric evidence", "## Versions",
                'src="graph.svg"'):
    if section not in readme:
        fail("README.md lacks " + section)
issue = open(os.path.join(d, "ISSUE.md")).read()
for section in ("# [mlir] ", "**Pass:**", "## Input", "## Command",
                "mlir-opt repro.mlir --pass-pipeline=",
                "## Expected versus actual", "## Why it is a bug",
                "## Versions"):
    if section not in issue:
        fail("ISSUE.md lacks " + section)
for internal in ("crosscheck", "cc-mutant", "fingerprint", "campaign"):
    if internal in issue:
        fail("ISSUE.md names " + internal)
print("bundle ok: " + os.path.basename(os.path.normpath(d)))
