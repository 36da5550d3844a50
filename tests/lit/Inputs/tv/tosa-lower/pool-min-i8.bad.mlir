module {
  func.func @f(%arg0: tensor<1x6x3x4xi8>) -> tensor<1x6x2x1xi8> {
    %c-128_i8 = arith.constant -128 : i8
    %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 1, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %c-128_i8 : i8
    } : tensor<1x6x3x4xi8> to tensor<1x7x5x4xi8>
    %c-128_i8_0 = arith.constant -127 : i8
    %0 = tensor.empty() : tensor<1x6x2x4xi8>
    %1 = linalg.fill ins(%c-128_i8_0 : i8) outs(%0 : tensor<1x6x2x4xi8>) -> tensor<1x6x2x4xi8>
    %2 = tensor.empty() : tensor<2x3xi8>
    %3 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%padded, %2 : tensor<1x7x5x4xi8>, tensor<2x3xi8>) outs(%1 : tensor<1x6x2x4xi8>) -> tensor<1x6x2x4xi8>
    %4 = tensor.empty() : tensor<1x6x2xi8>
    %c127_i8 = arith.constant 127 : i8
    %5 = linalg.fill ins(%c127_i8 : i8) outs(%4 : tensor<1x6x2xi8>) -> tensor<1x6x2xi8>
    %reduced = linalg.reduce ins(%3 : tensor<1x6x2x4xi8>) outs(%5 : tensor<1x6x2xi8>) dimensions = [3] 
      (%in: i8, %init: i8) {
        %6 = arith.minsi %in, %init : i8
        linalg.yield %6 : i8
      }
    %expanded = tensor.expand_shape %reduced [[0], [1], [2, 3]] output_shape [1, 6, 2, 1] : tensor<1x6x2xi8> into tensor<1x6x2x1xi8>
    return %expanded : tensor<1x6x2x1xi8>
  }
}

