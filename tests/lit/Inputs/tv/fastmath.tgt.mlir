// Targets for fastmath.mlir: maxnumf and maximumf as a compare and select
// that keeps -0 against +0; x + 0 as x; x - x as 0; a*b + c as one fma;
// a / b as a * (1 / b); (a + b) + c as a + (b + c).
func.func @maxnumf_zero(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %c = arith.cmpf oge, %x, %z : f32
  %r = arith.select %c, %x, %z : f32
  return %r : f32
}
func.func @maximumf_zero(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %c = arith.cmpf uge, %x, %z : f32
  %r = arith.select %c, %x, %z : f32
  return %r : f32
}
func.func @add_zero_nsz(%x: f32) -> f32 {
  return %x : f32
}
func.func @add_zero(%x: f32) -> f32 {
  return %x : f32
}
func.func @sub_self_nnan(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  return %z : f32
}
func.func @sub_self_ninf(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  return %z : f32
}
func.func @fma_contract(%a: f16, %b: f16, %c: f16) -> f16 {
  %r = math.fma %a, %b, %c : f16
  return %r : f16
}
func.func @fma_half_contract(%a: f16, %b: f16, %c: f16) -> f16 {
  %r = math.fma %a, %b, %c : f16
  return %r : f16
}
func.func @recip_arcp(%a: f16, %b: f16) -> f16 {
  %one = arith.constant 1.0 : f16
  %i = arith.divf %one, %b : f16
  %r = arith.mulf %a, %i : f16
  return %r : f16
}
func.func @recip(%a: f16, %b: f16) -> f16 {
  %one = arith.constant 1.0 : f16
  %i = arith.divf %one, %b : f16
  %r = arith.mulf %a, %i : f16
  return %r : f16
}
func.func @reassoc(%a: f16, %b: f16, %c: f16) -> f16 {
  %s = arith.addf %b, %c : f16
  %r = arith.addf %a, %s : f16
  return %r : f16
}
func.func @no_reassoc(%a: f16, %b: f16, %c: f16) -> f16 {
  %s = arith.addf %b, %c : f16
  %r = arith.addf %a, %s : f16
  return %r : f16
}
