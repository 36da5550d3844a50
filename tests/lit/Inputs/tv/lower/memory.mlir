// The memory model. @speculate: the target loads from %m although the
// source does not when %c is false; %m may not be dereferenceable, so the
// target is undefined where the source is not. @free_view: deallocating a
// subview instead of the allocation is undefined.
func.func @speculate(%c: i1, %m: memref<4xf32>, %d: f32) -> f32 {
  %r = scf.if %c -> f32 {
    %i = arith.constant 0 : index
    %v = memref.load %m[%i] : memref<4xf32>
    scf.yield %v : f32
  } else {
    scf.yield %d : f32
  }
  return %r : f32
}
func.func @free_view(%x: f32) -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %i = arith.constant 1 : index
  memref.store %x, %a[%i] : memref<4xf32>
  %v = memref.load %a[%i] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return %v : f32
}
