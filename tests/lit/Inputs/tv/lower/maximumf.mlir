// arith-expand writes arith.maximumf as compares and selects that give -0
// for maximumf(+0, -0) (corpus/found/arith-expand-maximumf-signed-zero).
// The old replay lowering ran arith-expand on the source too, which turned
// it into the target exactly, so both sides agreed and the counterexample
// was called spurious; the replay now lowers maximumf to
// llvm.intr.maximum directly.
func.func @max(%a: f32, %b: f32) -> f32 {
  %r = arith.maximumf %a, %b : f32
  return %r : f32
}
