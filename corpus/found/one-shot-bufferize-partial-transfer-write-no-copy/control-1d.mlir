func.func @f(%t: tensor<3xf32>, %v: vector<2xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %w = vector.transfer_write %v, %t[%c0] {in_bounds = [true]} : vector<2xf32>, tensor<3xf32>
  return %w, %t : tensor<3xf32>, tensor<3xf32>
}
