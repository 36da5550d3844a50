// arith.bitcast and math.copysign, exact. @isnan tests NaN through the
// bits (a NaN is any pattern with an all-ones exponent and a non-zero
// mantissa); @roundtrip is canonicalize's bitcast(bitcast(x)) -> x;
// @copysign is the expansion through the sign bit.
func.func @isnan(%x: f32) -> i1 {
  %r = arith.cmpf uno, %x, %x : f32
  return %r : i1
}
func.func @roundtrip(%x: i32) -> i32 {
  %f = arith.bitcast %x : i32 to f32
  %r = arith.bitcast %f : f32 to i32
  return %r : i32
}
func.func @copysign(%a: f32, %b: f32) -> f32 {
  %r = math.copysign %a, %b : f32
  return %r : f32
}
