// scf: @if_to_select is scf.if turned into arith.select (right; the wrong
// target swaps the branches). @sum4 sums a 4-element tensor in an scf.for
// with a constant trip count (unrolled exactly). @count runs %n times: its
// trip count is an argument, so the loop is unrolled up to the bound.
// @while_double doubles %x while it is below %lim.
func.func @if_to_select(%c: i1, %a: i32, %b: i32) -> i32 {
  %r = scf.if %c -> i32 {
    %s = arith.addi %a, %b : i32
    scf.yield %s : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @sum4(%t: tensor<4xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> i32 {
    %e = tensor.extract %t[%i] : tensor<4xi32>
    %n = arith.addi %acc, %e : i32
    scf.yield %n : i32
  }
  return %r : i32
}
func.func @count(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> i32 {
    %c3 = arith.constant 3 : i32
    %m = arith.addi %acc, %c3 : i32
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
    %d = arith.addi %v, %v : i32
    scf.yield %d : i32
  }
  return %r : i32
}
