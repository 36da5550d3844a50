// An unmasked vector<2xf32> written at [0, 0] of a tensor<1x3xf32> covers
// elements [0,0] and [0,1] only: %w must be [[9, 9, 3]]. %t is used again,
// so %w gets a new buffer, into which %t must be copied first.
func.func @f(%t: tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<9.0> : vector<2xf32>
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<2xf32>, tensor<1x3xf32>
  return %w, %t : tensor<1x3xf32>, tensor<1x3xf32>
}

func.func @main() {
  %junk = memref.alloc() {alignment = 64 : i64} : memref<1x3xf32>
  %x = arith.constant 7.0 : f32
  linalg.fill ins(%x : f32) outs(%junk : memref<1x3xf32>)
  memref.dealloc %junk : memref<1x3xf32>

  %t = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %w, %t2 = func.call @f(%t) : (tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %vw = vector.transfer_read %w[%c0, %c0], %p {in_bounds = [true]} : tensor<1x3xf32>, vector<3xf32>
  vector.print %vw : vector<3xf32>
  return
}
