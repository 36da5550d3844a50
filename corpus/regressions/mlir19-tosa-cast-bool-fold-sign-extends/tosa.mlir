module {
  func.func @gen_17973305088051644184() -> (tensor<1xi32>) {
    %v12 = "tosa.const"() <{value = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
    %v13 = "tosa.cast"(%v12) : (tensor<1xi1>) -> tensor<1xi32>
    return %v13 : tensor<1xi32>
  }
}
