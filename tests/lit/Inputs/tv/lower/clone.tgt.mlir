func.func @f(%m: memref<2xi32>, %x: i32) -> i32 {
  %i = arith.constant 0 : index
  %v = memref.load %m[%i] : memref<2xi32>
  memref.store %x, %m[%i] : memref<2xi32>
  return %v : i32
}
