func.func @speculate(%c: i1, %m: memref<4xf32>, %d: f32) -> f32 {
  %i = arith.constant 0 : index
  %v = memref.load %m[%i] : memref<4xf32>
  %r = arith.select %c, %v, %d : f32
  return %r : f32
}
func.func @free_view(%x: f32) -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %i = arith.constant 1 : index
  memref.store %x, %a[%i] : memref<4xf32>
  %v = memref.load %a[%i] : memref<4xf32>
  %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.dealloc %s : memref<2xf32, strided<[1], offset: 1>>
  return %v : f32
}
