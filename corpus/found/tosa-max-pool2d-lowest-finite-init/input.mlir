module {
  func.func @gen_13060531327544937031_f16() -> (tensor<1x6x2x1xf16>) {
    %v9 = "tosa.const"() <{values = dense<[[[[1.3349609375]], [[0.1126708984375]], [[1.662109375]], [[-1.5]], [[0xFC00]], [[0.5]]]]> : tensor<1x6x1x1xf16>}> : () -> tensor<1x6x1x1xf16>
    %v10 = "tosa.max_pool2d"(%v9) <{kernel = array<i64: 1, 3>, pad = array<i64: 0, 0, 2, 1>, stride = array<i64: 1, 1>}> : (tensor<1x6x1x1xf16>) -> tensor<1x6x2x1xf16>
    return %v10 : tensor<1x6x2x1xf16>
  }
func.func @repro_main() {
  %out0 = func.call @gen_13060531327544937031_f16() : () -> (tensor<1x6x2x1xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 6 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 2 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 1 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<1x6x2x1xf16>
          %b9 = arith.bitcast %v8 : f16 to i16
          %w10 = arith.extui %b9 : i16 to i64
          vector.print %w10 : i64
        }
      }
    }
  }
  return
}
}
