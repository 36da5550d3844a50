module {
  func.func @dup_output(%a: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
    %y = tosa.abs %a : (tensor<1xf32>) -> tensor<1xf32>
    return %y, %y : tensor<1xf32>, tensor<1xf32>
  }
memref.global @repro_in0 : memref<1xf32> = dense<0.0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1xf32> to tensor<1xf32>
  %out0, %out1 = func.call @dup_output(%in0) : (tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<1xf32>
    %b3 = arith.bitcast %v2 : f32 to i32
    %w4 = arith.extui %b3 : i32 to i64
    vector.print %w4 : i64
  }
  %n5 = arith.constant 1 : index
  scf.for %i6 = %c0 to %n5 step %c1 {
    %v7 = tensor.extract %out1[%i6] : tensor<1xf32>
    %b8 = arith.bitcast %v7 : f32 to i32
    %w9 = arith.extui %b8 : i32 to i64
    vector.print %w9 : i64
  }
  return
}
}
