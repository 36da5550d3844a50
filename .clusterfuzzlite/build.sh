#!/bin/bash -eu
# Builds crosscheck's libFuzzer target the OSS-Fuzz way: the compilers and
# flags come from $CC, $CXX, $CFLAGS, $CXXFLAGS and $LIB_FUZZING_ENGINE, the
# fuzz target, its options, seed corpus and runtime libraries go to $OUT.
# Works in the ClusterFuzzLite image (WORKDIR is the checkout) and locally:
#   CC=clang-22 CXX=clang++-22 CFLAGS= CXXFLAGS=-fsanitize=fuzzer-no-link \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out SRC=/tmp \
#   .clusterfuzzlite/build.sh
# $WORK (default $OUT/../cflite-work) keeps the CMake build between runs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -f "$PWD/harness/fuzz/LibFuzzerMain.cpp" ]; then
  root="$PWD"
elif [ -f "$here/../harness/fuzz/LibFuzzerMain.cpp" ]; then
  root="$(cd "$here/.." && pwd)"
else
  root="$SRC/crosscheck"
fi
work="${WORK:-$OUT/../cflite-work}"
mkdir -p "$OUT" "$work"

# LLVM/MLIR 22 are shared libraries built against libstdc++: our code must
# use it too (OSS-Fuzz may ask for libc++).
cxxflags="${CXXFLAGS//-stdlib=libc++/}"

# crosscheck is C++ only ($CC and $CFLAGS are not used).
cmake -S "$root" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$cxxflags" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,\$ORIGIN/lib" \
  -DCC_LIBFUZZER=ON -DCC_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" >/dev/null
cmake --build "$work/build" --target cc_fuzz_pipeline -j "$(nproc)"

fuzzer="$work/build/harness/fuzz/cc_fuzz_pipeline"
cp "$fuzzer" "$OUT/cc_fuzz_pipeline"
# The runner image has no LLVM/MLIR: ship the shared libraries the target
# loads (found through its $ORIGIN/lib rpath: LLVM, MLIR, our cc_core) and
# MLIR's JIT runtime.
mkdir -p "$OUT/lib"
ldd "$fuzzer" | awk '/=> \// {print $3}' | grep -E 'lib(LLVM|MLIR|mlir_|cc_)' |
  while read -r lib; do cp -L "$lib" "$OUT/lib/"; done
llvm_lib="$(dirname "$(ldd "$fuzzer" | awk '/libMLIR/ {print $3; exit}')")"
cp -L "$llvm_lib/libmlir_c_runner_utils.so" "$OUT/lib/"

cat > "$OUT/cc_fuzz_pipeline.options" <<OPTIONS
[libfuzzer]
max_len = 65536
timeout = 70
OPTIONS

# Seed corpus: the repository's seed graphs as fuzz inputs.
seeds="$work/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
for g in "$root"/corpus/seeds/*.json; do
  [ -f "$g" ] || continue
  printf '{"graph":%s,"input_seed":1,"cut":0}' "$(tr -d '\n' < "$g")" \
    > "$seeds/$(basename "$g")"
done
if ls "$seeds"/*.json >/dev/null 2>&1; then
  (cd "$seeds" && zip -q -r "$OUT/cc_fuzz_pipeline_seed_corpus.zip" .) ||
    echo "build.sh: zip not found, no seed corpus archive" >&2
fi
