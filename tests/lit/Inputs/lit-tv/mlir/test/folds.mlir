// RUN: mlir-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: mlir-opt %s --load-pass-plugin=plugin.so -canonicalize | FileCheck %s
// A lit-style file of crosscheck's own for bench/lit_tv.py: a legal fold,
// an illegal one (index.cmp of 0 - x against 0, llvm/llvm-project#216042),
// an op of MLIR's test dialect, and a chunk mlir-opt rejects.

func.func @legal(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = arith.addi %x, %c0 : i32
  return %r : i32
}

// -----

func.func @cmp_of_negation(%x: index) -> i1 {
  %z = index.constant 0
  %n = index.sub %z, %x
  %r = index.cmp sgt(%n, %z)
  return %r : i1
}

// -----

func.func @test_dialect(%x: i32) -> i32 {
  %t = "test.constant"() {value = 7 : i64} : () -> i32
  %c0 = arith.constant 0 : i32
  %s = arith.addi %t, %c0 : i32
  %r = arith.addi %x, %s : i32
  return %r : i32
}

// -----

func.func @rejected(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i64
  return %r : i32
}
