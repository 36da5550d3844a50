func.func @f(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (i32) {
    %k = arith.index_cast %i : index to i32
    %bit = arith.shrui %b, %k : i32
    %low = arith.andi %bit, %one : i32
    %set = arith.cmpi ne, %low, %zero : i32
    %part = arith.shli %a, %k : i32
    %add = arith.select %set, %part, %zero : i32
    %next = arith.addi %acc, %add : i32
    scf.yield %next : i32
  }
  return %r : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
