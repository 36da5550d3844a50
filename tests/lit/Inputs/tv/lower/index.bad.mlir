func.func @f(%a: index, %b: index) -> index {
  %one = index.constant 1
  %s = index.add %a, %b
  %m = index.sub %s, %one
  %r = index.divu %m, %b
  return %r : index
}
