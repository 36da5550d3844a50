#!/usr/bin/env python3
"""check_dashboard.py INDEX.html SCREENSHOT.png: loads the dashboard in
headless Chromium, fails if the page did not finish loading or reported an
error (the page records script errors and failed resources into its root
element; Chromium's console log on stderr is checked too), and saves a
screenshot."""
import os
import re
import subprocess
import sys
import tempfile

page, shot = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
home = tempfile.mkdtemp(prefix="cc-chromium-")
env = dict(os.environ, HOME=home)
base = ["chromium", "--headless", "--disable-gpu", "--no-sandbox",
        "--no-first-run", "--user-data-dir=" + os.path.join(home, "profile"),
        "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000"]
url = "file://" + page

dom = subprocess.run(base + ["--dump-dom", url], env=env, capture_output=True,
                     text=True, timeout=120)
if dom.returncode != 0:
    sys.exit("check_dashboard: chromium --dump-dom failed (%d): %s"
             % (dom.returncode, dom.stderr[-2000:]))
root = re.search(r"<html[^>]*>", dom.stdout)
if not root or 'data-loaded="ok"' not in root.group(0):
    sys.exit("check_dashboard: the page did not finish loading: %s"
             % (root.group(0) if root else dom.stdout[:200]))
if "data-errors" in root.group(0):
    sys.exit("check_dashboard: the page reported errors: " + root.group(0))
console = [l for l in dom.stderr.splitlines()
           if "CONSOLE" in l or "Uncaught" in l]
if console:
    sys.exit("check_dashboard: console messages:\n" + "\n".join(console))

snap = subprocess.run(base + ["--window-size=1280,1800",
                              "--screenshot=" + shot, url],
                      env=env, capture_output=True, text=True, timeout=120)
if snap.returncode != 0 or not os.path.getsize(shot):
    sys.exit("check_dashboard: no screenshot: " + snap.stderr[-2000:])
with open(shot, "rb") as f:
    if f.read(8) != b"\x89PNG\r\n\x1a\n":
        sys.exit("check_dashboard: the screenshot is not a PNG")
print("dashboard loaded: no errors; %d svg plots; screenshot %d bytes"
      % (dom.stdout.count("<svg"), os.path.getsize(shot)))
