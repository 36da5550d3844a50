func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "tosa.transpose"(%a) <{perms = array<i32: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "tosa.transpose"(%0) <{perms = array<i32: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %2 = "tosa.transpose"(%1) <{perms = array<i32: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = tosa.abs %2 : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
}
