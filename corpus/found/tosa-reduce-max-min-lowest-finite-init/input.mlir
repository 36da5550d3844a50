module {
  func.func @reduce_max_lowest_finite() -> (tensor<1xf32>) {
    %x = "tosa.const"() <{values = dense<0xFF800000> : tensor<2xf32>}> : () -> tensor<2xf32>
    %mx = "tosa.reduce_max"(%x) <{axis = 0 : i32}> : (tensor<2xf32>) -> tensor<1xf32>
    return %mx : tensor<1xf32>
  }
func.func @repro_main() {
  %out0 = func.call @reduce_max_lowest_finite() : () -> (tensor<1xf32>)
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
