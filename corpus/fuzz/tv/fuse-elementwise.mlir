// Elementwise ops that linalg-fuse-elementwise-ops fuses after tosa-to-linalg.
func.func @gen_5(%in0: tensor<1x2x4x5xi32>, %in1: tensor<1x2x4x5xi32>) -> (tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>) {
  %v2 = tosa.maximum %in0, %in1 : (tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>) -> tensor<1x2x4x5xi32>
  %v3 = tosa.sub %in0, %in1 : (tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>) -> tensor<1x2x4x5xi32>
  %v4 = tosa.add %v3, %in0 : (tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>) -> tensor<1x2x4x5xi32>
  %v5 = tosa.sub %v2, %v2 : (tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>) -> tensor<1x2x4x5xi32>
  return %v4, %v5 : tensor<1x2x4x5xi32>, tensor<1x2x4x5xi32>
}
