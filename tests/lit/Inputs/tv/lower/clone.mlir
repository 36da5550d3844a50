// bufferization.clone: a copy; the target that reads the clone after
// writing the original is wrong, the one that reads the original before
// the write is right.
func.func @f(%m: memref<2xi32>, %x: i32) -> i32 {
  %c = bufferization.clone %m : memref<2xi32> to memref<2xi32>
  %i = arith.constant 0 : index
  %v = memref.load %c[%i] : memref<2xi32>
  memref.store %x, %m[%i] : memref<2xi32>
  memref.dealloc %c : memref<2xi32>
  return %v : i32
}
