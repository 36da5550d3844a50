// A strided window (pooling-like): out[d0] += in[2*d0 + d1] over d0 < 1,
// d1 < 3. Valid: the window reaches in[0..2] of the 4 elements.
func.func @f(%in: tensor<4xf32>, %k: tensor<3xf32>, %out: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>,
                                        affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%in, %k : tensor<4xf32>, tensor<3xf32>) outs(%out : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %c, %a : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}
