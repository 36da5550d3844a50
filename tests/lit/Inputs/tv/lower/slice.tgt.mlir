func.func @slice(%t: tensor<6xi32>, %o: index) -> tensor<2xi32> {
  %c1 = arith.constant 1 : index
  %o1 = arith.addi %o, %c1 : index
  %a = tensor.extract %t[%o] : tensor<6xi32>
  %b = tensor.extract %t[%o1] : tensor<6xi32>
  %s = tensor.from_elements %a, %b : tensor<2xi32>
  return %s : tensor<2xi32>
}
func.func @insert(%t: tensor<4xi32>, %i: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %old = tensor.extract %t[%c0] : tensor<4xi32>
  %is0 = arith.cmpi eq, %i, %c0 : index
  %r = arith.select %is0, %x, %old : i32
  return %r : i32
}
