module {
  func.func @gen_9857742628843978317_bf16(%v10: tensor<2xbf16>) -> (tensor<2xbf16>) {
    %v11 = tosa.log %v10 : (tensor<2xbf16>) -> tensor<2xbf16>
    %v12 = tosa.exp %v11 : (tensor<2xbf16>) -> tensor<2xbf16>
    return %v12 : tensor<2xbf16>
  }
}
