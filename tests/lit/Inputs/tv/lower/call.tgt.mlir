func.func private @ext(f32, f32) -> f32

func.func @f(%a: f32, %b: f32) -> f32 {
  %c = func.call @ext(%a, %b) : (f32, f32) -> f32
  %r = arith.addf %a, %c : f32
  return %r : f32
}
