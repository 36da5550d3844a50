// An element proved by cut points (the clamp written in another order, cut
// at the product) and then one that differs at a single product: a
// proof by cuts of one element proves nothing of the next (tv.test).
func.func @f(%x: i32, %y: i32) -> (i32, i32) {
  %lo = arith.constant -100 : i32
  %hi = arith.constant 100 : i32
  %one = arith.constant 1 : i32
  %p = arith.muli %x, %y : i32
  %m = arith.maxsi %p, %lo : i32
  %c = arith.minsi %m, %hi : i32
  %q = arith.addi %p, %one : i32
  return %c, %q : i32, i32
}
