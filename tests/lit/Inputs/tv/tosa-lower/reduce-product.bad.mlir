module {
  func.func @f(%arg0: tensor<2x3xf32>) -> tensor<2x1xf32> {
    %0 = tensor.empty() : tensor<2xf32>
    %cst = arith.constant 1.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2xf32>) -> tensor<2xf32>
    %reduced = linalg.reduce ins(%arg0 : tensor<2x3xf32>) outs(%1 : tensor<2xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %2 = arith.addf %in, %init : f32
        linalg.yield %2 : f32
      }
    %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
    return %expanded : tensor<2x1xf32>
  }
}

