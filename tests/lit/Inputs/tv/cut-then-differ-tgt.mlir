func.func @f(%x: i32, %y: i32) -> (i32, i32) {
  %lo = arith.constant -100 : i32
  %hi = arith.constant 100 : i32
  %one = arith.constant 1 : i32
  %rare = arith.constant 12345 : i32
  %zero = arith.constant 0 : i32
  %p = arith.muli %x, %y : i32
  %m = arith.minsi %p, %hi : i32
  %c = arith.maxsi %m, %lo : i32
  %q = arith.addi %p, %one : i32
  %is = arith.cmpi eq, %p, %rare : i32
  %q2 = arith.select %is, %zero, %q : i32
  return %c, %q2 : i32, i32
}
