func.func @f(%m: memref<2xi32>, %x: i32) -> i32 {
  %c = bufferization.clone %m : memref<2xi32> to memref<2xi32>
  %i = arith.constant 0 : index
  memref.store %x, %m[%i] : memref<2xi32>
  %v = memref.load %m[%i] : memref<2xi32>
  memref.dealloc %c : memref<2xi32>
  return %v : i32
}
