// y[i] = round(x[i]) on f32 with x = [0.49999997, -0.49999997, 2.5, 1.5];
// @main prints y, expected [0, -0, 3, 2].
func.func @round(%x: memref<4xf32>, %y: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %a = affine.load %x[%i] : memref<4xf32>
    %r = math.round %a : f32
    affine.store %r, %y[%i] : memref<4xf32>
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %x = memref.alloc() : memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %v0 = arith.constant 0.49999997 : f32
  %v1 = arith.constant -0.49999997 : f32
  %v2 = arith.constant 2.5 : f32
  %v3 = arith.constant 1.5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  memref.store %v0, %x[%c0] : memref<4xf32>
  memref.store %v1, %x[%c1] : memref<4xf32>
  memref.store %v2, %x[%c2] : memref<4xf32>
  memref.store %v3, %x[%c3] : memref<4xf32>
  call @round(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  %u = memref.cast %y : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
