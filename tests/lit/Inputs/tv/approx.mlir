// math functions computed by a formula in approx.tgt.mlir: tan, exp2 and
// tanh as mlir-opt-22 --math-expand-ops writes them (approximate), round as
// it writes it (wrong by a whole unit at 0.49999997), and formulas of our
// own: NaN only at +inf (where MLIR defines no value), a number for NaN,
// and far from exp2.
func.func @tan(%x: f32) -> f32 {
  %r = math.tan %x : f32
  return %r : f32
}
func.func @exp2(%x: f32) -> f32 {
  %r = math.exp2 %x : f32
  return %r : f32
}
func.func @tanh(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}
func.func @round(%x: f32) -> f32 {
  %r = math.round %x : f32
  return %r : f32
}
func.func @tanh_ratio(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}
func.func @tanh_clamp(%x: f32) -> f32 {
  %r = math.tanh %x : f32
  return %r : f32
}
func.func @exp2_far(%x: f32) -> f32 {
  %r = math.exp2 %x : f32
  return %r : f32
}
