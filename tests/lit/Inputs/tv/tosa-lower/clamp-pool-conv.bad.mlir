#map = affine_map<(d0, d1, d2, d3) -> (d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @f(%arg0: tensor<1x5x4x2xf16>, %arg1: tensor<4x3x3x3xf16>, %arg2: tensor<4xf16>) -> tensor<1x1x1x4xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = "tosa.const"() <{values = dense<[2.125240e-01, -0.000000e+00, 1.815430e+00]> : tensor<3xf16>}> : () -> tensor<3xf16>
    %2 = "tosa.const"() <{values = dense<[[[[1.000000e+00, 1.111330e+00], [-1.846680e+00, 1.665040e+00], [4.089360e-01, 1.583980e+00]], [[5.400390e-01, 0.000000e+00], [1.000000e+00, -1.204100e+00], [1.116210e+00, 1.590820e+00]], [[5.000000e-01, 2.250980e-01], [1.196290e+00, -1.212890e+00], [2.500000e+00, 1.261720e+00]]], [[[-6.035150e-01, 1.568360e+00], [3.942870e-02, -1.902340e+00], [-7.109380e-01, 4.643550e-01]], [[8.808590e-01, -3.974610e-01], [-3.196720e-03, 5.000000e-01], [1.000000e+00, -1.057620e+00]], [[8.178710e-01, 1.805660e+00], [-5.351560e-01, 2.963260e-02], [-1.597660e+00, 0.000000e+00]]], [[[-4.218750e-01, 1.919920e+00], [-7.797850e-01, -5.000000e-01], [6.274410e-02, 5.000000e-01]], [[-1.500000e+00, -2.912600e-01], [7.421880e-01, -9.458000e-01], [2.500000e+00, 0.000000e+00]], [[1.365230e+00, 7.182610e-01], [-1.263670e+00, 9.580070e-01], [1.391600e+00, -7.265630e-01]]]]> : tensor<3x3x3x2xf16>}> : () -> tensor<3x3x3x2xf16>
    %cst = arith.constant 0.000000e+00 : f16
    %padded = tensor.pad %arg0 low[0, 3, 2, 0] high[0, 1, 1, 0] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f16
    } : tensor<1x5x4x2xf16> to tensor<1x9x7x2xf16>
    %3 = tensor.empty() : tensor<1x3x2x3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<3xf16>) outs(%3 : tensor<1x3x2x3xf32>) {
    ^bb0(%in: f16, %out: f32):
      %16 = arith.extf %in : f16 to f32
      linalg.yield %16 : f32
    } -> tensor<1x3x2x3xf32>
    %5 = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %2 : tensor<1x9x7x2xf16>, tensor<3x3x3x2xf16>) outs(%4 : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
    %6 = tosa.cast %5 : (tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf16>
    %7 = tosa.clamp %6 {max_val = -1.416020e+00 : f16, min_val = -1.636720e+00 : f16} : (tensor<1x3x2x3xf16>) -> tensor<1x3x2x3xf16>
    %cst_0 = arith.constant -6.550400e+04 : f16
    %padded_1 = tensor.pad %7 low[0, 1, 2, 0] high[0, 0, 0, 0] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst_0 : f16
    } : tensor<1x3x2x3xf16> to tensor<1x4x4x3xf16>
    %cst_2 = arith.constant -1.500000e+00 : f16
    %8 = tensor.empty() : tensor<1x2x2x3xf16>
    %9 = linalg.fill ins(%cst_2 : f16) outs(%8 : tensor<1x2x2x3xf16>) -> tensor<1x2x2x3xf16>
    %10 = tensor.empty() : tensor<3x3xf16>
    %11 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_1, %10 : tensor<1x4x4x3xf16>, tensor<3x3xf16>) outs(%9 : tensor<1x2x2x3xf16>) -> tensor<1x2x2x3xf16>
    %cst_3 = arith.constant 0.000000e+00 : f16
    %padded_4 = tensor.pad %11 low[0, 2, 0, 0] high[0, 1, 1, 0] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst_3 : f16
    } : tensor<1x2x2x3xf16> to tensor<1x5x3x3xf16>
    %12 = tensor.empty() : tensor<1x1x1x4xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<4xf16>) outs(%12 : tensor<1x1x1x4xf32>) {
    ^bb0(%in: f16, %out: f32):
      %16 = arith.extf %in : f16 to f32
      linalg.yield %16 : f32
    } -> tensor<1x1x1x4xf32>
    %14 = linalg.conv_2d_nhwc_fhwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded_4, %arg1 : tensor<1x5x3x3xf16>, tensor<4x3x3x3xf16>) outs(%13 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
    %15 = tosa.cast %14 : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf16>
    return %15 : tensor<1x1x1x4xf16>
  }
}

