// Wrong at some sizes only.
#map = affine_map<(d0)[s0] -> (d0 + s0)>
// The column offset forgotten where the subview has one column.
func.func @fold_store(%m: memref<?x?xf32>, %o0: index, %o1: index, %n0: index, %n1: index, %i: index, %j: index, %v: f32) {
  %a = affine.apply #map(%i)[%o0]
  %c1 = arith.constant 1 : index
  %one = arith.cmpi eq, %n1, %c1 : index
  %b0 = affine.apply #map(%j)[%o1]
  %b = arith.select %one, %j, %b0 : index
  memref.store %v, %m[%a, %b] : memref<?x?xf32>
  return
}

// At most three elements copied: right at sizes 2 and 3 only.
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %k = arith.minui %n, %c3 : index
  %sa = memref.subview %a[0] [%k] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  %sb = memref.subview %b[0] [%k] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  memref.copy %sa, %sb : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  return
}

// Reads %b after writing it: wrong where %a and %b are one buffer.
func.func @scale(%a: memref<?xf32>, %b: memref<?xf32>, %k: f32) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %k : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %k : f32
    linalg.yield %r : f32
  }
  return
}
