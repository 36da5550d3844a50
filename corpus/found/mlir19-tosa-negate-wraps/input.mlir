module {
  func.func @gen_5674474497150710418(%v7: tensor<1xi16>) -> (tensor<1xi16>) {
    %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
    %v14 = tosa.negate %v7, %_c0, %_c0 : (tensor<1xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1xi16>
    return %v14 : tensor<1xi16>
  }
memref.global @repro_in0 : memref<1xi16> = dense<-32768>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1xi16>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1xi16> to tensor<1xi16>
  %out0 = func.call @gen_5674474497150710418(%in0) : (tensor<1xi16>) -> (tensor<1xi16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<1xi16>
    %w3 = arith.extsi %v2 : i16 to i64
    vector.print %w3 : i64
  }
  return
}
}
