// Wrong targets: @memo drops the sum of the reduction's indices, and
// @empty_reduction squares the initial values.
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @memo(%x: tensor<?x4xi32>, %a: tensor<?xi32>) -> tensor<?xi32> {
  return %a : tensor<?xi32>
}
func.func @empty_reduction(%x: tensor<?x0xi32>, %a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %a2 = arith.muli %a, %a : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x0xi32>) outs(%a2 : tensor<?xi32>) {
  ^bb0(%in: i32, %acc: i32):
    linalg.yield %in : i32
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}
