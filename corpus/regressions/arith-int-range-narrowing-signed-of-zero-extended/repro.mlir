// minsi(index_castui(x : i32), 2) for x = -9: index_castui zero-extends,
// so the operand is 2^32 - 9 and the minimum is 2. @main prints it.
func.func @f(%x: i32) -> index {
  %i = arith.index_castui %x : i32 to index
  %c2 = arith.constant 2 : index
  %m = arith.minsi %i, %c2 : index
  return %m : index
}

func.func @main() {
  %m9 = arith.constant -9 : i32
  %0 = func.call @f(%m9) : (i32) -> index
  vector.print %0 : index
  return
}
