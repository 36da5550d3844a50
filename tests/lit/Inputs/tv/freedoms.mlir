// TOSA ops whose results TOSA leaves partly open (the op table's freedoms),
// against the targets in freedoms.tgt.mlir.
func.func @max_ties(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @max_nan(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @reduce_max(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %r = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}
func.func @negate(%x: tensor<3xf32>) -> tensor<3xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.negate %x, %z, %z : (tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @pow_undefined(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %r = tosa.pow %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @pow_wrong(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %r = tosa.pow %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
