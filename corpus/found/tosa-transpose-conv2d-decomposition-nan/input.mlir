module {
  func.func @gen_3314162010916773424_mixed(%in0: tensor<1x1x1x3xf32>, %v5: tensor<1xf32>) -> (tensor<3x3x3x1xf32>) {
    %v4 = "tosa.const"() <{values = dense<[[[[1.5625, 1.0, 0.9921875], [1.296875, -1.0, -1.0]], [[1.2109375, -1.09375, 2.5], [-1.671875, 1.2578125, -1.0]], [[1.0234375, 1.9765625, 1.671875], [1.0, 1.1953125, -1.5]]], [[[-0.78515625, -0.64453125, -0.07861328125], [1.0703125, 1.7265625, 1.171875]], [[1.1640625, 0.27734375, 1.921875], [0x7FC00000, 0.0, -1.0]], [[0x7FC00000, 0.87109375, -1.484375], [0.0189208984375, -0.0, 0.921875]]], [[[0.0, -0.35546875, -0.5], [0.051025390625, 0.7265625, 1.3046875]], [[-0.5, -1.2734375, -1.3203125], [0.1591796875, 0x7F800000, 1.0625]], [[0.87890625, 0.4296875, -0.5], [1.1484375, 1.390625, -1.8125]]]]> : tensor<3x3x2x3xf32>}> : () -> tensor<3x3x2x3xf32>
    %_c0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %_c1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v6 = "tosa.transpose_conv2d"(%v4, %in0, %v5, %_c0, %_c1) <{acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>}> : (tensor<3x3x2x3xf32>, tensor<1x1x1x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x3x3x1xf32>
    return %v6 : tensor<3x3x3x1xf32>
  }
memref.global @repro_in0 : memref<1x1x1x3xf32> = dense<0.0>
memref.global @repro_in1 : memref<1xf32> = dense<0.0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1x1x1x3xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1x1x1x3xf32> to tensor<1x1x1x3xf32>
  %m1 = memref.get_global @repro_in1 : memref<1xf32>
  %in1 = bufferization.to_tensor %m1 restrict : memref<1xf32> to tensor<1xf32>
  %out0 = func.call @gen_3314162010916773424_mixed(%in0, %in1) : (tensor<1x1x1x3xf32>, tensor<1xf32>) -> (tensor<3x3x3x1xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 3 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 3 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 3 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 1 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<3x3x3x1xf32>
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
