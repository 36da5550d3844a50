// attention.tgt.mlir with the reciprocal of the sum capped at the largest
// float: a row of -inf products now gives 0 * 3.4e38 = 0 where the source
// gives NaN.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
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
    %6 = tensor.empty() : tensor<2x3xf32>
    %cst_0 = arith.constant -3.40282347E+38 : f32
    %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %reduced = linalg.reduce ins(%5 : tensor<2x3x3xf32>) outs(%7 : tensor<2x3xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %21 = arith.maximumf %in, %init : f32
        linalg.yield %21 : f32
      }
    %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
    %8 = tensor.empty() : tensor<2x3x3xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<2x3x3xf32>, tensor<2x3x1xf32>) outs(%8 : tensor<2x3x3xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %21 = arith.subf %in, %in_5 : f32
      linalg.yield %21 : f32
    } -> tensor<2x3x3xf32>
    %10 = tensor.empty() : tensor<2x3x3xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<2x3x3xf32>) outs(%10 : tensor<2x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %21 = math.exp %in : f32
      linalg.yield %21 : f32
    } -> tensor<2x3x3xf32>
    %12 = tensor.empty() : tensor<2x3xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %13 = linalg.fill ins(%cst_1 : f32) outs(%12 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %reduced_2 = linalg.reduce ins(%11 : tensor<2x3x3xf32>) outs(%13 : tensor<2x3xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %21 = arith.addf %in, %init : f32
        linalg.yield %21 : f32
      }
    %expanded_3 = tensor.expand_shape %reduced_2 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
    %14 = tensor.empty() : tensor<2x3x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3 : tensor<2x3x1xf32>) outs(%14 : tensor<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_5 = arith.constant 1.000000e+00 : f32
      %21 = arith.divf %cst_5, %in : f32
      %big = arith.constant 3.40282347E+38 : f32
      %22 = arith.minimumf %21, %big : f32
      linalg.yield %22 : f32
    } -> tensor<2x3x1xf32>
    %16 = tensor.empty() : tensor<2x3x3xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %15 : tensor<2x3x3xf32>, tensor<2x3x1xf32>) outs(%16 : tensor<2x3x3xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %21 = arith.mulf %in, %in_5 : f32
      linalg.yield %21 : f32
    } -> tensor<2x3x3xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %18 = tensor.empty() : tensor<2x3x7xf32>
    %19 = linalg.fill ins(%cst_4 : f32) outs(%18 : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
    %20 = linalg.batch_matmul ins(%17, %arg1 : tensor<2x3x3xf32>, tensor<2x3x7xf32>) outs(%19 : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
    return %20 : tensor<2x3x7xf32>
  }
}

