// What mlir-opt reads and crosscheck must read too, against read.tgt.mlir:
// vector arguments and results, a dense_resource constant, an op of a
// dialect crosscheck does not link, ub.poison, the extended-arithmetic ops
// and a multi_reduction without reduced dimensions.
func.func @vector_args(%a: vector<2x3xi32>) -> vector<2x3xi32> {
  %c = arith.constant dense<1> : vector<2x3xi32>
  %r = arith.addi %a, %c : vector<2x3xi32>
  return %r : vector<2x3xi32>
}
func.func @vector_index(%a: vector<4xindex>) -> vector<4xindex> {
  return %a : vector<4xindex>
}
func.func @resource(%x: tensor<2xi32>) -> tensor<2xi32> {
  %c = arith.constant dense_resource<blob1> : tensor<2xi32>
  %r = arith.addi %x, %c : tensor<2xi32>
  return %r : tensor<2xi32>
}
func.func @unregistered(%x: i32) -> i32 {
  %t = "test.constant"() {value = 7 : i64} : () -> i32
  %r = arith.addi %x, %t : i32
  return %r : i32
}
func.func @poison(%x: i32) -> i32 {
  %p = ub.poison : i32
  %r = arith.addi %x, %p : i32
  return %r : i32
}
func.func @mulsi_high(%x: i32, %y: i32) -> i32 {
  %lo, %hi = arith.mulsi_extended %x, %y : i32
  return %hi : i32
}
func.func @addui_carry(%x: i8) -> i1 {
  %c = arith.constant 1 : i8
  %s, %o = arith.addui_extended %x, %c : i8, i1
  return %o : i1
}
func.func @no_reduced_dims(%a: vector<2xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
  %r = vector.multi_reduction <mul>, %a, %acc [] : vector<2xf32> to vector<2xf32>
  return %r : vector<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000"
    }
  }
#-}
func.func @memref_result(%x: f32) -> memref<2xf32> {
  %m = memref.alloc() : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %x, %m[%c0] : memref<2xf32>
  memref.store %x, %m[%c1] : memref<2xf32>
  return %m : memref<2xf32>
}
