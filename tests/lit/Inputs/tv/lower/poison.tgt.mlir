func.func @wrap(%a: i8, %b: i8) -> i8 {
  %r = arith.addi %a, %b overflow<nsw> : i8
  return %r : i8
}
func.func @shift(%a: i32, %s: i32) -> i32 {
  %r = arith.shrui %a, %s : i32
  %k = arith.constant 12345 : i32
  %z = arith.constant 0 : i32
  %is = arith.cmpi eq, %a, %k : i32
  %o = arith.select %is, %z, %r : i32
  return %o : i32
}
