// A softmax row by row: the lowering's reduce_max starts from the lowest
// finite float (known upstream, docs/BUGS.md), and a row of -inf gives NaN
// on both sides (the source's -inf - -inf; the target's 0 * (1 / 0)), so
// tosa-to-linalg is correct on this function.
module {
  func.func @f(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %5 = tosa.sub %arg0, %4 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    %6 = tosa.exp %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = tosa.reduce_sum %6 {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %8 = tosa.reciprocal %7 : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %9 = tosa.mul %6, %8, %shift : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
    return %9 : tensor<2x3xf32>
  }
}
