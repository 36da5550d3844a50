// Calls of a declared function: one uninterpreted function, the same on
// both sides. Commuting the operands of the add around it is correct;
// swapping the call's own operands is not (confirmed by execution of the
// definition linked in: no, replay cannot run a declaration).
func.func private @ext(f32, f32) -> f32

func.func @f(%a: f32, %b: f32) -> f32 {
  %c = func.call @ext(%a, %b) : (f32, f32) -> f32
  %r = arith.addf %c, %a : f32
  return %r : f32
}
