// Targets for read.mlir. vector_args adds 2 (wrong); vector_index is
// x * 1 + 1 (wrong); resource adds [1, 3] (wrong, the blob holds [1, 2]);
// unregistered keeps the op with its attribute as a property (the generic
// printer's form); poison returns 0; mulsi_high is the product's high half
// through i64; addui_carry is x == 255; no_reduced_dims is the source.
func.func @vector_args(%a: vector<2x3xi32>) -> vector<2x3xi32> {
  %c = arith.constant dense<2> : vector<2x3xi32>
  %r = arith.addi %a, %c : vector<2x3xi32>
  return %r : vector<2x3xi32>
}
func.func @vector_index(%a: vector<4xindex>) -> vector<4xindex> {
  %c = arith.constant dense<1> : vector<4xindex>
  %m = arith.muli %a, %c : vector<4xindex>
  %r = arith.addi %m, %c : vector<4xindex>
  return %r : vector<4xindex>
}
func.func @resource(%x: tensor<2xi32>) -> tensor<2xi32> {
  %c = arith.constant dense<[1, 3]> : tensor<2xi32>
  %r = arith.addi %x, %c : tensor<2xi32>
  return %r : tensor<2xi32>
}
func.func @unregistered(%x: i32) -> i32 {
  %t = "test.constant"() <{value = 7 : i64}> : () -> i32
  %r = arith.addi %t, %x : i32
  return %r : i32
}
func.func @poison(%x: i32) -> i32 {
  %z = arith.constant 0 : i32
  return %z : i32
}
func.func @mulsi_high(%x: i32, %y: i32) -> i32 {
  %a = arith.extsi %x : i32 to i64
  %b = arith.extsi %y : i32 to i64
  %p = arith.muli %a, %b : i64
  %c = arith.constant 32 : i64
  %h = arith.shrsi %p, %c : i64
  %r = arith.trunci %h : i64 to i32
  return %r : i32
}
func.func @addui_carry(%x: i8) -> i1 {
  %m = arith.constant -1 : i8
  %r = arith.cmpi eq, %x, %m : i8
  return %r : i1
}
func.func @no_reduced_dims(%a: vector<2xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
  return %a : vector<2xf32>
}
// memref_result writes 0 to the second element (wrong).
func.func @memref_result(%x: f32) -> memref<2xf32> {
  %m = memref.alloc() : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  memref.store %x, %m[%c0] : memref<2xf32>
  memref.store %z, %m[%c1] : memref<2xf32>
  return %m : memref<2xf32>
}
