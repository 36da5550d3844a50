#map = affine_map<(d0, d1, d2, d3) -> (0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
module {
  func.func @f(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<1x2x2x1xf32>, %arg2: tensor<1xf32>) -> tensor<1x3x3x1xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tensor.empty() : tensor<1x3x3x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<1xf32>) outs(%1 : tensor<1x3x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x3x3x1xf32>
    %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>) outs(%2 : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
    %cst = arith.constant -3.40282347E+38 : f32
    %4 = tensor.empty() : tensor<1x3x3x1xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
    %6 = tensor.empty() : tensor<1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%3, %6 : tensor<1x3x3x1xf32>, tensor<1x1xf32>) outs(%5 : tensor<1x3x3x1xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %8 = arith.maximumf %out, %in : f32
      %9 = arith.cmpf uno, %in, %in : f32
      %10 = arith.select %9, %out, %8 : f32
      linalg.yield %10 : f32
    } -> tensor<1x3x3x1xf32>
    return %7 : tensor<1x3x3x1xf32>
  }
}

