// A counterexample that depends on an uninterpreted function: Z3 finds
// sin(sin(x)) != sin(x) at x = 0, where libm agrees (both are 0); the
// probes' edge values show the difference.
func.func @f(%x: f32) -> f32 {
  %r = math.sin %x : f32
  return %r : f32
}
