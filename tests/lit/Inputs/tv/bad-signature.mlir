func.func @f(%a: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  return %b : tensor<2xf32>
}
