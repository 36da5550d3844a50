// index -> i1 -> index: truncation to the low bit, then sign extension, so
// %b is 0 or -1; it is not %x.
func.func @f(%x: index) -> index {
  %a = arith.index_cast %x : index to i1
  %b = arith.index_cast %a : i1 to index
  return %b : index
}
