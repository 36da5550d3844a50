// The named pipelines: full textual pass pipelines from TOSA to the LLVM
// dialect, each covering a family of passes that real compilers use.
#include "backends/mlir/MlirBackend.h"

namespace cc {

// Pieces shared by every pipeline (the GPU backend's too); the families
// differ in what runs between them.
// transpose_conv2d has no linalg lowering: it needs the decompositions.
const char *const kTosaToLinalgPasses =
    "tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,"
    "tosa-to-arith{include-apply-rescale},tosa-to-tensor";
// Results become caller-allocated out-params: the JIT calls the function
// with input and output memref descriptors.
const char *const kBufferizeToOutParams =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs "
    "modify-public-functions}";

namespace {
const char *const kTosaToLinalg = kTosaToLinalgPasses;
// A function, not a global: namedPipelines() may run during static
// initialisation elsewhere.
std::string bufferize() {
  return std::string(kBufferizeToOutParams) + ",buffer-deallocation-pipeline";
}
// f16/bf16 math is widened to f32; math ops with an LLVM intrinsic use it,
// the rest (erf) become libm calls; bf16 conversions are expanded because
// the host's runtime library may lack them.
const char *const kToLlvm =
    "math-extend-to-supported-types,convert-math-to-llvm,"
    "convert-math-to-libm,convert-scf-to-cf,expand-strided-metadata,"
    "lower-affine,arith-expand{include-bf16},convert-vector-to-llvm,"
    "convert-to-llvm,reconcile-unrealized-casts";

std::string pipeline(const std::string &onTensors, const std::string &onBuffers,
                     const std::string &beforeLlvm = "") {
  std::string p = "builtin.module(func.func(" + onTensors + ")," + bufferize() +
                  ",func.func(" + onBuffers + "),";
  if (!beforeLlvm.empty())
    p += beforeLlvm + ",";
  return p + kToLlvm + ")";
}

std::vector<NamedPipeline> makePipelines() {
  std::string lower = kTosaToLinalg;
  return {
      {"tosa-O0",
       "straight lowering: TOSA to linalg, bufferize, linalg to loops, "
       "libm math; LLVM -O0",
       "builtin.module(func.func(" + lower + ")," + bufferize() +
           ",func.func(convert-linalg-to-loops),"
           // libm for every math op, unlike the other pipelines; libm has
           // no rsqrtf, which convert-math-to-libm would call. That pass
           // rejects every math op it cannot call libm for: math.ctlz (from
           // integer avg_pool2d), ipowi and fpowi become software
           // implementations first.
           "math-expand-ops{ops=rsqrt},convert-math-to-funcs{convert-ctlz},"
           "math-extend-to-supported-types,convert-math-to-libm," +
           kToLlvm + ")",
       0},
      {"tosa-O3",
       "TOSA canonicalization, constant folding and decompositions, linalg "
       "fusion, affine vectorization; LLVM -O3",
       pipeline("canonicalize,tosa-layerwise-constant-fold,canonicalize," +
                    lower +
                    ",linalg-generalize-named-ops,linalg-fuse-elementwise-ops,"
                    "canonicalize,cse",
                // MLIR 22's super-vectorizer breaks after affine-loop-fusion
                // (invalid broadcast transfer_write on conv2d) and after
                // affine-loop-tile (crash on transpose); tiling lives in
                // tosa-O2-parallel.
                "convert-linalg-to-affine-loops,"
                "affine-super-vectorize{virtual-vector-size=8 "
                "test-fastest-varying=0},"
                "affine-scalrep,canonicalize,cse,lower-affine,"
                "loop-invariant-code-motion",
                "convert-vector-to-scf"),
       3},
      {"tosa-O2-parallel",
       "linalg fusion, parallel loops, loop tiling and fusion; LLVM -O2",
       pipeline(lower + ",linalg-fuse-elementwise-ops,canonicalize",
                "convert-linalg-to-parallel-loops,"
                "scf-parallel-loop-tiling{parallel-loop-tile-sizes=4,4},"
                "scf-parallel-loop-fusion,canonicalize,cse"),
       2},
      {"tosa-O1-expand",
       "aggressive constant folding, integer-range narrowing, arith and "
       "math expansion; LLVM -O1",
       pipeline("tosa-layerwise-constant-fold{aggressive-reduce-constant},"
                "canonicalize," +
                    lower +
                    ",linalg-generalize-named-ops,linalg-fuse-elementwise-ops,"
                    "linalg-inline-scalar-operands",
                "convert-linalg-to-loops,int-range-optimizations,"
                "arith-int-range-narrowing{int-bitwidths-supported=32},"
                "arith-expand,math-expand-ops,math-uplift-to-fma,canonicalize,"
                "cse"),
       1},
  };
}

// Mid-level pipelines: the straight lowering with the passes under test
// inserted (StraightInserts), so that a difference from `straight` is
// theirs; for generated mid-level programs (and TOSA graphs alike).
std::vector<NamedPipeline> midPipelines() {
  auto mid = [](const char *name, const char *summary, StraightInserts at,
                int llvm) {
    NamedPipeline p = straightLowering(at, llvm);
    return NamedPipeline{name, summary, p.pipeline, llvm};
  };
  const char *canon = "canonicalize,cse";
  const char *intRange = "int-range-optimizations,"
                         "arith-int-range-narrowing{int-bitwidths-supported="
                         "8,16,32},canonicalize";
  const char *linalg = "linalg-generalize-named-ops,linalg-fold-unit-extent-"
                       "dims,linalg-fuse-elementwise-ops,"
                       "linalg-inline-scalar-operands,canonicalize,cse";
  // Not scf-for-loop-peeling: it runs zero-trip loops once (known
  // upstream: #223232, corpus/regressions/scf-for-loop-peeling-zero-trip).
  const char *loops = "scf-for-loop-canonicalization,"
                      "scf-for-loop-range-folding,loop-invariant-code-motion,"
                      "canonicalize,cse";
  // On the affine loop nests of programs (memref family) before
  // bufferization: the linalg loops are scf.
  const char *affine = "affine-loop-normalize,affine-loop-invariant-code-"
                       "motion,affine-scalrep,affine-loop-fusion,affine-loop-"
                       "unroll{unroll-factor=2},affine-loop-coalescing,"
                       "affine-simplify-structures";
  std::string all = std::string(linalg) + "," + intRange + "," + affine;
  // Linalg on buffers as affine loops, tiled and vectorized (MLIR's linalg
  // tiling and vectorization are transform-dialect driven; these are their
  // pass-pipeline form). Not in mid-O3: the integer-range passes crash on
  // the tiled loops (known upstream: #180312).
  // Tiling comes after vectorization: the vectorizer crashes on the inner
  // loops of a tiled nest (known upstream: #121321, fixed by PR #184770).
  const char *vectorize = "convert-linalg-to-affine-loops,affine-super-"
                          "vectorize{virtual-vector-size=4},affine-loop-tile{"
                          "tile-size=2}";
  // No math expansion: the others (tanh, powf, fpowi, fma, ...)
  // approximate, and the outputs are compared exactly; the exact ones have
  // known bugs: round and roundeven (corpus/regressions/
  // math-expand-round-below-half), ctlz of index (math-expand-ops-ctlz-
  // index), ceil of NaN, Inf and huge values (known upstream: #151786).
  const char *expand = "arith-expand";
  std::string allLoops = std::string(loops) + "," + intRange + "," + expand +
                         ",math-uplift-to-fma";
  return {
      {"straight",
       "direct conversions only (the reference lowering of "
       "mid-level programs); LLVM -O0",
       straightLowering().pipeline, 0},
      mid("mid-canon",
          "canonicalize and cse on tensors and on loops; "
          "LLVM -O0",
          {canon, "", canon, ""}, 0),
      mid("mid-expand", "arith expansion; LLVM -O0", {expand, "", expand, ""},
          0),
      mid("mid-intrange",
          "integer-range optimizations and narrowing; "
          "LLVM -O0",
          {intRange, "", intRange, ""}, 0),
      mid("mid-linalg",
          "linalg generalization, unit-dimension folding and "
          "elementwise fusion; LLVM -O0",
          {linalg, "", "", ""}, 0),
      mid("mid-loops",
          "scf loop canonicalization, range folding, invariant code "
          "motion; LLVM -O0",
          {"", "", loops, ""}, 0),
      mid("mid-affine",
          "affine loop normalization, invariant code motion, store to load "
          "forwarding, fusion, unrolling, coalescing; LLVM -O0",
          {affine, "", "", ""}, 0),
      mid("mid-vectorize",
          "linalg on buffers to affine loops, vectorized by 4 "
          "(affine-super-vectorize) and tiled by 2; LLVM -O0",
          {"", vectorize, "", ""}, 0),
      mid("mid-O3", "all of the mid-level passes; LLVM -O3",
          {all, "", allLoops, ""}, 3),
  };
}
} // namespace

const NamedPipeline &completionLowering() {
  static const NamedPipeline completion{
      "completion",
      "completes an external compiler's output: every conversion of the "
      "straight lowering, upstream passes only; LLVM -O0",
      "builtin.module(func.func(convert-elementwise-to-linalg," +
          std::string(kTosaToLinalg) +
          "),"
          "one-shot-bufferize{allow-return-allocs-from-loops "
          "bufferize-function-boundaries "
          "function-boundary-type-conversion=identity-layout-map},"
          "buffer-results-to-out-params{hoist-static-allocs "
          "modify-public-functions},buffer-deallocation-pipeline,"
          "convert-bufferization-to-memref,func.func(convert-linalg-to-loops),"
          // Intrinsics first: libm has no copysign, rsqrt or fma call of
          // the math dialect, and convert-math-to-libm rejects what it
          // cannot call.
          "convert-vector-to-scf,convert-math-to-funcs{convert-ctlz},"
          "math-extend-to-supported-types,convert-math-to-llvm,"
          "convert-math-to-libm,expand-strided-metadata,lower-affine,"
          "arith-expand{include-bf16},convert-scf-to-cf,"
          "convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts)",
      0};
  return completion;
}

const std::vector<NamedPipeline> &namedPipelines() {
  static const std::vector<NamedPipeline> pipelines = [] {
    std::vector<NamedPipeline> all = makePipelines();
    for (NamedPipeline &p : midPipelines())
      all.push_back(std::move(p));
    return all;
  }();
  return pipelines;
}

} // namespace cc
