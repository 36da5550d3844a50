// Attention: a softmax of a row of dot products, times a matrix. The
// lowering's reduce_max starts from the lowest finite float (known
// upstream, docs/BUGS.md); a row of -inf products gives NaN on both sides.
module {
  func.func @f(%arg0: tensor<2x3x7xf32>, %arg1: tensor<2x3x7xf32>) -> tensor<2x3x7xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tensor.empty() : tensor<2x7x3xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x3x7xf32>) outs(%2 : tensor<2x7x3xf32>) permutation = [0, 2, 1] 
    %cst = arith.constant 0.000000e+00 : f32
    %3 = tensor.empty() : tensor<2x3x3xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %5 = linalg.batch_matmul ins(%arg0, %transposed : tensor<2x3x7xf32>, tensor<2x7x3xf32>) outs(%4 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %6 = tosa.reduce_max %5 {axis = 2 : i32} : (tensor<2x3x3xf32>) -> tensor<2x3x1xf32>
    %7 = tosa.sub %5, %6 : (tensor<2x3x3xf32>, tensor<2x3x1xf32>) -> tensor<2x3x3xf32>
    %8 = tosa.exp %7 : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %9 = tosa.reduce_sum %8 {axis = 2 : i32} : (tensor<2x3x3xf32>) -> tensor<2x3x1xf32>
    %10 = tosa.reciprocal %9 : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %11 = tosa.mul %8, %10, %0 : (tensor<2x3x3xf32>, tensor<2x3x1xf32>, tensor<1xi8>) -> tensor<2x3x3xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %12 = tensor.empty() : tensor<2x3x7xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
    %14 = linalg.batch_matmul ins(%11, %arg1 : tensor<2x3x3xf32>, tensor<2x3x7xf32>) outs(%13 : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
    return %14 : tensor<2x3x7xf32>
  }
}

