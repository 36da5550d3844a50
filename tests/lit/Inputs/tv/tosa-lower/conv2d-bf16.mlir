// bf16 in, f32 accumulator, padded: the lowering adds the bias in f32
// before the cast to bf16, TOSA's pseudo-code after it.
func.func @f(%x: tensor<1x3x4x1xbf16>, %w: tensor<1x1x1x1xbf16>, %b: tensor<1xbf16>) -> tensor<1x3x5x1xbf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 0>, stride = array<i64: 2, 1>} : (tensor<1x3x4x1xbf16>, tensor<1x1x1x1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x3x5x1xbf16>
  %1 = tosa.tanh %0 : (tensor<1x3x5x1xbf16>) -> tensor<1x3x5x1xbf16>
  return %1 : tensor<1x3x5x1xbf16>
}
