"""Checks the example CI files: check_examples.py CROSSCHECK EXAMPLES_DIR.

Each YAML file must parse, and every --flag given to `crosscheck fuzz` or
`crosscheck merge` in it must be one that command's --help documents."""
import re
import subprocess
import sys
from pathlib import Path

import yaml

crosscheck, examples = sys.argv[1], Path(sys.argv[2])
documented = {}
for command in ("fuzz", "merge"):
    text = subprocess.run([crosscheck, command, "--help"], check=True,
                          capture_output=True, text=True).stdout
    documented[command] = set(re.findall(r"(--[a-z][a-z-]*)", text))

files = sorted(examples.rglob("*.yml")) + sorted(examples.rglob("*.yaml"))
assert files, "no example files under %s" % examples
bad = []
for path in files:
    yaml.safe_load(path.read_text())
    # Join continuation lines, then look at each crosscheck invocation.
    text = path.read_text().replace("\\\n", " ")
    for m in re.finditer(r"crosscheck (fuzz|merge)\b([^\n]*)", text):
        for flag in re.findall(r"(--[a-z][a-z-]*)", m.group(2)):
            if flag not in documented[m.group(1)]:
                bad.append("%s: crosscheck %s %s" % (path.name, m.group(1), flag))
    print("%s: ok" % path.name)
if bad:
    print("unknown flags:\n  " + "\n  ".join(bad))
    sys.exit(1)
