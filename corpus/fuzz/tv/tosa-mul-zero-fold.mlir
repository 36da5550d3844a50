func.func @f(%y: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zeroed = tosa.mul %y, %zero, %_c0 : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  return %zeroed : tensor<2x8xf32>
}

// -----
module {
  func.func @f(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

