#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @f(%arg0: tensor<1x3x4xf32>, %arg1: tensor<1x4x3xf32>) -> tensor<1x3x3xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<1x3x3xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
    %3 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x3x4xf32>, tensor<1x4x3xf32>) outs(%2 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
    %4 = tensor.empty() : tensor<1x3xf32>
    %cst_0 = arith.constant -3.40282347E+38 : f32
    %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %reduced = linalg.reduce ins(%3 : tensor<1x3x3xf32>) outs(%5 : tensor<1x3xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %10 = arith.maximumf %in, %init : f32
        linalg.yield %10 : f32
      }
    %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [1, 3, 1] : tensor<1x3xf32> into tensor<1x3x1xf32>
    %6 = tensor.empty() : tensor<1x3x3xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %expanded : tensor<1x3x3xf32>, tensor<1x3x1xf32>) outs(%6 : tensor<1x3x3xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %10 = arith.subf %in, %in_1 : f32
      linalg.yield %10 : f32
    } -> tensor<1x3x3xf32>
    %8 = tensor.empty() : tensor<1x3x3xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<1x3x3xf32>) outs(%8 : tensor<1x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = math.exp %in : f32
      linalg.yield %10 : f32
    } -> tensor<1x3x3xf32>
    return %9 : tensor<1x3x3xf32>
  }
}

