module {
  func.func @gen_18201055614483887_int8(%v13: tensor<1x1x1x1xf32>, %v17: tensor<1x1x1x1xf32>, %v21: tensor<1xf32>) -> (tensor<1x1x1x1xf32>) {
    %_c0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %_c1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v22 = "tosa.conv2d"(%v13, %v17, %v21, %_c0, %_c1) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x1xf32>
    return %v22 : tensor<1x1x1x1xf32>
  }
memref.global @repro_in0 : memref<1x1x1x1xf32> = dense<0.0>
memref.global @repro_in1 : memref<1x1x1x1xf32> = dense<0.0>
memref.global @repro_in2 : memref<1xf32> = dense<0.0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1x1x1x1xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1x1x1x1xf32> to tensor<1x1x1x1xf32>
  %m1 = memref.get_global @repro_in1 : memref<1x1x1x1xf32>
  %in1 = bufferization.to_tensor %m1 restrict : memref<1x1x1x1xf32> to tensor<1x1x1x1xf32>
  %m2 = memref.get_global @repro_in2 : memref<1xf32>
  %in2 = bufferization.to_tensor %m2 restrict : memref<1xf32> to tensor<1xf32>
  %out0 = func.call @gen_18201055614483887_int8(%in0, %in1, %in2) : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> (tensor<1x1x1x1xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 1 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 1 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 1 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<1x1x1x1xf32>
          %b9 = arith.bitcast %v8 : f32 to i32
          %w10 = arith.extui %b9 : i32 to i64
          vector.print %w10 : i64
        }
      }
    }
  }
  return
}
}
