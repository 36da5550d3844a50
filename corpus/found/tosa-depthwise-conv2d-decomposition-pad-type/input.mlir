module {
  func.func @gen_15966408875322474052(%in0: tensor<1x1x1x2xi8>, %in1: tensor<1xi32>) -> (tensor<1x2x1x2xi32>) {
    %v1 = "tosa.const"() <{values = dense<0> : tensor<1x1x2x1xi8>}> : () -> tensor<1x1x2x1xi8>
    %_c0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %_c1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v3 = "tosa.depthwise_conv2d"(%in0, %v1, %in1, %_c0, %_c1) <{acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x1x1x2xi8>, tensor<1x1x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1x2xi32>
    return %v3 : tensor<1x2x1x2xi32>
  }
memref.global @repro_in0 : memref<1x1x1x2xi8> = dense<0>
memref.global @repro_in1 : memref<1xi32> = dense<0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1x1x1x2xi8>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1x1x1x2xi8> to tensor<1x1x1x2xi8>
  %m1 = memref.get_global @repro_in1 : memref<1xi32>
  %in1 = bufferization.to_tensor %m1 restrict : memref<1xi32> to tensor<1xi32>
  %out0 = func.call @gen_15966408875322474052(%in0, %in1) : (tensor<1x1x1x2xi8>, tensor<1xi32>) -> (tensor<1x2x1x2xi32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 2 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 1 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 2 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<1x2x1x2xi32>
          %w9 = arith.extsi %v8 : i32 to i64
          vector.print %w9 : i64
        }
      }
    }
  }
  return
}
}
