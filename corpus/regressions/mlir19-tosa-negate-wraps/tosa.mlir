module {
  func.func @gen_5674474497150710418(%v7: tensor<1xi16>) -> (tensor<1xi16>) {
    %v14 = tosa.negate %v7 : (tensor<1xi16>) -> tensor<1xi16>
    return %v14 : tensor<1xi16>
  }
}
