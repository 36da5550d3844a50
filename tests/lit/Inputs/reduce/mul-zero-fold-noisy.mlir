// tosa.mul's folder turns y * 0.0 into 0.0, which is wrong for y = NaN, Inf
// or a negative y (-0.0), amid ops that have nothing to do with it.
func.func @f(%y: tensor<2x8xf32>, %z: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %k = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.add %z, %k : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  %b = tosa.abs %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %n = tosa.floor %b : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %zeroed = tosa.mul %y, %zero, %_c0 : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  %s = tosa.sub %zeroed, %n : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s, %a : tensor<2x8xf32>, tensor<2x8xf32>
}
