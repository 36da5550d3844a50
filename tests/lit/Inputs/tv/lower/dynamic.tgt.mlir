// The right targets: tosa-to-linalg and convert-elementwise-to-linalg of
// MLIR 22, and the two slices merged into one at offset %o + 1.
#map = affine_map<(d0, d1) -> (0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0) -> (d0)>
module {
  func.func @bcast(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
    %dim_0 = tensor.dim %arg1, %c0 : tensor<?x?xf32>
    %0 = arith.maxui %dim, %dim_0 : index
    %c1 = arith.constant 1 : index
    %dim_1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
    %dim_2 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
    %1 = arith.maxui %dim_1, %dim_2 : index
    %dim_3 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
    %2 = arith.cmpi eq, %dim_3, %c1 : index
    %3 = scf.if %2 -> (tensor<?x?xf32>) {
      %c1_7 = arith.constant 1 : index
      %dim_8 = tensor.dim %arg0, %c1_7 : tensor<?x?xf32>
      %12 = tensor.empty(%0, %dim_8) : tensor<?x?xf32>
      %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<?x?xf32>
      scf.yield %13 : tensor<?x?xf32>
    } else {
      scf.yield %arg0 : tensor<?x?xf32>
    }
    %dim_4 = tensor.dim %3, %c1 : tensor<?x?xf32>
    %4 = arith.cmpi eq, %dim_4, %c1 : index
    %5 = scf.if %4 -> (tensor<?x?xf32>) {
      %c0_7 = arith.constant 0 : index
      %dim_8 = tensor.dim %3, %c0_7 : tensor<?x?xf32>
      %12 = tensor.empty(%dim_8, %1) : tensor<?x?xf32>
      %13 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<?x?xf32>
      scf.yield %13 : tensor<?x?xf32>
    } else {
      scf.yield %3 : tensor<?x?xf32>
    }
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x?xf32>
    %6 = arith.cmpi eq, %dim_5, %c1 : index
    %7 = scf.if %6 -> (tensor<?x?xf32>) {
      %c1_7 = arith.constant 1 : index
      %dim_8 = tensor.dim %arg1, %c1_7 : tensor<?x?xf32>
      %12 = tensor.empty(%0, %dim_8) : tensor<?x?xf32>
      %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<?x?xf32>
      scf.yield %13 : tensor<?x?xf32>
    } else {
      scf.yield %arg1 : tensor<?x?xf32>
    }
    %dim_6 = tensor.dim %7, %c1 : tensor<?x?xf32>
    %8 = arith.cmpi eq, %dim_6, %c1 : index
    %9 = scf.if %8 -> (tensor<?x?xf32>) {
      %c0_7 = arith.constant 0 : index
      %dim_8 = tensor.dim %7, %c0_7 : tensor<?x?xf32>
      %12 = tensor.empty(%dim_8, %1) : tensor<?x?xf32>
      %13 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<?x?xf32>
      scf.yield %13 : tensor<?x?xf32>
    } else {
      scf.yield %7 : tensor<?x?xf32>
    }
    %10 = tensor.empty(%0, %1) : tensor<?x?xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5, %9 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%10 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %12 = arith.addf %in, %in_7 : f32
      linalg.yield %12 : f32
    } -> tensor<?x?xf32>
    return %11 : tensor<?x?xf32>
  }
  func.func @reverse(%arg0: tensor<?x?xi32>) -> tensor<?x?xi32> {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x?xi32>
    %c1 = arith.constant 1 : index
    %dim_0 = tensor.dim %arg0, %c1 : tensor<?x?xi32>
    %c1_1 = arith.constant 1 : index
    %dim_2 = tensor.dim %arg0, %c1_1 : tensor<?x?xi32>
    %0 = tensor.empty(%dim, %dim_0) : tensor<?x?xi32>
    %1 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<?x?xi32>) {
    ^bb0(%out: i32):
      %2 = linalg.index 0 : index
      %3 = linalg.index 1 : index
      %c1_3 = arith.constant 1 : index
      %4 = arith.subi %dim_2, %c1_3 : index
      %5 = arith.subi %4, %3 : index
      %extracted = tensor.extract %arg0[%2, %5] : tensor<?x?xi32>
      linalg.yield %extracted : i32
    } -> tensor<?x?xi32>
    return %1 : tensor<?x?xi32>
  }
  func.func @div(%arg0: tensor<?xi32>, %arg1: tensor<?xi32>) -> tensor<?xi32> {
    %0 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<?xi32>, tensor<?xi32>) outs(%arg0 : tensor<?xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %1 = arith.divsi %in, %in_0 : i32
      linalg.yield %1 : i32
    } -> tensor<?xi32>
    return %0 : tensor<?xi32>
  }
  func.func @slices(%t: tensor<?xf32>, %o: index, %n: index, %m: index) -> tensor<?xf32> {
    %c1 = arith.constant 1 : index
    %o1 = arith.addi %o, %c1 : index
    %r = tensor.extract_slice %t[%o1] [%m] [1] : tensor<?xf32> to tensor<?xf32>
    return %r : tensor<?xf32>
  }
  func.func @reshape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c0 = arith.constant 0 : index
    %d = tensor.dim %x, %c0 : tensor<?x4xf32>
    %f = tensor.collapse_shape %x [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
    %a = math.absf %f : tensor<?xf32>
    %r = tensor.expand_shape %a [[0, 1]] output_shape [%d, 4] : tensor<?xf32> into tensor<?x4xf32>
    return %r : tensor<?x4xf32>
  }
  func.func @window(%t: tensor<8xf32>, %o: index, %n: index, %m: index) -> tensor<?xf32> {
    %c1 = arith.constant 1 : index
    %o1 = arith.addi %o, %c1 : index
    %r = tensor.extract_slice %t[%o1] [%m] [1] : tensor<8xf32> to tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
