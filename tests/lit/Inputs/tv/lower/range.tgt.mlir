// range.mlir, each result the maximum of itself and a constant below its range.
func.func @tanh(%x: f32) -> f32 {
  %t = math.tanh %x : f32
  %lo = arith.constant -2.0 : f32
  %r = arith.maximumf %t, %lo : f32
  return %r : f32
}
func.func @exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %lo = arith.constant -0.5 : f32
  %r = arith.maximumf %e, %lo : f32
  return %r : f32
}
