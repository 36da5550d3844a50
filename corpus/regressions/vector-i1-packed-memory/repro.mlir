// q[i] = not p[i] on memref<8xi1> (one byte per element, as MLIR lays out
// i1 memrefs). @main writes p and reads q element by element (scf.for, which
// the super-vectorizer leaves alone) and prints q as i32:
// expected [0, 1, 0, 1, 0, 1, 0, 1].
func.func @not(%p: memref<8xi1>, %q: memref<8xi1>) {
  %true = arith.constant true
  affine.for %i = 0 to 8 {
    %a = affine.load %p[%i] : memref<8xi1>
    %b = arith.xori %a, %true : i1
    affine.store %b, %q[%i] : memref<8xi1>
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %p = memref.alloc() : memref<8xi1>
  %q = memref.alloc() : memref<8xi1>
  %out = memref.alloc() : memref<8xi32>
  %c0i = arith.constant 0 : index
  %c1i = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // p = [1, 0, 1, 0, 1, 0, 1, 0]
  scf.for %i = %c0i to %c8 step %c1i {
    %ii = arith.index_cast %i : index to i32
    %c1 = arith.constant 1 : i32
    %bit = arith.andi %ii, %c1 : i32
    %c0 = arith.constant 0 : i32
    %even = arith.cmpi eq, %bit, %c0 : i32
    memref.store %even, %p[%i] : memref<8xi1>
  }
  call @not(%p, %q) : (memref<8xi1>, memref<8xi1>) -> ()
  scf.for %i = %c0i to %c8 step %c1i {
    %b = memref.load %q[%i] : memref<8xi1>
    %w = arith.extui %b : i1 to i32
    memref.store %w, %out[%i] : memref<8xi32>
  }
  %u = memref.cast %out : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
