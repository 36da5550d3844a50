#!/usr/bin/env bash
# Installs everything, builds with warnings as errors and runs the whole test
# suite (GoogleTest unit tests, lit tool tests, the regression corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
start=$(date +%s)
bash scripts/build.sh -DCC_WERROR=ON
echo "build: $(( $(date +%s) - start )) s"
ctest --test-dir build --output-on-failure -j "$(nproc)"
echo "build + tests: $(( $(date +%s) - start )) s"
