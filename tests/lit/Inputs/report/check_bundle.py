#!/usr/bin/env python3
"""check_bundle.py DIR: checks that a bug bundle holds every file and that
each is valid: .npy headers and sizes, JSON, well-formed SVG, an executable
repro.sh, a README with its sections. Prints one line per file checked and
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
required = ["README.md", "repro.sh", "repro.mlir", "input.mlir", "graph.json",
            "graph.dot", "graph.svg", "finding.json", "repro.out", "input_0.npy",
            "expected_0.npy"]
for name in required:
    if not os.path.isfile(os.path.join(d, name)):
        fail("missing " + name)
for name in sorted(os.listdir(d)):
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
print("bundle ok: " + os.path.basename(os.path.normpath(d)))
