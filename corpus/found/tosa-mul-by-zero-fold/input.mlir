module {
  func.func @mul_by_zero(%x: tensor<4xf32>) -> (tensor<4xf32>) {
    %zero = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %y = tosa.mul %x, %zero, %_c0 : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
memref.global @repro_in0 : memref<4xf32> = dense<[0xFF800000, 0xFF800000, 0xFF800000, 0x7FC00000]>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<4xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<4xf32> to tensor<4xf32>
  %out0 = func.call @mul_by_zero(%in0) : (tensor<4xf32>) -> (tensor<4xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 4 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<4xf32>
    %b3 = arith.bitcast %v2 : f32 to i32
    %w4 = arith.extui %b3 : i32 to i64
    vector.print %w4 : i64
  }
  return
}
}
