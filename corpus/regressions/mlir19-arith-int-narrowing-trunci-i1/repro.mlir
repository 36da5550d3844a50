// uitofp(trunci x to i1): the low bit of x as 0.0 or 1.0. For x = 11249
// (0x2BF1) it is 1.0; widening the i1 to i8 gives 0xF1 = 241.0.
func.func @f(%x: i16) -> f16 {
  %0 = arith.trunci %x : i16 to i1
  %1 = arith.uitofp %0 : i1 to f16
  return %1 : f16
}
