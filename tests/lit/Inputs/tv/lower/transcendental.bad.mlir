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
func.func @tanhinf(%x: f32) -> f32 {
  %inf = arith.constant 0x7F800000 : f32
  %one = arith.constant 1.0 : f32
  %a = math.absf %x : f32
  %isinf = arith.cmpf oeq, %a, %inf : f32
  %t = math.tanh %x : f32
  %r = arith.select %isinf, %one, %t : f32
  return %r : f32
}
