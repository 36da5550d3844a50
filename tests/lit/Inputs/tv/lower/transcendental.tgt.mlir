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
func.func @tanhinf(%x: f32) -> f32 {
  %inf = arith.constant 0x7F800000 : f32
  %one = arith.constant 1.0 : f32
  %a = math.absf %x : f32
  %isinf = arith.cmpf oeq, %a, %inf : f32
  %s = math.copysign %one, %x : f32
  %t = math.tanh %x : f32
  %r = arith.select %isinf, %s, %t : f32
  return %r : f32
}
