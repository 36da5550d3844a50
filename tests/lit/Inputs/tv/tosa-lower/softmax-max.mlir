// The maximum of a row of a product, as tosa-to-linalg-named leaves it: it
// is -inf only where every element of the row is, which a uniform input
// never makes.
module {
  func.func @f(%arg0: tensor<1x3x4xf32>, %arg1: tensor<1x4x3xf32>) -> tensor<1x3x3xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<1x3x3xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
    %3 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x3x4xf32>, tensor<1x4x3xf32>) outs(%2 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
    %4 = tosa.reduce_max %3 {axis = 2 : i32} : (tensor<1x3x3xf32>) -> tensor<1x3x1xf32>
    %5 = tosa.sub %3, %4 : (tensor<1x3x3xf32>, tensor<1x3x1xf32>) -> tensor<1x3x3xf32>
    %6 = tosa.exp %5 : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
    return %6 : tensor<1x3x3xf32>
  }
}

