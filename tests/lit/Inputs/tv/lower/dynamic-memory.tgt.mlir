#map = affine_map<(d0)[s0] -> (d0 + s0)>
func.func @fold_store(%m: memref<?x?xf32>, %o0: index, %o1: index, %n0: index, %n1: index, %i: index, %j: index, %v: f32) {
  %a = affine.apply #map(%i)[%o0]
  %b = affine.apply #map(%j)[%o1]
  memref.store %v, %m[%a, %b] : memref<?x?xf32>
  return
}

func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

func.func @scale(%a: memref<?xf32>, %b: memref<?xf32>, %k: f32) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %k : f32
    linalg.yield %r : f32
  }
  return
}
