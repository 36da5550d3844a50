// The read is fully masked off, so it yields the padding (0) and the write
// stores 0: @f returns [0] whatever %t holds.
func.func @f(%t: tensor<1xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i64
  %m = arith.constant dense<false> : vector<1xi1>
  %v = vector.transfer_read %t[%c0], %pad, %m : tensor<1xi64>, vector<1xi64>
  %w = vector.transfer_write %v, %t[%c0] : vector<1xi64>, tensor<1xi64>
  return %w : tensor<1xi64>
}
