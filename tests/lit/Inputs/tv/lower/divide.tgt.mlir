module {
  func.func @ceil(%arg0: i32, %arg1: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.divsi %arg0, %arg1 : i32
    %1 = arith.muli %0, %arg1 : i32
    %2 = arith.cmpi ne, %arg0, %1 : i32
    %3 = arith.cmpi slt, %arg0, %c0_i32 : i32
    %4 = arith.cmpi slt, %arg1, %c0_i32 : i32
    %5 = arith.cmpi eq, %3, %4 : i1
    %6 = arith.andi %2, %5 : i1
    %7 = arith.addi %0, %c1_i32 : i32
    %8 = arith.select %6, %7, %0 : i32
    return %8 : i32
  }
  func.func @floor(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.divsi %arg0, %arg1 : i32
    %1 = arith.muli %0, %arg1 : i32
    %2 = arith.cmpi ne, %arg0, %1 : i32
    %c0_i32 = arith.constant 0 : i32
    %3 = arith.cmpi slt, %arg0, %c0_i32 : i32
    %4 = arith.cmpi slt, %arg1, %c0_i32 : i32
    %5 = arith.cmpi ne, %3, %4 : i1
    %6 = arith.andi %2, %5 : i1
    %c-1_i32 = arith.constant -1 : i32
    %7 = arith.addi %0, %c-1_i32 : i32
    %8 = arith.select %6, %7, %0 : i32
    return %8 : i32
  }
  func.func @ceilu(%arg0: i32, %arg1: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.cmpi eq, %arg0, %c0_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.subi %arg0, %c1_i32 : i32
    %2 = arith.divui %1, %arg1 : i32
    %3 = arith.addi %2, %c1_i32 : i32
    %4 = arith.select %0, %c0_i32, %3 : i32
    return %4 : i32
  }
}

