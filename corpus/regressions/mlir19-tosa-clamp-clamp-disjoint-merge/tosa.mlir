module {
  func.func @gen_14134094786488318478_int8(%v37: tensor<1xi8>) -> (tensor<1xi8>) {
    %v38 = tosa.clamp %v37 {min_fp = -48.0 : f32, max_fp = -43.0 : f32, min_int = -48 : i64, max_int = -43 : i64} : (tensor<1xi8>) -> tensor<1xi8>
    %v49 = tosa.clamp %v38 {min_fp = -22.0 : f32, max_fp = 13.0 : f32, min_int = -22 : i64, max_int = 13 : i64} : (tensor<1xi8>) -> tensor<1xi8>
    %v50 = "tosa.rescale"(%v49) <{double_round = true, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>}> : (tensor<1xi8>) -> tensor<1xi32>
    %v64 = "tosa.rescale"(%v50) <{double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1073741824>, output_zp = 0 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>}> : (tensor<1xi32>) -> tensor<1xi8>
    return %v64 : tensor<1xi8>
  }
}
