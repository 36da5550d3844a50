// Upstream bug: canonicalize folds negate(negate(x)) to x for i8, wrong for
// x = -128 (TOSA negates in the i32 accumulator and clips: negate(-128) = 127,
// negate(127) = -127).
func.func @negneg(%x: tensor<2xi8>) -> tensor<2xi8> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.negate %x, %zp, %zp : (tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  %1 = tosa.negate %0, %zp, %zp : (tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  return %1 : tensor<2xi8>
}
