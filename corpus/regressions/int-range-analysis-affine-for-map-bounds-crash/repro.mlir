// An affine.for whose bounds are affine maps of a value (as affine-loop-tile
// and affine-super-vectorize write them): int-range-optimizations crashes.
func.func @f(%m: memref<8xi32>, %n: index) {
  affine.for %j = affine_map<(d0) -> (d0)>(%n) to affine_map<(d0) -> (d0 + 2)>(%n) {
    %v = affine.load %m[%j] : memref<8xi32>
    affine.store %v, %m[%j] : memref<8xi32>
  }
  return
}
