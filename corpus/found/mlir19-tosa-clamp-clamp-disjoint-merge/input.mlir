module {
  func.func @gen_14134094786488318478_int8(%v37: tensor<1xi8>) -> (tensor<1xi8>) {
    %v38 = tosa.clamp %v37 {min_val = -48 : i8, max_val = -43 : i8} : (tensor<1xi8>) -> tensor<1xi8>
    %v49 = tosa.clamp %v38 {min_val = -22 : i8, max_val = 13 : i8} : (tensor<1xi8>) -> tensor<1xi8>
    %_c0 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
    %_c1 = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
    %_c2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %_c3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %v50 = "tosa.rescale"(%v49, %_c0, %_c1, %_c2, %_c3) <{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, scale32 = true}> : (tensor<1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1xi32>
    %_c4 = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
    %_c5 = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
    %_c6 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %_c7 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v64 = "tosa.rescale"(%v50, %_c4, %_c5, %_c6, %_c7) <{input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, scale32 = true}> : (tensor<1xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1xi8>
    return %v64 : tensor<1xi8>
  }
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
}
