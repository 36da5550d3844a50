// Sources whose arith semantics leave a result open (maxnumf of two zeros)
// or whose fast-math flags widen it, against fastmath.tgt.mlir. Each
// legal rewrite has an illegal twin without the freedom it needs.
func.func @maxnumf_zero(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = arith.maxnumf %x, %z : f32
  return %r : f32
}
func.func @maximumf_zero(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = arith.maximumf %x, %z : f32
  return %r : f32
}
func.func @add_zero_nsz(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = arith.addf %x, %z fastmath<nsz> : f32
  return %r : f32
}
func.func @add_zero(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = arith.addf %x, %z : f32
  return %r : f32
}
func.func @sub_self_nnan(%x: f32) -> f32 {
  %r = arith.subf %x, %x fastmath<nnan> : f32
  return %r : f32
}
func.func @sub_self_ninf(%x: f32) -> f32 {
  %r = arith.subf %x, %x fastmath<ninf> : f32
  return %r : f32
}
func.func @fma_contract(%a: f16, %b: f16, %c: f16) -> f16 {
  %m = arith.mulf %a, %b fastmath<contract> : f16
  %r = arith.addf %m, %c fastmath<contract> : f16
  return %r : f16
}
func.func @fma_half_contract(%a: f16, %b: f16, %c: f16) -> f16 {
  %m = arith.mulf %a, %b : f16
  %r = arith.addf %m, %c fastmath<contract> : f16
  return %r : f16
}
func.func @recip_arcp(%a: f16, %b: f16) -> f16 {
  %r = arith.divf %a, %b fastmath<arcp> : f16
  return %r : f16
}
func.func @recip(%a: f16, %b: f16) -> f16 {
  %r = arith.divf %a, %b : f16
  return %r : f16
}
func.func @reassoc(%a: f16, %b: f16, %c: f16) -> f16 {
  %s = arith.addf %a, %b fastmath<reassoc> : f16
  %r = arith.addf %s, %c fastmath<reassoc> : f16
  return %r : f16
}
func.func @no_reassoc(%a: f16, %b: f16, %c: f16) -> f16 {
  %s = arith.addf %a, %b : f16
  %r = arith.addf %s, %c : f16
  return %r : f16
}
