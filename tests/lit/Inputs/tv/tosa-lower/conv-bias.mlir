// f16 in, f32 accumulator: the bias is added after the cast to f16.
func.func @f(%x: tensor<1x3x3x2xf16>, %w: tensor<2x2x2x1xf16>, %b: tensor<2xf16>) -> tensor<1x2x2x2xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf16>, tensor<2x2x2x1xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2x2xf16>
  return %0 : tensor<1x2x2x2xf16>
}
