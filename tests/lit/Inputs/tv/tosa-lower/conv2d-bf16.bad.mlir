// conv2d-bf16.tgt.mlir with the bias negated.
#map = affine_map<(d0, d1, d2, d3) -> (0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @f(%arg0: tensor<1x3x4x1xbf16>, %arg1: tensor<1x1x1x1xbf16>, %arg2: tensor<1xbf16>) -> tensor<1x3x5x1xbf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
    %cst = arith.constant 0.000000e+00 : bf16
    %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 0, 0] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : bf16
    } : tensor<1x3x4x1xbf16> to tensor<1x5x5x1xbf16>
    %1 = tensor.empty() : tensor<1x3x5x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<1xbf16>) outs(%1 : tensor<1x3x5x1xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %6 = arith.extf %in : bf16 to f32
      %7 = arith.negf %6 : f32
      linalg.yield %7 : f32
    } -> tensor<1x3x5x1xf32>
    %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%padded, %arg1 : tensor<1x5x5x1xbf16>, tensor<1x1x1x1xbf16>) outs(%2 : tensor<1x3x5x1xf32>) -> tensor<1x3x5x1xf32>
    %4 = tosa.cast %3 : (tensor<1x3x5x1xf32>) -> tensor<1x3x5x1xbf16>
    %5 = tosa.tanh %4 : (tensor<1x3x5x1xbf16>) -> tensor<1x3x5x1xbf16>
    return %5 : tensor<1x3x5x1xbf16>
  }
}

