// Seed programs from MLIR files nobody here wrote (backends/mlir
// seedPrograms) and their constant mutation (generators/ProgramSeeds.cpp).
#include "generators/Program.h"

#include "backends/mlir/MlirBackend.h"
#include "core/File.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace cc;

namespace {

const char *const kFile = R"(// RUN: mlir-opt %s -canonicalize | FileCheck %s
func.func @ceil(%a: i32) -> i32 {
  %c = arith.constant 7 : i32
  %r = arith.ceildivsi %a, %c : i32
  return %r : i32
}

// -----

func.func @idx(%a: index, %t: tensor<2xindex>) -> (index, tensor<2xindex>) {
  %c = arith.constant 3 : index
  %r = arith.addi %a, %c : index
  return %r, %t : index, tensor<2xindex>
}

// -----

func.func private @ext(i32) -> i32
func.func @callsExt(%a: i32) -> i32 {
  %r = func.call @ext(%a) : (i32) -> i32
  return %r : i32
}

// -----

func.func @vec(%v: vector<4xi32>) -> vector<4xi32> {
  return %v : vector<4xi32>
}

// -----

func.func @bad(%a: i32) -> i64 {
  return %a : i32
}
)";

Outputs runStraight(const MlirProgram &p, const Inputs &in) {
  NamedPipeline straight = straightLowering();
  auto out = runMlirModule(p.mlir, p.name, p.results, in, straight.pipeline,
                           straight.llvmOptLevel);
  EXPECT_TRUE(bool(out)) << out.error().message() << "\n" << p.mlir;
  return out ? *out : Outputs{};
}

Tensor i32Scalar(int64_t v) {
  Tensor t(TensorType{DType::i32, {}});
  t.setI(0, v);
  return t;
}

// Functions that take and give scalars, indices and static tensors become
// programs over tensors; a chunk that calls a bodiless function, takes a
// vector or fails the verifier gives none.
TEST(SeedPrograms, WrapsScalarsAndIndicesAndSkipsWhatCannotRun) {
  std::vector<MlirProgram> ps = seedPrograms(kFile, "t.mlir");
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].source, "t.mlir, chunk 1, @ceil");
  EXPECT_EQ(ps[1].source, "t.mlir, chunk 2, @idx");
  EXPECT_EQ(ps[0].name, "cc_main");
  EXPECT_EQ(ps[0].args, (std::vector<TensorType>{{DType::i32, {}}}));
  EXPECT_EQ(ps[1].args,
            (std::vector<TensorType>{{DType::i64, {}}, {DType::i64, {2}}}));
  EXPECT_EQ(ps[1].results, ps[1].args);
  for (const MlirProgram &p : ps)
    EXPECT_FALSE(verifyMlir(p.mlir)) << p.mlir;

  Outputs ceil = runStraight(ps[0], {i32Scalar(-10)});
  ASSERT_EQ(ceil.size(), 1u);
  EXPECT_EQ(ceil[0].getI(0), -1); // ceil(-10 / 7)
  Tensor a(TensorType{DType::i64, {}}), t(TensorType{DType::i64, {2}});
  a.setI(0, 40);
  t.setI(0, -5), t.setI(1, 9);
  Outputs idx = runStraight(ps[1], {a, t});
  ASSERT_EQ(idx.size(), 2u);
  EXPECT_EQ(idx[0].getI(0), 43);
  EXPECT_EQ(idx[1].getI(1), 9);
}

// The lit-test corpus gives programs that MLIR verifies.
TEST(SeedPrograms, CorpusLitGivesVerifiedPrograms) {
  namespace fs = std::filesystem;
  size_t programs = 0;
  for (const auto &e : fs::directory_iterator(CC_SOURCE_DIR "/corpus/lit")) {
    if (e.path().extension() != ".mlir")
      continue;
    auto text = readFile(e.path().string());
    ASSERT_TRUE(bool(text));
    for (const MlirProgram &p : seedPrograms(*text, "f")) {
      ++programs;
      EXPECT_FALSE(verifyMlir(p.mlir)) << p.source;
    }
  }
  EXPECT_GE(programs, 100u);
}

// Constants used only by arithmetic change to edge values of their type,
// deterministically; a loop bound does not.
TEST(SeedPrograms, MutationSetsArithmeticConstantsToEdgeValues) {
  MlirProgram p;
  p.mlir = R"(func.func @f(%a: i8, %t: tensor<4xf32>) -> (i8, tensor<4xf32>) {
  %c5_i8 = arith.constant 5 : i8
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.000000e+00 : f32
  %r = arith.muli %a, %c5_i8 : i8
  %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %t) -> (tensor<4xf32>) {
    %e = tensor.extract %x[%i] : tensor<4xf32>
    %s = arith.addf %e, %cst : f32
    %y = tensor.insert %s into %x[%i] : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r, %l : i8, tensor<4xf32>
}
)";
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    MlirProgram m = mutateSeedConstants(p, seed, 2);
    EXPECT_EQ(m.mlir, mutateSeedConstants(p, seed, 2).mlir);
    EXPECT_FALSE(verifyMlir(m.mlir)) << m.mlir;
    EXPECT_NE(m.mlir.find("%c0 = arith.constant 0 : index"), std::string::npos);
    EXPECT_NE(m.mlir.find("%c4 = arith.constant 4 : index"), std::string::npos);
    EXPECT_NE(m.mlir.find("%c1 = arith.constant 1 : index"), std::string::npos);
    seen.insert(m.mlir);
  }
  EXPECT_GT(seen.size(), 10u);
  bool extreme = false, nan = false;
  for (const std::string &s : seen) {
    extreme |= s.find("arith.constant -128 : i8") != std::string::npos;
    nan |= s.find("arith.constant 0x7FC00000 : f32") != std::string::npos;
  }
  EXPECT_TRUE(extreme);
  EXPECT_TRUE(nan);
}

} // namespace
