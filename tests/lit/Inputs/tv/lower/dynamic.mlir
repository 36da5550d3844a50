// Dynamic sizes, checked at every size at once: a TOSA broadcast lowered
// with its size tests, tosa.reverse, an elementwise division (undefined
// where a divisor is 0, at whichever element), a slice of a slice at
// offsets and sizes given by arguments (@window: of a tensor of static
// size), and @reshape, absolute values through a collapse and an expand
// of a dynamic dimension.
func.func @bcast(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tosa.add %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @reverse(%a: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = tosa.reverse %a {axis = 1 : i32} : (tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
func.func @div(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %0 = arith.divsi %a, %b : tensor<?xi32>
  return %0 : tensor<?xi32>
}
func.func @slices(%t: tensor<?xf32>, %o: index, %n: index, %m: index) -> tensor<?xf32> {
  %s = tensor.extract_slice %t[%o] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %c1 = arith.constant 1 : index
  %r = tensor.extract_slice %s[%c1] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @reshape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = math.absf %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
func.func @window(%t: tensor<8xf32>, %o: index, %n: index, %m: index) -> tensor<?xf32> {
  %s = tensor.extract_slice %t[%o] [%n] [1] : tensor<8xf32> to tensor<?xf32>
  %c1 = arith.constant 1 : index
  %r = tensor.extract_slice %s[%c1] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}
