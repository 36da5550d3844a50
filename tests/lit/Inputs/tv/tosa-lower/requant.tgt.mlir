// What linalg-generalize-named-ops makes of requant.mlir.
#map = affine_map<(d0, d1, d2) -> ()>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @f(%arg0: tensor<1x3x8xi8>, %arg1: tensor<1x8x6xi8>) -> tensor<1x3x6xi8> {
    %c127_i32 = arith.constant 127 : i32
    %c-128_i32 = arith.constant -128 : i32
    %c-2_i32 = arith.constant -2 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<[1503001549, 1174793116, 1962340744, 1120896571, 2044999995, 1327601522]> : tensor<6xi32>
    %cst_0 = arith.constant dense<[38, 39, 40, 41, 42, 43]> : tensor<6xi8>
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<1x3x6xi32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c0_i32 : i32) outs(%0 : tensor<1x3x6xi32>) {
    ^bb0(%in: i32, %out: i32):
      linalg.yield %in : i32
    } -> tensor<1x3x6xi32>
    %2 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1, %c1_i32, %c-2_i32 : tensor<1x3x8xi8>, tensor<1x8x6xi8>, i32, i32) outs(%1 : tensor<1x3x6xi32>) {
    ^bb0(%in: i8, %in_1: i8, %in_2: i32, %in_3: i32, %out: i32):
      %5 = arith.extsi %in : i8 to i32
      %6 = arith.subi %5, %in_2 : i32
      %7 = arith.extsi %in_1 : i8 to i32
      %8 = arith.subi %7, %in_3 : i32
      %9 = arith.muli %6, %8 : i32
      %10 = arith.addi %out, %9 : i32
      linalg.yield %10 : i32
    } -> tensor<1x3x6xi32>
    %3 = tensor.empty() : tensor<1x3x6xi8>
    %4 = linalg.generic {indexing_maps = [#map1, #map6, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %cst, %cst_0 : tensor<1x3x6xi32>, tensor<6xi32>, tensor<6xi8>) outs(%3 : tensor<1x3x6xi8>) {
    ^bb0(%in: i32, %in_1: i32, %in_2: i8, %out: i8):
      %5 = tosa.apply_scale %in, %in_1, %in_2 {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
      %6 = arith.maxsi %5, %c-128_i32 : i32
      %7 = arith.minsi %6, %c127_i32 : i32
      %8 = arith.trunci %7 : i32 to i8
      linalg.yield %8 : i8
    } -> tensor<1x3x6xi8>
    return %4 : tensor<1x3x6xi8>
  }
}

