module {
  func.func @gen_9857742628843978317_bf16(%v10: tensor<2xbf16>) -> (tensor<2xbf16>) {
    %v11 = tosa.log %v10 : (tensor<2xbf16>) -> tensor<2xbf16>
    %v12 = tosa.exp %v11 : (tensor<2xbf16>) -> tensor<2xbf16>
    return %v12 : tensor<2xbf16>
  }
memref.global @repro_in0 : memref<2xbf16> = dense<[0x7F80, -33.75]>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<2xbf16>
  %in0 = bufferization.to_tensor %m0 restrict : memref<2xbf16> to tensor<2xbf16>
  %out0 = func.call @gen_9857742628843978317_bf16(%in0) : (tensor<2xbf16>) -> (tensor<2xbf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 2 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<2xbf16>
    %b3 = arith.bitcast %v2 : bf16 to i16
    %w4 = arith.extui %b3 : i16 to i64
    vector.print %w4 : i64
  }
  return
}
}
