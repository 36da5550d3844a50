#!/usr/bin/env python3
"""hold-lock.py DIR CMD ARGS...: holds DIR's lock (DIR/crosscheck.lock, the
POSIX record lock a running campaign holds) while CMD runs, and exits with
CMD's status: CMD meets DIR exactly as it would meet a running campaign."""
import fcntl
import subprocess
import sys

with open(sys.argv[1] + "/crosscheck.lock", "a") as lock:
    fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    sys.exit(subprocess.call(sys.argv[2:]))
