// What tosa-to-linalg makes of softmax-masked.mlir.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @f(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tensor.empty() : tensor<2xf32>
    %cst = arith.constant -3.40282347E+38 : f32
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2xf32>) -> tensor<2xf32>
    %reduced = linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%2 : tensor<2xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %13 = arith.maximumf %in, %init : f32
        linalg.yield %13 : f32
      }
    %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
    %3 = tensor.empty() : tensor<2x3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<2x3xf32>, tensor<2x1xf32>) outs(%3 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.subf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3xf32>
    %5 = tensor.empty() : tensor<2x3xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<2x3xf32>) outs(%5 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.exp %in : f32
      linalg.yield %13 : f32
    } -> tensor<2x3xf32>
    %7 = tensor.empty() : tensor<2xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<2xf32>) -> tensor<2xf32>
    %reduced_1 = linalg.reduce ins(%6 : tensor<2x3xf32>) outs(%8 : tensor<2xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %13 = arith.addf %in, %init : f32
        linalg.yield %13 : f32
      }
    %expanded_2 = tensor.expand_shape %reduced_1 [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
    %9 = tensor.empty() : tensor<2x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_2 : tensor<2x1xf32>) outs(%9 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_3 = arith.constant 1.000000e+00 : f32
      %13 = arith.divf %cst_3, %in : f32
      linalg.yield %13 : f32
    } -> tensor<2x1xf32>
    %11 = tensor.empty() : tensor<2x3xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %10 : tensor<2x3xf32>, tensor<2x1xf32>) outs(%11 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %13 = arith.mulf %in, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3xf32>
    return %12 : tensor<2x3xf32>
  }
}

