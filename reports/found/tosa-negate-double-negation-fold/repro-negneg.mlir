func.func @negneg(%x: tensor<4xi16>) -> tensor<4xi16> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %0 = tosa.negate %x, %zp, %zp : (tensor<4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<4xi16>
  %1 = tosa.negate %0, %zp, %zp : (tensor<4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<4xi16>
  return %1 : tensor<4xi16>
}
