func.func @pow0(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  return %one : f32
}
func.func @logneg(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %neg = arith.cmpf olt, %x, %z : f32
  %l = math.log %x : f32
  %r = arith.select %neg, %nan, %l : f32
  return %r : f32
}
