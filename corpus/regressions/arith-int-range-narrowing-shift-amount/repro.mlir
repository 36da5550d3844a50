// shrsi(index_cast(x : i8), andi(s, 63)) for x = -100, s = 10: the shift
// amount is 10, within index's 64 bits, so the result is -1. @main prints
// it (as an i8 after index_cast).
func.func @f(%x: i8, %s: index) -> i8 {
  %i = arith.index_cast %x : i8 to index
  %c63 = arith.constant 63 : index
  %a = arith.andi %s, %c63 : index
  %r = arith.shrsi %i, %a : index
  %t = arith.index_cast %r : index to i8
  return %t : i8
}

func.func @main() {
  %x = arith.constant -100 : i8
  %s = arith.constant 10 : index
  %0 = func.call @f(%x, %s) : (i8, index) -> i8
  %1 = arith.extsi %0 : i8 to i64
  vector.print %1 : i64
  return
}
