// mul-shift.tgt.mlir with a shift of 3 instead of 2.
#map = affine_map<(d0) -> (d0)>
module {
  func.func @f(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xi32> {
    %0 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tensor.empty() : tensor<4xi32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<4xi32>, tensor<4xi32>) outs(%1 : tensor<4xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %c2_i8 = arith.constant 3 : i8
      %3 = tosa.apply_scale %in, %in_0, %c2_i8 {rounding_mode = SINGLE_ROUND} : (i32, i32, i8) -> i32
      linalg.yield %3 : i32
    } -> tensor<4xi32>
    return %2 : tensor<4xi32>
  }
}

