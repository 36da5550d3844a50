// tosa-to-linalg's i8 matmul (a quantized_batch_matmul) and the rescale of
// its i32 sums back to i8: linalg-generalize-named-ops turns the matmul
// into a generic, and the canonicalizing driver writes the clamp's
// operands the other way round.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2)>
func.func @f(%a: tensor<1x3x8xi8>, %b: tensor<1x8x6xi8>) -> tensor<1x3x6xi8> {
  %mult = arith.constant dense<[1503001549, 1174793116, 1962340744, 1120896571, 2044999995, 1327601522]> : tensor<6xi32>
  %shift = arith.constant dense<[38, 39, 40, 41, 42, 43]> : tensor<6xi8>
  %c0_i32 = arith.constant 0 : i32
  %0 = tensor.empty() : tensor<1x3x6xi32>
  %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<1x3x6xi32>) -> tensor<1x3x6xi32>
  %c1_i32 = arith.constant 1 : i32
  %c-2_i32 = arith.constant -2 : i32
  %2 = linalg.quantized_batch_matmul ins(%a, %b, %c1_i32, %c-2_i32 : tensor<1x3x8xi8>, tensor<1x8x6xi8>, i32, i32) outs(%1 : tensor<1x3x6xi32>) -> tensor<1x3x6xi32>
  %3 = tensor.empty() : tensor<1x3x6xi8>
  %4 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %mult, %shift : tensor<1x3x6xi32>, tensor<6xi32>, tensor<6xi8>) outs(%3 : tensor<1x3x6xi8>) {
  ^bb0(%in: i32, %m: i32, %s: i8, %out: i8):
    %c0 = arith.constant 0 : i32
    %11 = arith.subi %in, %c0 : i32
    %12 = tosa.apply_scale %11, %m, %s {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
    %13 = arith.addi %12, %c0 : i32
    %lo = arith.constant -128 : i32
    %hi = arith.constant 127 : i32
    %14 = arith.maxsi %lo, %13 : i32
    %15 = arith.minsi %hi, %14 : i32
    %16 = arith.trunci %15 : i32 to i8
    linalg.yield %16 : i8
  } -> tensor<1x3x6xi8>
  return %4 : tensor<1x3x6xi8>
}
