// Targets for llvm.mlir. div_signed divides unsigned (wrong); maximum uses
// maxnum, which drops NaN (wrong); casts zero-extends (wrong); the others
// are what the conversions write.
func.func @add_nsw(%a: i32, %b: i32) -> i32 {
  %r = llvm.add %a, %b overflow<nsw> : i32
  return %r : i32
}
func.func @div_signed(%a: i32, %b: i32) -> i32 {
  %r = llvm.udiv %a, %b : i32
  return %r : i32
}
func.func @index_add(%a: index, %b: index) -> index {
  %x = builtin.unrealized_conversion_cast %a : index to i64
  %y = builtin.unrealized_conversion_cast %b : index to i64
  %s = llvm.add %x, %y : i64
  %r = builtin.unrealized_conversion_cast %s : i64 to index
  return %r : index
}
func.func @maxnum(%a: f32, %b: f32) -> f32 {
  %r = llvm.intr.maxnum(%b, %a) : (f32, f32) -> f32
  return %r : f32
}
func.func @maximum(%a: f32, %b: f32) -> f32 {
  %r = llvm.intr.maxnum(%a, %b) : (f32, f32) -> f32
  return %r : f32
}
func.func @select_lt(%a: f32, %b: f32) -> f32 {
  %c = llvm.fcmp "olt" %a, %b : f32
  %r = llvm.select %c, %a, %b : i1, f32
  return %r : f32
}
func.func @ctlz(%a: i16) -> i16 {
  %r = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i16) -> i16
  return %r : i16
}
func.func @fmuladd(%a: f16, %b: f16, %c: f16) -> f16 {
  %r = llvm.intr.fmuladd(%a, %b, %c) : (f16, f16, f16) -> f16
  return %r : f16
}
func.func @casts(%a: i8) -> f32 {
  %e = llvm.zext %a : i8 to i32
  %f = llvm.sitofp %e : i32 to f32
  return %f : f32
}
