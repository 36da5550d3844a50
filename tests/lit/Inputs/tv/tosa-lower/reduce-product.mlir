// tosa.reduce_product: acc = 1.0, then acc * value along the axis.
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = tosa.reduce_product %a {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}
