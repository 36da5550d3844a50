#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @f(%arg0: tensor<2x5xf16>) -> (tensor<2x1xf16>, tensor<2xi32>) {
    %0 = tensor.empty() : tensor<2xf16>
    %cst = arith.constant 0.000000e+00 : f16
    %1 = linalg.fill ins(%cst : f16) outs(%0 : tensor<2xf16>) -> tensor<2xf16>
    %reduced = linalg.reduce ins(%arg0 : tensor<2x5xf16>) outs(%1 : tensor<2xf16>) dimensions = [1] 
      (%in: f16, %init: f16) {
        %7 = arith.addf %in, %init : f16
        linalg.yield %7 : f16
      }
    %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [2, 1] : tensor<2xf16> into tensor<2x1xf16>
    %2 = tensor.empty() : tensor<2xi32>
    %c0_i32 = arith.constant 0 : i32
    %3 = linalg.fill ins(%c0_i32 : i32) outs(%2 : tensor<2xi32>) -> tensor<2xi32>
    %4 = tensor.empty() : tensor<2xf16>
    %cst_0 = arith.constant -6.550400e+04 : f16
    %5 = linalg.fill ins(%cst_0 : f16) outs(%4 : tensor<2xf16>) -> tensor<2xf16>
    %6:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x5xf16>) outs(%3, %5 : tensor<2xi32>, tensor<2xf16>) {
    ^bb0(%in: f16, %out: i32, %out_1: f16):
      %7 = linalg.index 1 : index
      %8 = arith.index_cast %7 : index to i32
      %9 = arith.cmpf ugt, %in, %out_1 : f16
      %10 = arith.cmpf ord, %out_1, %out_1 : f16
      %11 = arith.andi %9, %10 : i1
      %12 = arith.select %11, %in, %out_1 : f16
      %13 = arith.select %11, %8, %out : i32
      linalg.yield %13, %12 : i32, f16
    } -> (tensor<2xi32>, tensor<2xf16>)
    return %expanded, %6#0 : tensor<2x1xf16>, tensor<2xi32>
  }
}

