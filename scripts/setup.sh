#!/usr/bin/env bash
# Installs every Debian package crosscheck needs (see docs/ARCHITECTURE.md).
# Idempotent: packages already installed are skipped. Run as root on Debian 12.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  clang-22 libclang-rt-22-dev clang-format-22
  libz3-dev libseccomp-dev libre2-dev
  libtorch-dev
  libonnx-dev libonnx-testdata libprotobuf-dev
  python3-torch python3-torchvision python3-onnx
  nlohmann-json3-dev libsqlite3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  graphviz
  python3-jsonschema python3-yaml libxml2-utils
  chromium
  mlir-19-tools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: need root to install: ${missing[*]}" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
