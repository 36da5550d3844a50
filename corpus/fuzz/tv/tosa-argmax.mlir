// tosa.argmax on f16: its lowering starts from the lowest finite value
// (-65504), TOSA from -Inf (corpus/regressions/tosa-argmax-lowest-finite-init).
func.func @argmax(%x: tensor<2x5xf16>) -> tensor<2xi32> {
  %r = "tosa.argmax"(%x) <{axis = 1 : i32}> : (tensor<2x5xf16>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}
