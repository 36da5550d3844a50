func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = scf.execute_region -> tensor<2xf32> {
    scf.yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}
