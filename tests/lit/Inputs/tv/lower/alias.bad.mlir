// @reload's second load of %a forwarded from the first, as if %b could not
// be %a: wrong where it is.
func.func @reload(%a: memref<2xf32>, %b: memref<2xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = memref.load %a[%c0] : memref<2xf32>
  memref.store %one, %b[%c0] : memref<2xf32>
  %r = arith.addf %x, %x : f32
  return %r : f32
}
