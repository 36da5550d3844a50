// Symbolic indices: a slice at an offset given by an argument, and an
// insert at an index given by one (in bounds or undefined). The right
// target reads the two elements one by one; the wrong one swaps them.
func.func @slice(%t: tensor<6xi32>, %o: index) -> tensor<2xi32> {
  %s = tensor.extract_slice %t[%o] [2] [1] : tensor<6xi32> to tensor<2xi32>
  return %s : tensor<2xi32>
}
func.func @insert(%t: tensor<4xi32>, %i: index, %x: i32) -> i32 {
  %u = tensor.insert %x into %t[%i] : tensor<4xi32>
  %c0 = arith.constant 0 : index
  %r = tensor.extract %u[%c0] : tensor<4xi32>
  return %r : i32
}
