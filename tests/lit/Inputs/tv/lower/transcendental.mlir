// exp, log, powf and tanh stay uninterpreted, with C's special values: pow(x, 0)
// is 1 for every x, log of a negative number is NaN (the right targets
// rely on both). The wrong targets
// compute x * 0 + 1 (NaN for infinite x) and clamp log's operand at 0
// (-inf, not NaN, for negative x).
func.func @pow0(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = math.powf %x, %z : f32
  return %r : f32
}
func.func @logneg(%x: f32) -> f32 {
  %r = math.log %x : f32
  return %r : f32
}
// tanh(±inf) = ±1 (C99 F.9.2.6); the right target returns it for infinite
// x without calling tanh, the wrong one returns +1 for both infinities.
func.func @tanhinf(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}
