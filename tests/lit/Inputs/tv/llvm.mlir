// arith and math sources against llvm-dialect targets (llvm.tgt.mlir), as
// convert-arith-to-llvm and convert-math-to-llvm write them.
func.func @add_nsw(%a: i32, %b: i32) -> i32 {
  %r = arith.addi %a, %b overflow<nsw> : i32
  return %r : i32
}
func.func @div_signed(%a: i32, %b: i32) -> i32 {
  %r = arith.divsi %a, %b : i32
  return %r : i32
}
func.func @index_add(%a: index, %b: index) -> index {
  %r = arith.addi %a, %b : index
  return %r : index
}
func.func @maxnum(%a: f32, %b: f32) -> f32 {
  %r = arith.maxnumf %a, %b : f32
  return %r : f32
}
func.func @maximum(%a: f32, %b: f32) -> f32 {
  %r = arith.maximumf %a, %b : f32
  return %r : f32
}
func.func @select_lt(%a: f32, %b: f32) -> f32 {
  %c = arith.cmpf olt, %a, %b : f32
  %r = arith.select %c, %a, %b : f32
  return %r : f32
}
func.func @ctlz(%a: i16) -> i16 {
  %r = math.ctlz %a : i16
  return %r : i16
}
func.func @fmuladd(%a: f16, %b: f16, %c: f16) -> f16 {
  %m = arith.mulf %a, %b fastmath<contract> : f16
  %r = arith.addf %m, %c fastmath<contract> : f16
  return %r : f16
}
func.func @casts(%a: i8) -> f32 {
  %e = arith.extsi %a : i8 to i32
  %f = arith.sitofp %e : i32 to f32
  return %f : f32
}
