// tosa.mul of i32 with a shift, written by tosa-to-linalg as tosa.apply_scale
// with the second operand as the multiplier (a negative one included, which
// TOSA's own apply_scale would refuse).
func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.mul %a, %b, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
