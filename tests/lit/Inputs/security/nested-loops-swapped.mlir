// Three nested loops of 1,000 trips each: 10^9 bodies if unrolled (the
// operands of the add swapped).
func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %d = arith.addi %one, %x : i32
      }
    }
  }
  return %x : i32
}
