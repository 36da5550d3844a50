func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.ori %a, %b : i32
  %1 = arith.andi %a, %b : i32
  %2 = arith.subi %0, %1 : i32
  return %2 : i32
}
