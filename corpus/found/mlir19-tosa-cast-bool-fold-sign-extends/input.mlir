module {
  func.func @gen_17973305088051644184() -> (tensor<1xi32>) {
    %v12 = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
    %v13 = "tosa.cast"(%v12) : (tensor<1xi1>) -> tensor<1xi32>
    return %v13 : tensor<1xi32>
  }
func.func @repro_main() {
  %out0 = func.call @gen_17973305088051644184() : () -> (tensor<1xi32>)
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
