module {
  func.func @gen_2168204144221154338(%in0: tensor<4xf32>, %in1: tensor<1x4x8xf16>, %in2: tensor<1x8x4xf16>, %in3: tensor<1x1x4xf16>, %in4: tensor<1x4x8xi1>) -> (tensor<4xi1>, tensor<4xf32>, tensor<1x4x4xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>) {
    %v0 = "tosa.const"() <{values = dense<[0.90577435493469238, -0.93754690885543823, -0.6523514986038208, -1.5]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %v2 = tosa.greater_equal %v0, %in0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %_c0 = "tosa.const_shape"() <{values = dense<[4]> : tensor<1xindex>}> : () -> !tosa.shape<1>
    %v3 = "tosa.reshape"(%in0, %_c0) : (tensor<4xf32>, !tosa.shape<1>) -> tensor<4xf32>
    %_c1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v4 = tosa.mul %v3, %in0, %_c1 : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    %_c2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
    %_c3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
    %v7 = "tosa.matmul"(%in1, %in2, %_c2, %_c3) : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf16>
    %v9 = tosa.add %v7, %in3 : (tensor<1x4x4xf16>, tensor<1x1x4xf16>) -> tensor<1x4x4xf16>
    %v10 = tosa.sigmoid %v9 : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
    %v11 = tosa.reciprocal %in1 : (tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
    %v13 = "tosa.const"() <{values = dense<[[[-1.5732421875, 0.5166015625, -1.0, -0.93701171875, -0.80126953125, 0.302978515625, -1.3759765625, -0.88037109375], [-1.658203125, -1.35546875, 1.8173828125, -1.412109375, 0.0538330078125, 0.5625, -0.88623046875, -1.66015625], [-1.109375, 0.86181640625, 1.193359375, -1.90234375, -1.216796875, -0.0, 0.78857421875, 0.9921875], [1.8125, -0.0, 0.7412109375, -0.48046875, 0.052886962890625, -1.9423828125, 1.52587890625e-05, -0.9384765625]]]> : tensor<1x4x8xf16>}> : () -> tensor<1x4x8xf16>
    %v14 = tosa.select %in4, %in1, %v13 : (tensor<1x4x8xi1>, tensor<1x4x8xf16>, tensor<1x4x8xf16>) -> tensor<1x4x8xf16>
    return %v2, %v4, %v10, %v11, %v14 : tensor<4xi1>, tensor<4xf32>, tensor<1x4x4xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>
  }
memref.global @repro_in0 : memref<4xf32> = dense<[-1.7480214834213257, -1.5412182807922363, -1.1479007005691528, 1.2439906597137451]>
memref.global @repro_in1 : memref<1x4x8xf16> = dense<[[[-0.00084257125854492188, 0.000553131103515625, -0.0010709762573242188, 0.0005035400390625, 0.0010509490966796875, 0.0011749267578125, -0.0012197494506835938, 9.1433525085449219e-05], [0.00021541118621826172, -0.00083303451538085938, 0.0003662109375, -0.00039649009704589844, -0.0010728836059570312, -0.0002574920654296875, 0.00030612945556640625, 0.00077295303344726562], [0.00033664703369140625, -1.7464160919189453e-05, -0.00059461593627929688, -0.00056743621826171875, -0.00070714950561523438, 0.0010938644409179688, -0.00027012825012207031, 0.001079559326171875], [-0.00056123733520507812, 0.0011034011840820312, -0.0010538101196289062, -0.00081682205200195312, -0.0009937286376953125, 0.00073003768920898438, 0.0011005401611328125, -0.001216888427734375]]]>
memref.global @repro_in2 : memref<1x8x4xf16> = dense<[[[1.1884765625, -0.841796875, -1.0615234375, -1.828125], [-1.3447265625, 1.20703125, 1.0751953125, 0.3974609375], [-1.33203125, 0.115478515625, 1.9052734375, 0.58056640625], [-0.0, 0.52197265625, -2.5, -1.0], [-0.859375, 1.904296875, 2.5, 0.8388671875], [1.8974609375, 1.91015625, 0.499755859375, 0.333984375], [0.486328125, 0.2259521484375, 1.0234375, -1.2470703125], [0.0149688720703125, -2.0, 1.734375, -1.3515625]]]>
memref.global @repro_in3 : memref<1x1x4xf16> = dense<[[[-0.630859375, 1.173828125, 1.8095703125, -0.62451171875]]]>
memref.global @repro_in4 : memref<1x4x8xi1> = dense<[[[false, true, true, false, true, true, true, true], [false, false, false, true, true, true, true, true], [true, true, false, false, false, true, true, true], [false, true, false, true, true, false, true, false]]]>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<4xf32>
  %in0 = bufferization.to_tensor %m0 restrict : memref<4xf32> to tensor<4xf32>
  %m1 = memref.get_global @repro_in1 : memref<1x4x8xf16>
  %in1 = bufferization.to_tensor %m1 restrict : memref<1x4x8xf16> to tensor<1x4x8xf16>
  %m2 = memref.get_global @repro_in2 : memref<1x8x4xf16>
  %in2 = bufferization.to_tensor %m2 restrict : memref<1x8x4xf16> to tensor<1x8x4xf16>
  %m3 = memref.get_global @repro_in3 : memref<1x1x4xf16>
  %in3 = bufferization.to_tensor %m3 restrict : memref<1x1x4xf16> to tensor<1x1x4xf16>
  %m4 = memref.get_global @repro_in4 : memref<1x4x8xi1>
  %in4 = bufferization.to_tensor %m4 restrict : memref<1x4x8xi1> to tensor<1x4x8xi1>
  %out0, %out1, %out2, %out3, %out4 = func.call @gen_2168204144221154338(%in0, %in1, %in2, %in3, %in4) : (tensor<4xf32>, tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1x1x4xf16>, tensor<1x4x8xi1>) -> (tensor<4xi1>, tensor<4xf32>, tensor<1x4x4xf16>, tensor<1x4x8xf16>, tensor<1x4x8xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 4 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %v2 = tensor.extract %out0[%i1] : tensor<4xi1>
    %w3 = arith.extui %v2 : i1 to i64
    vector.print %w3 : i64
  }
  %n4 = arith.constant 4 : index
  scf.for %i5 = %c0 to %n4 step %c1 {
    %v6 = tensor.extract %out1[%i5] : tensor<4xf32>
    %b7 = arith.bitcast %v6 : f32 to i32
    %w8 = arith.extui %b7 : i32 to i64
    vector.print %w8 : i64
  }
  %n9 = arith.constant 1 : index
  scf.for %i10 = %c0 to %n9 step %c1 {
    %n11 = arith.constant 4 : index
    scf.for %i12 = %c0 to %n11 step %c1 {
      %n13 = arith.constant 4 : index
      scf.for %i14 = %c0 to %n13 step %c1 {
        %v15 = tensor.extract %out2[%i10, %i12, %i14] : tensor<1x4x4xf16>
        %b16 = arith.bitcast %v15 : f16 to i16
        %w17 = arith.extui %b16 : i16 to i64
        vector.print %w17 : i64
      }
    }
  }
  %n18 = arith.constant 1 : index
  scf.for %i19 = %c0 to %n18 step %c1 {
    %n20 = arith.constant 4 : index
    scf.for %i21 = %c0 to %n20 step %c1 {
      %n22 = arith.constant 8 : index
      scf.for %i23 = %c0 to %n22 step %c1 {
        %v24 = tensor.extract %out3[%i19, %i21, %i23] : tensor<1x4x8xf16>
        %b25 = arith.bitcast %v24 : f16 to i16
        %w26 = arith.extui %b25 : i16 to i64
        vector.print %w26 : i64
      }
    }
  }
  %n27 = arith.constant 1 : index
  scf.for %i28 = %c0 to %n27 step %c1 {
    %n29 = arith.constant 4 : index
    scf.for %i30 = %c0 to %n29 step %c1 {
      %n31 = arith.constant 8 : index
      scf.for %i32 = %c0 to %n31 step %c1 {
        %v33 = tensor.extract %out4[%i28, %i30, %i32] : tensor<1x4x8xf16>
        %b34 = arith.bitcast %v33 : f16 to i16
        %w35 = arith.extui %b34 : i16 to i64
        vector.print %w35 : i64
      }
    }
  }
  return
}
}
