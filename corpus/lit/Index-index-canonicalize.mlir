// From llvm-project mlir/test/Dialect/Index/index-canonicalize.mlir at 0ac0252b9e8b5d630acdb941d87b1d0895554be9.
// Part of the LLVM Project, under the Apache License v2.0 with LLVM Exceptions.
// CHECK and RUN lines removed; see corpus/lit/README.md.

func.func @add() -> (index, index) {
  %0 = index.constant 1
  %1 = index.constant 2100
  %2 = index.constant 3000000001
  %3 = index.constant 4000002100
  %4 = index.add %0, %1
  %5 = index.add %2, %3

  return %4, %5 : index, index
}

func.func @add_overflow() -> (index, index) {
  %0 = index.constant 2000000000
  %1 = index.constant 8000000000000000000
  %2 = index.add %0, %0
  %3 = index.add %1, %1

  return %2, %3 : index, index
}

func.func @sub() -> index {
  %0 = index.constant -2000000000
  %1 = index.constant 3000000000
  %2 = index.sub %0, %1
  return %2 : index
}

func.func @mul() -> index {
  %0 = index.constant 8000000002000000000
  %1 = index.constant 2
  %2 = index.mul %0, %1
  return %2 : index
}

func.func @divs() -> index {
  %0 = index.constant -2
  %1 = index.constant 0x200000000
  %2 = index.divs %1, %0
  return %2 : index
}

func.func @divs_nofold() -> (index, index) {
  %0 = index.constant 0
  %1 = index.constant 0x100000000
  %2 = index.constant 2

  %3 = index.divs %2, %0
  %4 = index.divs %1, %2

  return %3, %4 : index, index
}

func.func @divu() -> index {
  %0 = index.constant -2
  %1 = index.constant 0x200000000
  %2 = index.divu %1, %0
  return %2 : index
}

func.func @divu_nofold() -> (index, index) {
  %0 = index.constant 0
  %1 = index.constant 0x100000000
  %2 = index.constant 2

  %3 = index.divu %2, %0
  %4 = index.divu %1, %2

  return %3, %4 : index, index
}

func.func @ceildivs() -> (index, index, index) {
  %c0 = index.constant 0
  %c2 = index.constant 2
  %c5 = index.constant 5

  %0 = index.ceildivs %c0, %c5

  %1 = index.ceildivs %c2, %c5

  %2 = index.ceildivs %c5, %c2

  return %0, %1, %2 : index, index, index
}

func.func @ceildivs_neg() -> index {
  %c5 = index.constant -5
  %c2 = index.constant 2
  %0 = index.ceildivs %c5, %c2
  return %0 : index
}

func.func @ceildivs_edge() -> (index, index) {
  %cn1 = index.constant -1
  %cIntMin = index.constant -2147483648
  %cIntMax = index.constant 2147483647

  %0 = index.ceildivs %cIntMin, %cn1

  %1 = index.ceildivs %cIntMax, %cn1

  return %0, %1 : index, index
}

func.func @ceildivu() -> index {
  %0 = index.constant 0x200000001
  %1 = index.constant 2
  %2 = index.ceildivu %0, %1
  return %2 : index
}

func.func @floordivs() -> index {
  %0 = index.constant -5
  %1 = index.constant 2
  %2 = index.floordivs %0, %1
  return %2 : index
}

func.func @floordivs_edge() -> (index, index) {
  %cIntMin = index.constant -2147483648
  %cIntMax = index.constant 2147483647
  %n1 = index.constant -1
  %p1 = index.constant 1

  %0 = index.floordivs %cIntMin, %p1
  %1 = index.floordivs %cIntMax, %n1

  return %0, %1 : index, index
}

func.func @floordivs_nofold() -> index {
  %lhs = index.constant 0x100000000
  %c2 = index.constant 2

  %0 = index.floordivs %lhs, %c2

  return %0 : index
}

func.func @rems_zerodiv_nofold() -> index {
  %lhs = index.constant 2
  %rhs = index.constant 0
  %0 = index.rems %lhs, %rhs
  return %0 : index
}

func.func @remu_zerodiv_nofold() -> index {
  %lhs = index.constant 2
  %rhs = index.constant 0
  %0 = index.remu %lhs, %rhs
  return %0 : index
}

func.func @rems() -> index {
  %lhs = index.constant -5
  %rhs = index.constant 2
  %0 = index.rems %lhs, %rhs
  return %0 : index
}

func.func @rems_nofold() -> index {
  %lhs = index.constant 2
  %rhs = index.constant 0x100000001
  %0 = index.rems %lhs, %rhs
  return %0 : index
}

func.func @remu() -> index {
  %lhs = index.constant 2
  %rhs = index.constant -1
  %0 = index.remu %lhs, %rhs
  return %0 : index
}

func.func @remu_nofold() -> index {
  %lhs = index.constant 2
  %rhs = index.constant 0x100000001
  %0 = index.remu %lhs, %rhs
  return %0 : index
}

func.func @maxs() -> index {
  %lhs = index.constant -4
  %rhs = index.constant 2
  %0 = index.maxs %lhs, %rhs
  return %0 : index
}

func.func @maxs_nofold() -> index {
  %lhs = index.constant 1
  %rhs = index.constant 0x100000000
  %0 = index.maxs %lhs, %rhs
  return %0 : index
}

func.func @maxs_edge() -> index {
  %lhs = index.constant 1
  %rhs = index.constant 0x100000001
  %0 = index.maxs %lhs, %rhs
  return %0 : index
}

func.func @maxu() -> index {
  %lhs = index.constant -1
  %rhs = index.constant 1
  %0 = index.maxu %lhs, %rhs
  return %0 : index
}

func.func @mins() -> index {
  %lhs = index.constant -4
  %rhs = index.constant 2
  %0 = index.mins %lhs, %rhs
  return %0 : index
}

func.func @mins_nofold() -> index {
  %lhs = index.constant 1
  %rhs = index.constant 0x100000000
  %0 = index.mins %lhs, %rhs
  return %0 : index
}

func.func @mins_nofold_2() -> index {
  %lhs = index.constant 0x7fffffff
  %rhs = index.constant 0x80000000
  %0 = index.mins %lhs, %rhs
  return %0 : index
}

func.func @minu() -> index {
  %lhs = index.constant -1
  %rhs = index.constant 1
  %0 = index.minu %lhs, %rhs
  return %0 : index
}

func.func @shl() -> index {
  %lhs = index.constant 128
  %rhs = index.constant 2
  %0 = index.shl %lhs, %rhs
  return %0 : index
}

func.func @shl_32() -> index {
  %lhs = index.constant 1
  %rhs = index.constant 32
  %0 = index.shl %lhs, %rhs
  return %0 : index
}

func.func @shl_edge() -> index {
  %lhs = index.constant 4000000000
  %rhs = index.constant 31
  %0 = index.shl %lhs, %rhs
  return %0 : index
}

func.func @shrs() -> index {
  %lhs = index.constant 128
  %rhs = index.constant 2
  %0 = index.shrs %lhs, %rhs
  return %0 : index
}

func.func @shrs_32() -> index {
  %lhs = index.constant 4000000000000
  %rhs = index.constant 32
  %0 = index.shrs %lhs, %rhs
  return %0 : index
}

func.func @shrs_nofold() -> index {
  %lhs = index.constant 0x100000000
  %rhs = index.constant 1
  %0 = index.shrs %lhs, %rhs
  return %0 : index
}

func.func @shrs_edge() -> index {
  %lhs = index.constant 0x10000000000
  %rhs = index.constant 3
  %0 = index.shrs %lhs, %rhs
  return %0 : index
}

func.func @shru() -> index {
  %lhs = index.constant 128
  %rhs = index.constant 2
  %0 = index.shru %lhs, %rhs
  return %0 : index
}

func.func @shru_32() -> index {
  %lhs = index.constant 4000000000000
  %rhs = index.constant 32
  %0 = index.shru %lhs, %rhs
  return %0 : index
}

func.func @shru_nofold() -> index {
  %lhs = index.constant 0x100000000
  %rhs = index.constant 1
  %0 = index.shru %lhs, %rhs
  return %0 : index
}

func.func @shru_edge() -> index {
  %lhs = index.constant 0x10000000000
  %rhs = index.constant 3
  %0 = index.shru %lhs, %rhs
  return %0 : index
}

func.func @and() -> index {
  %lhs = index.constant 5
  %rhs = index.constant 1
  %0 = index.and %lhs, %rhs
  return %0 : index
}

func.func @or() -> index {
  %lhs = index.constant 5
  %rhs = index.constant 2
  %0 = index.or %lhs, %rhs
  return %0 : index
}

func.func @xor() -> index {
  %lhs = index.constant 5
  %rhs = index.constant 1
  %0 = index.xor %lhs, %rhs
  return %0 : index
}

func.func @cmp(%arg0: index) -> (i1, i1, i1, i1, i1, i1) {
  %a = index.constant 0
  %b = index.constant -1
  %c = index.constant -2
  %d = index.constant 4

  %0 = index.cmp slt(%a, %b)
  %1 = index.cmp ugt(%b, %a)
  %2 = index.cmp ne(%d, %a)
  %3 = index.cmp sgt(%b, %a)

  %4 = index.sub %a, %arg0
  %5 = index.cmp sgt(%4, %a)

  %6 = index.sub %a, %arg0
  %7 = index.cmp sgt(%a, %6)

  return %0, %1, %2, %3, %5, %7 : i1, i1, i1, i1, i1, i1
}

func.func @cmp_same_args(%a: index) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = index.cmp eq(%a, %a)
  %1 = index.cmp sge(%a, %a)
  %2 = index.cmp sle(%a, %a)
  %3 = index.cmp uge(%a, %a)
  %4 = index.cmp ule(%a, %a)
  %5 = index.cmp ne(%a, %a)
  %6 = index.cmp sgt(%a, %a)
  %7 = index.cmp slt(%a, %a)
  %8 = index.cmp ugt(%a, %a)
  %9 = index.cmp ult(%a, %a)

  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

func.func @cmp_nofold() -> i1 {
  %lhs = index.constant 1
  %rhs = index.constant 0x100000000
  %0 = index.cmp slt(%lhs, %rhs)
  return %0 : i1
}

func.func @cmp_edge() -> i1 {
  %lhs = index.constant 1
  %rhs = index.constant 0x100000002
  %0 = index.cmp slt(%lhs, %rhs)
  return %0 : i1
}

func.func @cmp_maxs(%arg0: index) -> (i1, i1) {
  %idx0 = index.constant 0
  %idx1 = index.constant 1
  %0 = index.maxs %arg0, %idx1
  %1 = index.cmp sgt(%0, %idx0)
  %2 = index.cmp eq(%0, %idx0)
  return %1, %2 : i1, i1
}

func.func @mul_identity(%arg0: index) -> (index, index) {
  %idx0 = index.constant 0
  %idx1 = index.constant 1
  %0 = index.mul %arg0, %idx0
  %1 = index.mul %arg0, %idx1
  return %0, %1 : index, index
}

func.func @add_identity(%arg0: index) -> index {
  %idx0 = index.constant 0
  %0 = index.add %arg0, %idx0
  return %0 : index
}

func.func @sub_identity(%arg0: index) -> index {
  %idx0 = index.constant 0
  %0 = index.sub %arg0, %idx0
  return %0 : index
}

func.func @castu_to_index() -> index {
  %0 = arith.constant 8000000000000 : i48
  %1 = index.castu %0 : i48 to index
  return %1 : index
}

func.func @casts_to_index() -> index {
  %0 = arith.constant -1000 : i48
  %1 = index.casts %0 : i48 to index
  return %1 : index
}
