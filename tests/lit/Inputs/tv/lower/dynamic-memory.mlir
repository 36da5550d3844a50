// Memrefs of dynamic size, checked at every size (RefineSymbolicMemory.cpp).

// A subview folded into the store's index.
func.func @fold_store(%m: memref<?x?xf32>, %o0: index, %o1: index, %n0: index, %n1: index, %i: index, %j: index, %v: f32) {
  %s = memref.subview %m[%o0, %o1] [%n0, %n1] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  memref.store %v, %s[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
  return
}

// A whole copy.
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}

// A scaled copy through a temporary buffer.
func.func @scale(%a: memref<?xf32>, %b: memref<?xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%t : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %k : f32
    linalg.yield %r : f32
  }
  memref.copy %t, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return
}
