// select(x == 0, 1, x) inside a linalg.generic, where x is a result of an
// scf.if that also yields the generic's input tensor. For x = 5 every
// element is 5. MLIR 19 --int-range-optimizations folds the body to 1.
func.func @f(%c: i1, %x: i8, %t: tensor<4xi8>) -> tensor<4xi16> {
  %c0_i8 = arith.constant 0 : i8
  %y:2 = scf.if %c -> (tensor<4xi8>, i8) {
    scf.yield %t, %x : tensor<4xi8>, i8
  } else {
    scf.yield %t, %x : tensor<4xi8>, i8
  }
  %cst = arith.constant dense<0> : tensor<4xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y#0 : tensor<4xi8>) outs(%cst : tensor<4xi16>) {
  ^bb0(%in: i8, %out: i16):
    %5 = arith.cmpi eq, %y#1, %c0_i8 : i8
    %c1_i8 = arith.constant 1 : i8
    %7 = arith.select %5, %c1_i8, %y#1 : i8
    %8 = arith.extui %7 : i8 to i16
    linalg.yield %8 : i16
  } -> tensor<4xi16>
  return %r : tensor<4xi16>
}
