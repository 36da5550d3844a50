// From llvm-project mlir/test/Dialect/Math/expand-math.mlir at 03a5b92df2dd58ec447a46f18d1640e43f91d04a.
// Part of the LLVM Project, under the Apache License v2.0 with LLVM Exceptions.
// CHECK and RUN lines removed; see corpus/lit/README.md.

func.func @tanh(%arg: f32) -> f32 {
  %res = math.tanh %arg : f32
  return %res : f32
}

// -----

func.func @ctlz(%arg: i32) -> i32 {
  %res = math.ctlz %arg : i32

  return %res : i32
}
