#map = affine_map<(d0, d1, d2, d3) -> (d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @f(%arg0: tensor<1x3x3x2xf16>, %arg1: tensor<2x2x2x1xf16>, %arg2: tensor<2xf16>) -> tensor<1x2x2x2xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = tensor.empty() : tensor<1x2x2x2x1xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
    %3 = tensor.empty() : tensor<1x2x2x2xf16>
    %4 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x3x3x2xf16>, tensor<2x2x2x1xf16>) outs(%2 : tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf32>
    %5 = tosa.cast %4 : (tensor<1x2x2x2x1xf32>) -> tensor<1x2x2x2x1xf16>
    %collapsed = tensor.collapse_shape %5 [[0], [1], [2], [3, 4]] : tensor<1x2x2x2x1xf16> into tensor<1x2x2x2xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2, %collapsed : tensor<2xf16>, tensor<1x2x2x2xf16>) outs(%3 : tensor<1x2x2x2xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %7 = arith.addf %in, %in_0 : f16
      linalg.yield %7 : f16
    } -> tensor<1x2x2x2xf16>
    return %6 : tensor<1x2x2x2xf16>
  }
}

