func.func @isnan(%x: f32) -> i1 {
  %b = arith.bitcast %x : f32 to i32
  %m = arith.constant 2147483647 : i32
  %a = arith.andi %b, %m : i32
  %inf = arith.constant 2139095040 : i32
  %r = arith.cmpi uge, %a, %inf : i32
  return %r : i1
}
func.func @roundtrip(%x: i32) -> i32 {
  %f = arith.bitcast %x : i32 to f32
  %r = arith.fptosi %f : f32 to i32
  return %r : i32
}
func.func @copysign(%a: f32, %b: f32) -> f32 {
  %ia = arith.bitcast %a : f32 to i32
  %z = arith.constant 0.0 : f32
  %neg = arith.cmpf olt, %b, %z : f32
  %one = arith.constant -2147483648 : i32
  %zero = arith.constant 0 : i32
  %ib = arith.select %neg, %one, %zero : i32
  %mag = arith.constant 2147483647 : i32
  %sgn = arith.constant -2147483648 : i32
  %x = arith.andi %ia, %mag : i32
  %y = arith.andi %ib, %sgn : i32
  %o = arith.ori %x, %y : i32
  %r = arith.bitcast %o : i32 to f32
  return %r : f32
}
