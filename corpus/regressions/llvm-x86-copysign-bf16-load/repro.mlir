// y[i] = ceil(x[i]) on bf16 with x = [-1.5, -0.5, 1.5, -2]; @main prints y
// widened to f32, expected [-1, -0, 2, -2].
func.func @ceil(%x: memref<4xbf16>, %y: memref<4xbf16>) {
  affine.for %i = 0 to 4 {
    %a = affine.load %x[%i] : memref<4xbf16>
    %c = math.ceil %a : bf16
    affine.store %c, %y[%i] : memref<4xbf16>
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %x = memref.alloc() : memref<4xbf16>
  %y = memref.alloc() : memref<4xbf16>
  %o = memref.alloc() : memref<4xf32>
  %v0 = arith.constant -1.5 : bf16
  %v1 = arith.constant -0.5 : bf16
  %v2 = arith.constant 1.5 : bf16
  %v3 = arith.constant -2.0 : bf16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  memref.store %v0, %x[%c0] : memref<4xbf16>
  memref.store %v1, %x[%c1] : memref<4xbf16>
  memref.store %v2, %x[%c2] : memref<4xbf16>
  memref.store %v3, %x[%c3] : memref<4xbf16>
  call @ceil(%x, %y) : (memref<4xbf16>, memref<4xbf16>) -> ()
  scf.for %i = %c0 to %c4 step %c1 {
    %b = memref.load %y[%i] : memref<4xbf16>
    %f = arith.extf %b : bf16 to f32
    memref.store %f, %o[%i] : memref<4xf32>
  }
  %u = memref.cast %o : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
