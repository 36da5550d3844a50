#!/usr/bin/env python3
"""expect_exit.py N CMD ARGS...: runs CMD, passing its output through, and
exits 0 if CMD exited with status N, else 1 with a message on stderr."""
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit("usage: expect_exit.py STATUS CMD [ARGS...]")
want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect_exit: %s exited with %d, expected %d\n"
                     % (sys.argv[2], got, want))
    sys.exit(1)
