// cmpf with an always-false (or always-true) predicate of an int-to-float
// conversion and a constant: valid, the result is false (true).
func.func @f(%x: i32) -> i1 {
  %0 = arith.uitofp %x : i32 to f32
  %c = arith.constant 1.5 : f32
  %1 = arith.cmpf false, %0, %c : f32
  return %1 : i1
}
