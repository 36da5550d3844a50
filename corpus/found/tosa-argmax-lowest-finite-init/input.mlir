module {
  func.func @argmax_lowest_finite() -> (tensor<1xi32>) {
    %x = "tosa.const"() <{values = dense<[[0xFF800000, -3.4028234663852886e+38, 0xFF800000]]> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
    %am = "tosa.argmax"(%x) <{axis = 1 : i32}> : (tensor<1x3xf32>) -> tensor<1xi32>
    return %am : tensor<1xi32>
  }
func.func @repro_main() {
  %out0 = func.call @argmax_lowest_finite() : () -> (tensor<1xi32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<1xi32>
    %w3 = arith.extsi %v2 : i32 to i64
    vector.print %w3 : i64
  }
  return
}
}
