// An f32 sum cast to f16, then to i16: TOSA rounds to nearest even and
// saturates; tosa-to-linalg rounds (math.roundeven), clamps and converts.
func.func @f(%x: tensor<4xf32>) -> tensor<4xi16> {
  %c = "tosa.const"() <{values = dense<[0.5, 1.5, -0.5, 2.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %s = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %h = tosa.cast %s : (tensor<4xf32>) -> tensor<4xf16>
  %i = tosa.cast %h : (tensor<4xf16>) -> tensor<4xi16>
  return %i : tensor<4xi16>
}
