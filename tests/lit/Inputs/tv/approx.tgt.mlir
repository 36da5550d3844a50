// Targets of approx.mlir: the first four from mlir-opt-22 --math-expand-ops.
  func.func @tan(%arg0: f32) -> f32 {
    %0 = math.sin %arg0 : f32
    %1 = math.cos %arg0 : f32
    %2 = arith.divf %0, %1 : f32
    return %2 : f32
  }
  func.func @exp2(%arg0: f32) -> f32 {
    %cst = arith.constant 0.693147182 : f32
    %0 = arith.mulf %arg0, %cst : f32
    %1 = math.exp %0 : f32
    return %1 : f32
  }
  func.func @tanh(%arg0: f32) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant -2.000000e+00 : f32
    %0 = arith.cmpf olt, %arg0, %cst : f32
    %1 = arith.uitofp %0 : i1 to f32
    %2 = arith.mulf %1, %cst_1 : f32
    %3 = arith.addf %2, %cst_0 : f32
    %4 = arith.mulf %3, %arg0 : f32
    %5 = arith.mulf %4, %cst_1 : f32
    %6 = math.exp %5 : f32
    %7 = arith.subf %cst_0, %6 : f32
    %8 = arith.addf %6, %cst_0 : f32
    %9 = arith.divf %7, %8 : f32
    %10 = arith.mulf %3, %9 : f32
    return %10 : f32
  }
  func.func @round(%arg0: f32) -> f32 {
    %cst = arith.constant 5.000000e-01 : f32
    %c23_i32 = arith.constant 23 : i32
    %c127_i32 = arith.constant 127 : i32
    %c255_i32 = arith.constant 255 : i32
    %0 = math.copysign %cst, %arg0 : f32
    %1 = arith.addf %arg0, %0 : f32
    %2 = arith.fptosi %1 : f32 to i64
    %3 = arith.sitofp %2 : i64 to f32
    %4 = math.copysign %3, %1 : f32
    %5 = arith.bitcast %arg0 : f32 to i32
    %6 = arith.shrui %5, %c23_i32 : i32
    %7 = arith.andi %6, %c255_i32 : i32
    %8 = arith.subi %7, %c127_i32 : i32
    %9 = arith.cmpi sge, %8, %c23_i32 : i32
    %10 = arith.select %9, %arg0, %4 : f32
    return %10 : f32
  }
// tanh(x) as x / sqrt(1 + x*x): far, and NaN at +inf.
func.func @tanh_ratio(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %xx = arith.mulf %x, %x : f32
  %d = arith.addf %xx, %one : f32
  %s = math.sqrt %d : f32
  %r = arith.divf %x, %s : f32
  return %r : f32
}
// tanh(x) as x clamped to [-1, 1]: maxnumf and minnumf give 1 for NaN.
func.func @tanh_clamp(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %minus = arith.constant -1.0 : f32
  %lo = arith.minnumf %x, %one : f32
  %r = arith.maxnumf %lo, %minus : f32
  return %r : f32
}
// exp2(x) as exp(x * 0.69): exact at 0 and the infinities, far elsewhere.
func.func @exp2_far(%x: f32) -> f32 {
  %c = arith.constant 0.69 : f32
  %y = arith.mulf %x, %c : f32
  %r = math.exp %y : f32
  return %r : f32
}
