// A convolution, clamped to [-1.64, -1.42], max-pooled, and convolved
// again (the bench's gen_134, in f16 with f32 accumulators). The lowering
// starts each window's maximum from the lowest finite float: behind the
// clamp no value is below it, so the lowering is right, but only the
// second convolution's sums, which read the maxima, show the pool.
module {
  func.func @f(%arg0: tensor<1x5x4x2xf16>, %arg1: tensor<4x3x3x3xf16>, %arg2: tensor<4xf16>) -> tensor<1x1x1x4xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = "tosa.const"() <{values = dense<[2.125240e-01, -0.000000e+00, 1.815430e+00]> : tensor<3xf16>}> : () -> tensor<3xf16>
    %2 = "tosa.const"() <{values = dense<[[[[1.000000e+00, 1.111330e+00], [-1.846680e+00, 1.665040e+00], [4.089360e-01, 1.583980e+00]], [[5.400390e-01, 0.000000e+00], [1.000000e+00, -1.204100e+00], [1.116210e+00, 1.590820e+00]], [[5.000000e-01, 2.250980e-01], [1.196290e+00, -1.212890e+00], [2.500000e+00, 1.261720e+00]]], [[[-6.035150e-01, 1.568360e+00], [3.942870e-02, -1.902340e+00], [-7.109380e-01, 4.643550e-01]], [[8.808590e-01, -3.974610e-01], [-3.196720e-03, 5.000000e-01], [1.000000e+00, -1.057620e+00]], [[8.178710e-01, 1.805660e+00], [-5.351560e-01, 2.963260e-02], [-1.597660e+00, 0.000000e+00]]], [[[-4.218750e-01, 1.919920e+00], [-7.797850e-01, -5.000000e-01], [6.274410e-02, 5.000000e-01]], [[-1.500000e+00, -2.912600e-01], [7.421880e-01, -9.458000e-01], [2.500000e+00, 0.000000e+00]], [[1.365230e+00, 7.182610e-01], [-1.263670e+00, 9.580070e-01], [1.391600e+00, -7.265630e-01]]]]> : tensor<3x3x3x2xf16>}> : () -> tensor<3x3x3x2xf16>
    %5 = tosa.conv2d %arg0, %2, %1, %0, %0 {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 3, 1, 2, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x4x2xf16>, tensor<3x3x3x2xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x2x3xf16>
    %6 = tosa.clamp %5 {max_val = -1.416020e+00 : f16, min_val = -1.636720e+00 : f16} : (tensor<1x3x2x3xf16>) -> tensor<1x3x2x3xf16>
    %7 = tosa.max_pool2d %6 {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 2, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x2x3xf16>) -> tensor<1x2x2x3xf16>
    %8 = tosa.conv2d %7, %arg1, %arg2, %0, %0 {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 2, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x2x2x3xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1x4xf16>
    return %8 : tensor<1x1x1x4xf16>
  }
}
