// Targets for freedoms.mlir. max_ties: the first operand on ties, so
// max(-0, +0) is -0 (TOSA leaves the sign open); max_nan: the same without
// NaN propagation (wrong); reduce_max: the first of equal elements;
// negate: 0 - x (wrong for x = +0); pow_undefined: 0 for a negative base
// (TOSA leaves pow undefined there); pow_wrong: the negated power.
#id = affine_map<(i) -> (i)>
func.func @max_ties(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %ge = arith.cmpf oge, %x, %y : f32
    %pick = arith.select %ge, %x, %y : f32
    %uno = arith.cmpf uno, %x, %y : f32
    %nan = arith.addf %x, %y : f32
    %m = arith.select %uno, %nan, %pick : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @max_nan(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %ge = arith.cmpf oge, %x, %y : f32
    %m = arith.select %ge, %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @reduce_max(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.empty() : tensor<2x1xf32>
  %fill = linalg.fill ins(%ninf : f32) outs(%init : tensor<2x1xf32>) -> tensor<2x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%fill : tensor<2x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %gt = arith.cmpf ogt, %in, %acc : f32
    %s = arith.select %gt, %in, %acc : f32
    %uno = arith.cmpf uno, %in, %acc : f32
    %n = arith.addf %in, %acc : f32
    %o = arith.select %uno, %n, %s : f32
    linalg.yield %o : f32
  } -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}
func.func @negate(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.subf %zero, %v : f32
    linalg.yield %n : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @pow_undefined(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<3xf32>, tensor<3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = math.powf %a, %b : f32
    %neg = arith.cmpf olt, %a, %zero : f32
    %s = arith.select %neg, %zero, %p : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @pow_wrong(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %init = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<3xf32>, tensor<3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = math.powf %a, %b : f32
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
