func.func @f(%a: index, %b: index) -> index {
  %z = index.constant 0
  %one = index.constant 1
  %isz = index.cmp eq(%a, %z)
  %m = index.sub %a, %one
  %q = index.divu %m, %b
  %q1 = index.add %q, %one
  %r = arith.select %isz, %z, %q1 : index
  return %r : index
}
