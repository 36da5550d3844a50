// arith.maximumf(+0.0, -0.0) is +0.0; after --arith-expand it is -0.0.
func.func @maximumf(%a: f32, %b: f32) -> f32 {
  %r = arith.maximumf %a, %b : f32
  return %r : f32
}

func.func @main() {
  %pos = arith.constant 0.0 : f32
  %neg = arith.constant -0.0 : f32
  %r = func.call @maximumf(%pos, %neg) : (f32, f32) -> f32
  vector.print %r : f32
  return
}
