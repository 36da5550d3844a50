// The parts of a query one output element needs (smt/RefineSlice.cpp): the
// conjuncts of the precondition it shares inputs with, and the terms both
// sides compute alike, cut out as variables.
#include "smt/Internal.h"
#include "smt/Refine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <gtest/gtest.h>

namespace cc::smt::detail {
namespace {

constexpr unsigned kMs = 600000, kRlimit = 20000000;

struct Terms {
  z3::context c;
  z3::sort f32 = c.fpa_sort(8, 24);
  z3::expr x = c.fpa_const("x", 8, 24), y = c.fpa_const("y", 8, 24),
           z = c.fpa_const("z", 8, 24);
  z3::expr rne = z3::expr(c, Z3_mk_fpa_rne(c));
  z3::expr no = c.bool_val(false);

  z3::expr mul(const z3::expr &a, const z3::expr &b) {
    return z3::expr(c, Z3_mk_fpa_mul(c, rne, a, b));
  }
  z3::expr isNaN(const z3::expr &a) {
    return z3::expr(c, Z3_mk_fpa_is_nan(c, a));
  }
  z3::expr isNegative(const z3::expr &a) {
    return z3::expr(c, Z3_mk_fpa_is_negative(c, a));
  }
  z3::expr element(const z3::expr &source, const z3::expr &target) {
    return !no && (no || source != target);
  }
};

TEST(PreSlicer, KeepsOnlyTheConjunctsAnElementReads) {
  Terms t;
  // The source is undefined where a product is NaN: one conjunct per
  // element, over that element's inputs.
  z3::expr pre = !(t.isNaN(t.mul(t.x, t.y)) || t.isNaN(t.mul(t.z, t.z)));
  PreSlicer slicer(pre);
  bool dropped = false;
  z3::expr s = slicer.slice(t.element(t.x, t.y), dropped);
  EXPECT_TRUE(dropped);
  z3::solver solver(t.c);
  // z is left free: the slice says nothing of the other element.
  solver.add(s && t.isNaN(t.mul(t.z, t.z)));
  EXPECT_EQ(solver.check(), z3::sat);
  solver.reset();
  solver.add(s && t.isNaN(t.mul(t.x, t.y)));
  EXPECT_EQ(solver.check(), z3::unsat);
  // An element over z keeps z's conjunct and drops x's and y's.
  s = slicer.slice(t.element(t.z, t.mul(t.z, t.z)), dropped);
  EXPECT_TRUE(dropped);
  solver.reset();
  solver.add(s && t.isNaN(t.mul(t.z, t.z)));
  EXPECT_EQ(solver.check(), z3::unsat);
}

TEST(ProofByCuts, ProvesWhatHoldsOfASharedTerm) {
  Terms t;
  // |x*y| both ways: fp.abs, and a negation where the sign is set. As a
  // function of the product they agree; through it the solver would have
  // to bit-blast two multipliers' worth of reasoning.
  z3::expr p = t.mul(t.x, t.y);
  z3::expr abs(t.c, Z3_mk_fpa_abs(t.c, p));
  z3::expr byHand = z3::ite(t.isNegative(p), -p, p);
  z3::expr pre = t.c.bool_val(true);
  EXPECT_TRUE(provedByCuts(t.c, pre, t.element(abs, byHand), kMs, kRlimit));
  // Without the negation the two differ for negative products.
  EXPECT_FALSE(provedByCuts(t.c, pre, t.element(abs, p), kMs, kRlimit));
}

// A small formula that only compares and selects is solved in a context
// of its own; its model comes back into the query's context and gives
// values of that context's terms.
TEST(CheckAlone, SmallFormulasModelInTheQuerysContext) {
  Terms t;
  z3::expr lowest = z3::expr(
      t.c, Z3_mk_fpa_numeral_double(t.c, -3.4028234663852886e38, t.f32));
  z3::expr maxOf =
      z3::ite(z3::expr(t.c, Z3_mk_fpa_lt(t.c, t.x, lowest)), lowest, t.x);
  // max(lowest, x) differs from x where x is -inf only.
  std::optional<z3::model> m;
  std::string why;
  ASSERT_EQ(checkAlone(t.c, maxOf != t.x, {kMs, kRlimit}, m, why), z3::sat);
  ASSERT_TRUE(m);
  z3::expr x = m->eval(t.x, true);
  EXPECT_TRUE(
      z3::expr(t.c, Z3_mk_fpa_is_infinite(t.c, x)).simplify().is_true());
  EXPECT_TRUE(t.isNegative(x).simplify().is_true());
  z3::expr minusInf = z3::expr(t.c, Z3_mk_fpa_inf(t.c, t.f32, true));
  EXPECT_EQ(
      checkAlone(t.c, maxOf != t.x && t.x != minusInf, {kMs, kRlimit}, m, why),
      z3::unsat);
  // With arithmetic it stays in the query's context, with the same answer.
  EXPECT_EQ(checkAlone(t.c, t.mul(t.x, t.y) != t.mul(t.y, t.x), {kMs, kRlimit},
                       m, why),
            z3::unsat);
}

// The ways memref arguments may share buffers (RefineAlias.cpp): every
// partition of those of one type but the one of singletons; none across
// types, nor with an argument marked llvm.noalias.
TEST(Aliasings, PartitionArgumentsOfOneType) {
  auto ctx = makeContext();
  auto ways = [&](const std::string &args) {
    auto m = parseModule(*ctx, "func.func @f(" + args + ") { return }", "test",
                         "t.mlir");
    EXPECT_TRUE(bool(m)) << (m ? "" : m.error().message());
    return aliasings(*(*m)->getOps<mlir::func::FuncOp>().begin());
  };
  using W = std::vector<std::vector<int>>;
  EXPECT_EQ(ways("%a: memref<2xf32>, %b: memref<2xf32>"), (W{{-1, 0}}));
  // Three of one type: the four partitions of {a, b, c} into fewer blocks.
  EXPECT_EQ(
      ways("%a: memref<2xf32>, %i: i32, %b: memref<2xf32>, "
           "%c: memref<2xf32>"),
      (W{{-1, -1, 0, 0}, {-1, -1, 0, -1}, {-1, -1, -1, 0}, {-1, -1, -1, 2}}));
  EXPECT_TRUE(ways("%a: memref<2xf32>, %b: memref<2xi32>").empty());
  EXPECT_TRUE(ways("%a: memref<2xf32>, %b: memref<3xf32>").empty());
  EXPECT_TRUE(
      ways("%a: memref<2xf32> {llvm.noalias}, %b: memref<2xf32>").empty());
  EXPECT_EQ(describeAliasing({-1, -1, 0, 2}),
            "%arg2 the same buffer as %arg0, %arg3 the same buffer as %arg2");
}

} // namespace
} // namespace cc::smt::detail
