// Reads %a, writes %b, reads %a again: where %b is %a, the second read
// sees the write.
func.func @reload(%a: memref<2xf32>, %b: memref<2xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = memref.load %a[%c0] : memref<2xf32>
  memref.store %one, %b[%c0] : memref<2xf32>
  %y = memref.load %a[%c0] : memref<2xf32>
  %r = arith.addf %x, %y : f32
  return %r : f32
}
func.func @noalias(%a: memref<2xf32> {llvm.noalias}, %b: memref<2xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = memref.load %a[%c0] : memref<2xf32>
  memref.store %one, %b[%c0] : memref<2xf32>
  %y = memref.load %a[%c0] : memref<2xf32>
  %r = arith.addf %x, %y : f32
  return %r : f32
}
