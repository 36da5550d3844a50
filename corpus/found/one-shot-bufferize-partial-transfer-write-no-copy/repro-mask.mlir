// vector.transfer_write with an all-false mask leaves the tensor unchanged:
// %w must equal %t. %t is used again afterwards, so one-shot-bufferize
// writes %w into a new buffer, and must copy %t into it first.
func.func @f(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<0.0> : vector<4xf32>
  %m = arith.constant dense<false> : vector<4xi1>
  %w = vector.transfer_write %v, %t[%c0], %m {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
  return %w, %t : tensor<4xf32>, tensor<4xf32>
}

func.func @main() {
  // Leave recognisable bytes in freed heap memory.
  %junk = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %x = arith.constant 7.0 : f32
  linalg.fill ins(%x : f32) outs(%junk : memref<4xf32>)
  memref.dealloc %junk : memref<4xf32>

  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w, %t2 = func.call @f(%t) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %vw = vector.transfer_read %w[%c0], %p {in_bounds = [true]} : tensor<4xf32>, vector<4xf32>
  vector.print %vw : vector<4xf32>
  return
}
