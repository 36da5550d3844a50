module {
  func.func @gen_3244416129807894228_int8(%v6: tensor<2x2xi16>) -> (tensor<2x2xi16>) {
    %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
    %v7 = tosa.negate %v6, %_c0, %_c0 : (tensor<2x2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x2xi16>
    %_c1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
    %v8 = tosa.negate %v7, %_c1, %_c1 : (tensor<2x2xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x2xi16>
    return %v8 : tensor<2x2xi16>
  }
memref.global @repro_in0 : memref<2x2xi16> = dense<[[-732, 785], [1020, -32768]]>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<2x2xi16>
  %in0 = bufferization.to_tensor %m0 restrict : memref<2x2xi16> to tensor<2x2xi16>
  %out0 = func.call @gen_3244416129807894228_int8(%in0) : (tensor<2x2xi16>) -> (tensor<2x2xi16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 2 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 2 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %v4 = tensor.extract %out0[%i1, %i3] : tensor<2x2xi16>
      %w5 = arith.extsi %v4 : i16 to i64
      vector.print %w5 : i64
    }
  }
  return
}
}
