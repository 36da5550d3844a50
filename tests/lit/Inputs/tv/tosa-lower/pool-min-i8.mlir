// The minimum over channels of an i8 max_pool2d (the bench's gen_75). The
// lowering starts each maximum from -128 and reads the padding as -128:
// the type's least value, max's identity, so both sides are one term (as
// comparison networks in two orders, Z3 took 2.4 s to prove them here).
func.func @f(%arg0: tensor<1x6x3x4xi8>) -> tensor<1x6x2x1xi8> {
  %0 = tosa.max_pool2d %arg0 {kernel = array<i64: 2, 3>, pad = array<i64: 1, 0, 1, 1>, stride = array<i64: 1, 2>} : (tensor<1x6x3x4xi8>) -> tensor<1x6x2x4xi8>
  %1 = tosa.reduce_min %0 {axis = 3 : i32} : (tensor<1x6x2x4xi8>) -> tensor<1x6x2x1xi8>
  return %1 : tensor<1x6x2x1xi8>
}
