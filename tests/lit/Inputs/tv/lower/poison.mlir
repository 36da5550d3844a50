// Poison that execution cannot show. @wrap: an nsw flag added to an add
// that may overflow (poison only; both sides compute the same bits).
// @shift: a shift amount left unmasked (poison at 32 or more, which x86
// masks as the source does) and a wrong result at one value, which the
// re-query for a value difference finds.
func.func @wrap(%a: i8, %b: i8) -> i8 {
  %r = arith.addi %a, %b : i8
  return %r : i8
}
func.func @shift(%a: i32, %s: i32) -> i32 {
  %c31 = arith.constant 31 : i32
  %m = arith.andi %s, %c31 : i32
  %r = arith.shrui %a, %m : i32
  return %r : i32
}
