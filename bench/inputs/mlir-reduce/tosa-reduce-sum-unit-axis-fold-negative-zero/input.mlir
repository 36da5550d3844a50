module {
  func.func @gen_7457868174987631246_f16(%in0: tensor<1x3x4x1xf16>, %v6: tensor<1x1x1x1xf16>) -> (tensor<1x3x4x1xf16>) {
    %v4 = "tosa.reduce_sum"(%in0) <{axis = 0 : i32}> : (tensor<1x3x4x1xf16>) -> tensor<1x3x4x1xf16>
    %v7 = tosa.rsqrt %v4 : (tensor<1x3x4x1xf16>) -> tensor<1x3x4x1xf16>
    %v8 = tosa.add %v6, %v7 : (tensor<1x1x1x1xf16>, tensor<1x3x4x1xf16>) -> tensor<1x3x4x1xf16>
    return %v8 : tensor<1x3x4x1xf16>
  }
memref.global @repro_in0 : memref<1x3x4x1xf16> = dense<[[[[-0.00075769424438476562], [0.0008106231689453125], [0.00020325183868408203], [-1.9609928131103516e-05]], [[-0.001026153564453125], [-0.00057315826416015625], [-0.00030970573425292969], [-0.0]], [[6.1094760894775391e-05], [0.0011835098266601562], [-0.00058317184448242188], [-0.00023782253265380859]]]]>
memref.global @repro_in1 : memref<1x1x1x1xf16> = dense<0.0>
func.func @repro_main() {
  %m0 = memref.get_global @repro_in0 : memref<1x3x4x1xf16>
  %in0 = bufferization.to_tensor %m0 restrict : memref<1x3x4x1xf16> to tensor<1x3x4x1xf16>
  %m1 = memref.get_global @repro_in1 : memref<1x1x1x1xf16>
  %in1 = bufferization.to_tensor %m1 restrict : memref<1x1x1x1xf16> to tensor<1x1x1x1xf16>
  %out0 = func.call @gen_7457868174987631246_f16(%in0, %in1) : (tensor<1x3x4x1xf16>, tensor<1x1x1x1xf16>) -> (tensor<1x3x4x1xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i64
  %n0 = arith.constant 1 : index
  scf.for %i1 = %c0 to %n0 step %c1 {
    %n2 = arith.constant 3 : index
    scf.for %i3 = %c0 to %n2 step %c1 {
      %n4 = arith.constant 4 : index
      scf.for %i5 = %c0 to %n4 step %c1 {
        %n6 = arith.constant 1 : index
        scf.for %i7 = %c0 to %n6 step %c1 {
          %v8 = tensor.extract %out0[%i1, %i3, %i5, %i7] : tensor<1x3x4x1xf16>
          %b9 = arith.bitcast %v8 : f16 to i16
          %w10 = arith.extui %b9 : i16 to i64
          vector.print %w10 : i64
        }
      }
    }
  }
  return
}
}
