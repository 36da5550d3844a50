func.func @f(%x: i64) -> i64 {
  %max = arith.constant 9223372036854775807 : i64
  %z = arith.constant 0 : i64
  %is = arith.cmpi eq, %x, %max : i64
  %r = arith.select %is, %z, %x : i64
  return %r : i64
}
