// An argmax beside a float sum: the sum's order is the encoding's choice,
// the argmax is exact.
func.func @f(%a: tensor<2x5xf16>) -> (tensor<2x1xf16>, tensor<2xi32>) {
  %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x5xf16>) -> tensor<2x1xf16>
  %i = tosa.argmax %a {axis = 1 : i32} : (tensor<2x5xf16>) -> tensor<2xi32>
  return %s, %i : tensor<2x1xf16>, tensor<2xi32>
}
