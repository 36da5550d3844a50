// Translation validation of memory: memref and bufferization ops, affine
// index maps, memref arguments as outputs, undefined behaviour of accesses,
// counterexamples replayed through a tensor-only boundary; and the checks
// that scale to large functions (identical functions, random execution).
#include "smt/Validate.h"
#include "tests/unit/smt/Limits.h"

#include <gtest/gtest.h>

namespace cc::smt {
namespace {

FunctionCheck check(const std::string &src, const std::string &tgt) {
  TvOptions o = deterministicOptions();
  auto r = checkRefinement(src, tgt, o);
  EXPECT_TRUE(r) << r.error().message();
  if (!r || r->empty())
    return {};
  return (*r)[0];
}

// A store followed by a load of the same element is the stored value.
TEST(TvMemory, StoreThenLoadIsTheStoredValue) {
  std::string src = R"(
func.func @f(%m: memref<4xf32>, %x: f32, %i: index) -> f32 {
  memref.store %x, %m[%i] : memref<4xf32>
  %y = memref.load %m[%i] : memref<4xf32>
  return %y : f32
})";
  std::string good = R"(
func.func @f(%m: memref<4xf32>, %x: f32, %i: index) -> f32 {
  memref.store %x, %m[%i] : memref<4xf32>
  return %x : f32
})";
  // Forgetting the store changes the buffer the caller sees.
  std::string bad = R"(
func.func @f(%m: memref<4xf32>, %x: f32, %i: index) -> f32 {
  return %x : f32
})";
  FunctionCheck ok = check(src, good);
  EXPECT_EQ(ok.verdict, TvVerdict::Correct) << ok.reason;
  FunctionCheck wrong = check(src, bad);
  EXPECT_EQ(wrong.verdict, TvVerdict::Incorrect) << wrong.reason;
  EXPECT_NE(wrong.counterexample.find("memory %arg0"), std::string::npos)
      << wrong.counterexample;
  EXPECT_NE(wrong.reason.find("confirmed by execution"), std::string::npos)
      << wrong.reason;
}

// Folding a subview into the load's indices (as fold-memref-alias-ops
// does): correct with the offsets added, incorrect with them swapped.
TEST(TvMemory, SubviewFoldingIsCheckedOnAddresses) {
  std::string src = R"(
func.func @f(%m: memref<6x6xf32>, %a: index, %b: index, %i: index, %j: index) -> f32 {
  %s = memref.subview %m[%a, %b][3, 3][1, 1] : memref<6x6xf32> to memref<3x3xf32, strided<[6, 1], offset: ?>>
  %x = memref.load %s[%i, %j] : memref<3x3xf32, strided<[6, 1], offset: ?>>
  return %x : f32
})";
  std::string fold = R"(
#add = affine_map<(d0)[s0] -> (d0 + s0)>
func.func @f(%m: memref<6x6xf32>, %a: index, %b: index, %i: index, %j: index) -> f32 {
  %r = affine.apply #add(%i)[%a]
  %c = affine.apply #add(%j)[%b]
  %x = memref.load %m[%r, %c] : memref<6x6xf32>
  return %x : f32
})";
  std::string swapped = R"(
#add = affine_map<(d0)[s0] -> (d0 + s0)>
func.func @f(%m: memref<6x6xf32>, %a: index, %b: index, %i: index, %j: index) -> f32 {
  %r = affine.apply #add(%i)[%b]
  %c = affine.apply #add(%j)[%a]
  %x = memref.load %m[%r, %c] : memref<6x6xf32>
  return %x : f32
})";
  FunctionCheck ok = check(src, fold);
  EXPECT_EQ(ok.verdict, TvVerdict::Correct) << ok.reason;
  FunctionCheck wrong = check(src, swapped);
  EXPECT_EQ(wrong.verdict, TvVerdict::Incorrect) << wrong.reason;
}

// An access outside the view is undefined: the source may rely on it, and
// a target that adds one is incorrect.
TEST(TvMemory, OutOfBoundsAccessIsUndefined) {
  std::string guarded = R"(
func.func @f(%m: memref<4xi32>, %i: index) -> i32 {
  %x = memref.load %m[%i] : memref<4xi32>
  return %x : i32
})";
  std::string shifted = R"(
func.func @f(%m: memref<4xi32>, %i: index) -> i32 {
  %c1 = arith.constant 1 : index
  %k = arith.addi %i, %c1 : index
  %x = memref.load %m[%k] : memref<4xi32>
  return %x : i32
})";
  // At %i = 3 the target reads past the end where the source is defined.
  FunctionCheck wrong = check(guarded, shifted);
  EXPECT_NE(wrong.verdict, TvVerdict::Correct) << wrong.reason;
  EXPECT_NE(wrong.counterexample.find("%arg1"), std::string::npos);
  // The other way round the source is undefined at %i = 3, but at %i = 0
  // both are defined and read different elements.
  EXPECT_NE(check(shifted, guarded).verdict, TvVerdict::Correct);
}

// Uninitialized memory is poison: a target may return anything for it.
TEST(TvMemory, UninitializedAllocationIsPoison) {
  std::string src = R"(
func.func @f() -> f32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<2xf32>
  %x = memref.load %m[%c0] : memref<2xf32>
  memref.dealloc %m : memref<2xf32>
  return %x : f32
})";
  std::string tgt = R"(
func.func @f() -> f32 {
  %c = arith.constant 4.0 : f32
  return %c : f32
})";
  FunctionCheck r = check(src, tgt);
  EXPECT_EQ(r.verdict, TvVerdict::Correct) << r.reason;
}

// Writing into the storage of a tensor (bufferization.to_buffer) is
// undefined; a copy into a fresh allocation is fine.
TEST(TvMemory, WritingTheStorageOfATensorIsUndefined) {
  std::string src = R"(
func.func @f(%t: tensor<3xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %r = linalg.fill ins(%z : f32) outs(%t : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
})";
  std::string inPlace = R"(
func.func @f(%t: tensor<3xf32>) -> tensor<3xf32> {
  %m = bufferization.to_buffer %t : tensor<3xf32> to memref<3xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%m : memref<3xf32>)
  %r = bufferization.to_tensor %m : memref<3xf32> to tensor<3xf32>
  return %r : tensor<3xf32>
})";
  std::string fresh = R"(
func.func @f(%t: tensor<3xf32>) -> tensor<3xf32> {
  %m = memref.alloc() : memref<3xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%m : memref<3xf32>)
  %r = bufferization.to_tensor %m : memref<3xf32> to tensor<3xf32>
  return %r : tensor<3xf32>
})";
  FunctionCheck ub = check(src, inPlace);
  EXPECT_NE(ub.verdict, TvVerdict::Correct) << ub.reason;
  EXPECT_NE(ub.counterexample.find("undefined behaviour"), std::string::npos);
  FunctionCheck ok = check(src, fresh);
  EXPECT_EQ(ok.verdict, TvVerdict::Correct) << ok.reason;
}

// Reshaping views: collapse and expand keep the addresses of elements.
TEST(TvMemory, CollapseAndExpandKeepAddresses) {
  std::string src = R"(
func.func @f(%m: memref<2x3xi32>, %i: index, %j: index) -> i32 {
  %x = memref.load %m[%i, %j] : memref<2x3xi32>
  return %x : i32
})";
  std::string tgt = R"(
#lin = affine_map<(d0, d1) -> (d0 * 3 + d1)>
func.func @f(%m: memref<2x3xi32>, %i: index, %j: index) -> i32 {
  %f = memref.collapse_shape %m [[0, 1]] : memref<2x3xi32> into memref<6xi32>
  %k = affine.apply #lin(%i, %j)
  %e = memref.expand_shape %f [[0, 1]] output_shape [6, 1] : memref<6xi32> into memref<6x1xi32>
  %c0 = arith.constant 0 : index
  %x = memref.load %e[%k, %c0] : memref<6x1xi32>
  return %x : i32
})";
  FunctionCheck r = check(src, tgt);
  EXPECT_EQ(r.verdict, TvVerdict::Correct) << r.reason;
}

// A collapsed view takes the stride of its innermost non-unit dimension: a
// column of a 4x8 buffer collapses to a view with stride 8.
TEST(TvMemory, CollapsingAColumnKeepsItsStride) {
  std::string src = R"(
func.func @f(%m: memref<4x8xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%i, %c0] : memref<4x8xf32>
  return %x : f32
})";
  std::string tgt = R"(
func.func @f(%m: memref<4x8xf32>, %i: index) -> f32 {
  %s = memref.subview %m[0, 0][4, 1][1, 1] : memref<4x8xf32> to memref<4x1xf32, strided<[8, 1]>>
  %c = memref.collapse_shape %s [[0, 1]] : memref<4x1xf32, strided<[8, 1]>> into memref<4xf32, strided<[8]>>
  %x = memref.load %c[%i] : memref<4xf32, strided<[8]>>
  return %x : f32
})";
  FunctionCheck r = check(src, tgt);
  EXPECT_EQ(r.verdict, TvVerdict::Correct) << r.reason;
}

// Only what a function allocated may be freed.
TEST(TvMemory, FreeingAnArgumentIsUndefined) {
  std::string src = R"(
func.func @f(%m: memref<2xf32>) {
  return
})";
  std::string tgt = R"(
func.func @f(%m: memref<2xf32>) {
  memref.dealloc %m : memref<2xf32>
  return
})";
  FunctionCheck r = check(src, tgt);
  EXPECT_NE(r.verdict, TvVerdict::Correct) << r.reason;
  EXPECT_NE(r.counterexample.find("undefined behaviour"), std::string::npos);
}

// Functions equal up to value names need no query; a swapped operand is
// not equal.
TEST(TvMemory, IdenticalFunctionsAreRecognized) {
  std::string a = R"(
func.func @f(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %r = tosa.sub %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
})";
  std::string renamed = R"(
func.func @f(%p: tensor<4xi32>, %q: tensor<4xi32>) -> tensor<4xi32> {
  %s = tosa.sub %p, %q : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %s : tensor<4xi32>
})";
  std::string swapped = R"(
func.func @f(%p: tensor<4xi32>, %q: tensor<4xi32>) -> tensor<4xi32> {
  %s = tosa.sub %q, %p : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %s : tensor<4xi32>
})";
  FunctionCheck same = check(a, renamed);
  EXPECT_EQ(same.verdict, TvVerdict::Correct);
  EXPECT_EQ(same.reason, "identical");
  EXPECT_EQ(check(a, swapped).verdict, TvVerdict::Incorrect);
}

// Too many float operations to refine the abstract counterexample: a
// total source is run against the target on seeded random inputs.
TEST(TvMemory, LargeFunctionsAreConfirmedByRandomExecution) {
  std::string add = R"(
func.func @f(%x: tensor<64x80xf32>, %y: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %r = tosa.add %x, %y : (tensor<64x80xf32>, tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
})";
  std::string commuted = R"(
func.func @f(%x: tensor<64x80xf32>, %y: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %r = tosa.add %y, %x : (tensor<64x80xf32>, tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
})";
  std::string sub = R"(
func.func @f(%x: tensor<64x80xf32>, %y: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %r = tosa.sub %x, %y : (tensor<64x80xf32>, tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
})";
  EXPECT_EQ(check(add, commuted).verdict, TvVerdict::Correct);
  FunctionCheck wrong = check(add, sub);
  EXPECT_EQ(wrong.verdict, TvVerdict::Incorrect) << wrong.reason;
  EXPECT_NE(wrong.reason.find("random inputs"), std::string::npos)
      << wrong.reason;
}

} // namespace
} // namespace cc::smt
