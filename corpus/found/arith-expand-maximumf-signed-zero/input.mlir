module {
  func.func @maximum_signed_zero(%x: tensor<1xf32>) -> (tensor<1xf32>) {
    %nz = "tosa.const"() <{values = dense<-0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.maximum %x, %nz : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %r = tosa.reciprocal %m : (tensor<1xf32>) -> tensor<1xf32>
    return %r : tensor<1xf32>
  }
memref.global @repro_in0 : memref<1xf32> = dense<0.0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1xf32> to tensor<1xf32>
  %out0 = func.call @maximum_signed_zero(%in0) : (tensor<1xf32>) -> (tensor<1xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<1xf32>
    %b3 = arith.bitcast %v2 : f32 to i32
    %w4 = arith.extui %b3 : i32 to i64
    vector.print %w4 : i64
  }
  return
}
}
