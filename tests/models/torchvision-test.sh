#!/usr/bin/env bash
# Real topologies through the importer: every torchvision network that
# scripts/export_models.py exports (random weights, seed 0) imports, and the
# reference agrees with PyTorch's own output within the numeric oracle's
# bounds; the committed seed models (corpus/models) also agree with the
# reference through mlir:tosa-O0. Skipped (77) without Debian's
# python3-torch, python3-torchvision and python3-onnx.
#   torchvision-test.sh CROSSCHECK WORKDIR
set -euo pipefail
crosscheck=$1 work=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
if ! "$python" -c 'import torch, torchvision, onnx' 2>/dev/null; then
  echo "torch, torchvision or onnx is not installed: skipped"
  exit 77
fi
rm -rf "$work"
"$python" "$root/scripts/export_models.py" "$work"
exported=$(find "$work" -name model.onnx | wc -l)
out=$("$crosscheck" onnx-conformance "$work" --cut none)
echo "$out"
echo "$out" | grep -qx "ref: $exported pass, 0 fail, 0 unsupported" ||
  { echo "FAIL: not every exported model imports and agrees with PyTorch"; exit 1; }
out=$("$crosscheck" onnx-conformance "$root/corpus/models" --cut mlir:tosa-O0)
echo "$out"
seeds=$(find "$root/corpus/models" -name model.onnx | wc -l)
echo "$out" | grep -qx "mlir: $seeds pass, 0 fail, 0 unsupported" ||
  { echo "FAIL: a seed model disagrees on mlir:tosa-O0"; exit 1; }
echo "PASS: $exported exported models agree with PyTorch; $seeds seed models with tosa-O0"
