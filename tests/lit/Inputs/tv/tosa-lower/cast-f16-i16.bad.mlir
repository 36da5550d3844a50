// cast-f16-i16.tgt.mlir rounding ties away from zero (math.round).
#map = affine_map<(d0) -> (d0)>
module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xi16> {
    %0 = "tosa.const"() <{values = dense<[5.000000e-01, 1.500000e+00, -5.000000e-01, 2.500000e+00]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %1 = tensor.empty() : tensor<4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %0 : tensor<4xf32>, tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %7 = arith.addf %in, %in_0 : f32
      linalg.yield %7 : f32
    } -> tensor<4xf32>
    %3 = tensor.empty() : tensor<4xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2 : tensor<4xf32>) outs(%3 : tensor<4xf16>) {
    ^bb0(%in: f32, %out: f16):
      %7 = arith.truncf %in : f32 to f16
      linalg.yield %7 : f16
    } -> tensor<4xf16>
    %5 = tensor.empty() : tensor<4xi16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<4xf16>) outs(%5 : tensor<4xi16>) {
    ^bb0(%in: f16, %out: i16):
      %7 = math.round %in : f16
      %cst = arith.constant -3.276800e+04 : f16
      %cst_0 = arith.constant 3.276800e+04 : f16
      %c32767_i16 = arith.constant 32767 : i16
      %8 = arith.maximumf %7, %cst : f16
      %9 = arith.fptosi %8 : f16 to i16
      %10 = arith.cmpf uge, %7, %cst_0 : f16
      %11 = arith.select %10, %c32767_i16, %9 : i16
      linalg.yield %11 : i16
    } -> tensor<4xi16>
    return %6 : tensor<4xi16>
  }
}

