func.func @if_to_select(%c: i1, %a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  %r = arith.select %c, %s, %b : i32
  return %r : i32
}
func.func @sum4(%t: tensor<4xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> i32 {
    %j = arith.subi %c4, %i : index
    %k = arith.subi %j, %c1 : index
    %e = tensor.extract %t[%k] : tensor<4xi32>
    %n = arith.addi %e, %acc : i32
    scf.yield %n : i32
  }
  return %r : i32
}
func.func @count(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> i32 {
    %c3 = arith.constant 3 : i32
    %m = arith.addi %c3, %acc : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @while_double(%x: i32, %lim: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %go = arith.cmpi slt, %v, %lim : i32
    scf.condition(%go) %v : i32
  } do {
  ^bb0(%v: i32):
    %c2 = arith.constant 2 : i32
    %d = arith.muli %v, %c2 : i32
    scf.yield %d : i32
  }
  return %r : i32
}
