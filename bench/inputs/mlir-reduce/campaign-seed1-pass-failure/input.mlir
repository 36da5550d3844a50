module {
  func.func @gen_16272684156629679070(%in0: tensor<1x3x4x1xf32>, %in1: tensor<3x3x1x1xf32>, %in2: tensor<1xf32>, %in3: tensor<1x1x1x1xf32>) -> (tensor<2x2x2x1xf32>, tensor<1x1x3x1xf32>, tensor<1x3x8xf16>, tensor<1x8x3xf16>) {
    %_c0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %_c1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v3 = "tosa.depthwise_conv2d"(%in0, %in1, %in2, %_c0, %_c1) <{acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 0, 2, 3, 0>, stride = array<i64: 1, 1>}> : (tensor<1x3x4x1xf32>, tensor<3x3x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3x1xf32>
    %v4 = tosa.sigmoid %v3 : (tensor<1x1x3x1xf32>) -> tensor<1x1x3x1xf32>
    %v5 = tosa.sub %v4, %v4 : (tensor<1x1x3x1xf32>, tensor<1x1x3x1xf32>) -> tensor<1x1x3x1xf32>
    %v6 = "tosa.concat"(%v5, %v4) <{axis = 0 : i32}> : (tensor<1x1x3x1xf32>, tensor<1x1x3x1xf32>) -> tensor<2x1x3x1xf32>
    %_c2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %_c3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v8 = "tosa.conv2d"(%v6, %in3, %in2, %_c2, %_c3) <{acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 1>}> : (tensor<2x1x3x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x3x1xf32>
    %v9 = tosa.tanh %v8 : (tensor<2x2x3x1xf32>) -> tensor<2x2x3x1xf32>
    %_c4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %_c5 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v10 = "tosa.avg_pool2d"(%v9, %_c4, %_c5) <{acc_type = f32, kernel = array<i64: 3, 1>, pad = array<i64: 2, 1, 0, 0>, stride = array<i64: 2, 2>}> : (tensor<2x2x3x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x1xf32>
    %v11 = tosa.abs %v3 : (tensor<1x1x3x1xf32>) -> tensor<1x1x3x1xf32>
    %v12 = "tosa.reduce_sum"(%v11) <{axis = 0 : i32}> : (tensor<1x1x3x1xf32>) -> tensor<1x1x3x1xf32>
    %v13 = "tosa.const"() <{values = dense<[[[-0.29736328125, 0.5, 1.9892578125, -1.0, -0.939453125, -1.0, -0.78564453125, 0.541015625], [1.0, -0.0, -0.2393798828125, 0.75634765625, 0.8544921875, -0.256591796875, -1.525390625, -1.8447265625], [1.306640625, -0.81396484375, -1.7412109375, -0.1064453125, -0.8671875, 1.189453125, -0.990234375, 0.2027587890625]]]> : tensor<1x3x8xf16>}> : () -> tensor<1x3x8xf16>
    %v14 = "tosa.const"() <{values = dense<[[[1.470703125, -1.0341796875, -1.3935546875, -1.4013671875, 1.0, 0.453125, -1.603515625, 0.99365234375], [0.9716796875, -1.47265625, 1.5166015625, 0.07330322265625, -0.97802734375, -0.73046875, 0.5166015625, 0.78662109375], [-1.8818359375, -0.1402587890625, 1.2890625, 0.0, 1.49609375, -0.017608642578125, 1.4326171875, -1.68359375]]]> : tensor<1x3x8xf16>}> : () -> tensor<1x3x8xf16>
    %v15 = "tosa.transpose"(%v14) <{perms = array<i32: 0, 2, 1>}> : (tensor<1x3x8xf16>) -> tensor<1x8x3xf16>
    return %v10, %v12, %v13, %v15 : tensor<2x2x2x1xf32>, tensor<1x1x3x1xf32>, tensor<1x3x8xf16>, tensor<1x8x3xf16>
  }
memref.global @repro_in0 : memref<1x3x4x1xf32> = dense<[[[[-1.8461202383041382], [1.4896543025970459], [-2.5], [-1.4696336984634399]], [[-0.069459103047847748], [-0.088174186646938324], [1.0], [0.17232269048690796]], [[0.94863361120223999], [0.46256992220878601], [-1.4180736541748047], [-0.27340000867843628]]]]>
memref.global @repro_in1 : memref<3x3x1x1xf32> = dense<[[[[-1.9405410289764404]], [[0.54758745431900024]], [[-1.3675302267074585]]], [[[1.6104618310928345]], [[-1.7891671657562256]], [[0.13392682373523712]]], [[[0.0]], [[0.84268981218338013]], [[0.54634356498718262]]]]>
memref.global @repro_in2 : memref<1xf32> = dense<1.7158396244049072>
memref.global @repro_in3 : memref<1x1x1x1xf32> = dense<0.40577921271324158>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1x3x4x1xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1x3x4x1xf32> to tensor<1x3x4x1xf32>
  %m1 = memref.get_global @repro_in1 : memref<3x3x1x1xf32>
  %in1 = bufferization.to_tensor %m1 restrict : memref<3x3x1x1xf32> to tensor<3x3x1x1xf32>
  %m2 = memref.get_global @repro_in2 : memref<1xf32>
  %in2 = bufferization.to_tensor %m2 restrict : memref<1xf32> to tensor<1xf32>
  %m3 = memref.get_global @repro_in3 : memref<1x1x1x1xf32>
  %in3 = bufferization.to_tensor %m3 restrict : memref<1x1x1x1xf32> to tensor<1x1x1x1xf32>
  %out0, %out1, %out2, %out3 = func.call @gen_16272684156629679070(%in0, %in1, %in2, %in3) : (tensor<1x3x4x1xf32>, tensor<3x3x1x1xf32>, tensor<1xf32>, tensor<1x1x1x1xf32>) -> (tensor<2x2x2x1xf32>, tensor<1x1x3x1xf32>, tensor<1x3x8xf16>, tensor<1x8x3xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 2 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 2 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 2 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 1 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<2x2x2x1xf32>
          %b9 = arith.bitcast %v8 : f32 to i32
          %w10 = arith.extui %b9 : i32 to i64
          vector.print %w10 : i64
        }
      }
    }
  }
  %n11 = arith.constant 1 : index
  scf.for %i12 = %c0 to %n11 step %c1 {
    %n13 = arith.constant 1 : index
    scf.for %i14 = %c0 to %n13 step %c1 {
      %n15 = arith.constant 3 : index
      scf.for %i16 = %c0 to %n15 step %c1 {
        %n17 = arith.constant 1 : index
        scf.for %i18 = %c0 to %n17 step %c1 {
          %v19 = tensor.extract %out1[%i12, %i14, %i16, %i18] : tensor<1x1x3x1xf32>
          %b20 = arith.bitcast %v19 : f32 to i32
          %w21 = arith.extui %b20 : i32 to i64
          vector.print %w21 : i64
        }
      }
    }
  }
  %n22 = arith.constant 1 : index
  scf.for %i23 = %c0 to %n22 step %c1 {
    %n24 = arith.constant 3 : index
    scf.for %i25 = %c0 to %n24 step %c1 {
      %n26 = arith.constant 8 : index
      scf.for %i27 = %c0 to %n26 step %c1 {
        %v28 = tensor.extract %out2[%i23, %i25, %i27] : tensor<1x3x8xf16>
        %b29 = arith.bitcast %v28 : f16 to i16
        %w30 = arith.extui %b29 : i16 to i64
        vector.print %w30 : i64
      }
    }
  }
  %n31 = arith.constant 1 : index
  scf.for %i32 = %c0 to %n31 step %c1 {
    %n33 = arith.constant 8 : index
    scf.for %i34 = %c0 to %n33 step %c1 {
      %n35 = arith.constant 3 : index
      scf.for %i36 = %c0 to %n35 step %c1 {
        %v37 = tensor.extract %out3[%i32, %i34, %i36] : tensor<1x8x3xf16>
        %b38 = arith.bitcast %v37 : f16 to i16
        %w39 = arith.extui %b38 : i16 to i64
        vector.print %w39 : i64
      }
    }
  }
  return
}
}
