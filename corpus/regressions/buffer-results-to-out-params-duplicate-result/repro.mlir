// buffer-results-to-out-params{hoist-static-allocs modify-public-functions}
// segfaults (MLIR 22) on a function that returns the same buffer twice.
func.func @f() -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %a : memref<4xf32>, memref<4xf32>
}
