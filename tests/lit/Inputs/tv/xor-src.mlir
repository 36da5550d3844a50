// a ^ b, and the same written with or, and, sub (tv.test: a query Z3
// must bit-blast, whatever the encoding simplifies).
func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.xori %a, %b : i32
  return %0 : i32
}
