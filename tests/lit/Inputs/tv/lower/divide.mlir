// arith.ceildivsi, floordivsi and ceildivui (exact, with their undefined
// behaviour). The targets are what arith-expand writes; the wrong one
// compares the signs with ne instead of eq in @ceil.
func.func @ceil(%a: i32, %b: i32) -> i32 {
  %r = arith.ceildivsi %a, %b : i32
  return %r : i32
}
func.func @floor(%a: i32, %b: i32) -> i32 {
  %r = arith.floordivsi %a, %b : i32
  return %r : i32
}
func.func @ceilu(%a: i32, %b: i32) -> i32 {
  %r = arith.ceildivui %a, %b : i32
  return %r : i32
}
