// q[i] = x[i] / y[i] for i < 4 with x = 100 and y = [1, 2, 3, 4]: no
// division by zero; @main prints q, expected [100, 50, 33, 25].
func.func @div(%x: memref<4xi32>, %y: memref<4xi32>, %q: memref<4xi32>) {
  affine.for %i = 0 to 4 {
    %a = affine.load %x[%i] : memref<4xi32>
    %b = affine.load %y[%i] : memref<4xi32>
    %r = arith.divsi %a, %b : i32
    affine.store %r, %q[%i] : memref<4xi32>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %x = memref.alloc() : memref<4xi32>
  %y = memref.alloc() : memref<4xi32>
  %q = memref.alloc() : memref<4xi32>
  %c100 = arith.constant 100 : i32
  affine.for %i = 0 to 4 {
    %ii = arith.index_cast %i : index to i32
    %c1 = arith.constant 1 : i32
    %d = arith.addi %ii, %c1 : i32
    affine.store %c100, %x[%i] : memref<4xi32>
    affine.store %d, %y[%i] : memref<4xi32>
  }
  call @div(%x, %y, %q) : (memref<4xi32>, memref<4xi32>, memref<4xi32>) -> ()
  %u = memref.cast %q : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
