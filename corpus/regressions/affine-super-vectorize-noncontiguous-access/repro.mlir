// b[i] = a[(i + 2) mod 3]: the loads are not contiguous in i (2, 0, 1).
func.func @f(%a: memref<3xf64>, %b: memref<3xf64>) {
  affine.for %i = 0 to 3 {
    %v = affine.load %a[(%i + 2) mod 3] : memref<3xf64>
    affine.store %v, %b[%i] : memref<3xf64>
  }
  return
}
