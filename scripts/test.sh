#!/usr/bin/env bash
# Installs everything, builds with warnings as errors and runs the whole test
# suite (GoogleTest unit tests, lit tool tests, the regression corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
start=$(date +%s)
bash scripts/build.sh -DCC_WERROR=ON
echo "build: $(( $(date +%s) - start )) s"
# The libFuzzer end-to-end test (a clang-22 build of the target and 1,000
# executions, about 10 minutes here) runs on its own: ctest -L libfuzzer.
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE libfuzzer
echo "build + tests: $(( $(date +%s) - start )) s"
