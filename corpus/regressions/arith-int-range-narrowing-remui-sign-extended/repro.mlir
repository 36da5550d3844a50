// remui(index_cast(x), 9) for x = -7: index_cast sign-extends, so the
// dividend is 2^64 - 7 and the remainder is 0. @main prints it.
func.func @f(%x: i32) -> index {
  %i = arith.index_cast %x : i32 to index
  %c9 = arith.constant 9 : index
  %r = arith.remui %i, %c9 : index
  return %r : index
}

func.func @main() {
  %m7 = arith.constant -7 : i32
  %0 = func.call @f(%m7) : (i32) -> index
  vector.print %0 : index
  return
}
