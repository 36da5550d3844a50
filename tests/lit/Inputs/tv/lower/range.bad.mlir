// range.tgt.mlir with the constants inside the ranges (-0.5, 0.5).
func.func @tanh(%x: f32) -> f32 {
  %t = math.tanh %x : f32
  %lo = arith.constant -0.5 : f32
  %r = arith.maximumf %t, %lo : f32
  return %r : f32
}
func.func @exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %lo = arith.constant 0.5 : f32
  %r = arith.maximumf %e, %lo : f32
  return %r : f32
}
