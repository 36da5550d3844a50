module {
  func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

