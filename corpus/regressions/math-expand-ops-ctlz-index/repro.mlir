// math.ctlz on index: valid (the operand is SignlessIntegerOrIndexLike).
func.func @f(%a: index) -> index {
  %0 = math.ctlz %a : index
  return %0 : index
}
