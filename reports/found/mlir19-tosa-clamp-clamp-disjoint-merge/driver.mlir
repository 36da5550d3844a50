memref.global @repro_in0 : memref<1xi8> = dense<0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1xi8>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1xi8> to tensor<1xi8>
  %out0 = func.call @gen_14134094786488318478_int8(%in0) : (tensor<1xi8>) -> (tensor<1xi8>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<1xi8>
    %w3 = arith.extsi %v2 : i8 to i64
    vector.print %w3 : i64
  }
  return
}
