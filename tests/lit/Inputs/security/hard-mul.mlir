// A multiplication, and in the target the same multiplication as 32
// shift-and-add steps: true, and far beyond what a bit-blasting solver
// proves in minutes (an equivalence of multipliers).
func.func @f(%a: i32, %b: i32) -> i32 {
  %m = arith.muli %a, %b : i32
  return %m : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
