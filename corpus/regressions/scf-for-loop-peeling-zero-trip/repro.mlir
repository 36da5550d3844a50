// scf-for-loop-peeling turns a zero-trip scf.for (lb >= ub) into a loop that
// runs one iteration. @const: lb=1, ub=0, step=2 (all constants);
// @dyn: lb=1, ub=%n (runtime 0), step=2. Neither body may run: expected 42 42.
func.func @const(%m: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : i32
  scf.for %i = %c1 to %c0 step %c2 {
    memref.store %c7, %m[] : memref<i32>
  }
  return
}
func.func @dyn(%m: memref<i32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : i32
  scf.for %i = %c1 to %n step %c2 {
    memref.store %c7, %m[] : memref<i32>
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c42 = arith.constant 42 : i32
  %a = memref.alloc() : memref<i32>
  %b = memref.alloc() : memref<i32>
  memref.store %c42, %a[] : memref<i32>
  memref.store %c42, %b[] : memref<i32>
  call @const(%a) : (memref<i32>) -> ()
  call @dyn(%b, %c0) : (memref<i32>, index) -> ()
  %x = memref.load %a[] : memref<i32>
  %y = memref.load %b[] : memref<i32>
  vector.print %x : i32
  vector.print %y : i32
  return
}
