func.func @pow0(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = arith.mulf %x, %z : f32
  %r = arith.addf %m, %one : f32
  return %r : f32
}
func.func @logneg(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %c = arith.maximumf %x, %z : f32
  %r = math.log %c : f32
  return %r : f32
}
