module {
  func.func @fuzz() -> (tensor<1x4x5xf16>) {
    %v13 = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
    %v14 = "tosa.const"() <{values = dense<[[[-0.0, -0.0, 1.056640625, 0.52587890625, 0.260009765625], [0.0, -0.861328125, 0.0682373046875, 0.306884765625, 0.1544189453125], [-1.5869140625, -0.371337890625, 0x7E00, 1.0, -0.0], [0.0, 0.8466796875, -0.2393798828125, -1.6533203125, 1.5029296875]]]> : tensor<1x4x5xf16>}> : () -> tensor<1x4x5xf16>
    %v15 = tosa.pow %v13, %v14 : (tensor<1x1x1xf16>, tensor<1x4x5xf16>) -> tensor<1x4x5xf16>
    return %v15 : tensor<1x4x5xf16>
  }
func.func @repro_main() {
  %out0 = func.call @fuzz() : () -> (tensor<1x4x5xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 4 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 5 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %v6 = tensor.extract %out0[%i1, %i3, %i5] : tensor<1x4x5xf16>
        %b7 = arith.bitcast %v6 : f16 to i16
        %w8 = arith.extui %b7 : i16 to i64
        vector.print %w8 : i64
      }
    }
  }
  return
}
}
