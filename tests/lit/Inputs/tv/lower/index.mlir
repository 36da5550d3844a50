// The index dialect (64-bit index). index.ceildivu: the right target is
// 0 or (a - 1) / b + 1; the wrong one, (a + b - 1) / b, overflows near
// the top of the range.
func.func @f(%a: index, %b: index) -> index {
  %r = index.ceildivu %a, %b
  return %r : index
}
