// Proof by differences (smt/RefineSplit.cpp) on hand-made element terms:
// it proves a difference that is masked downstream and never one that
// shows.
#include "smt/Refine.h"

#include <gtest/gtest.h>

namespace cc::smt::detail {
namespace {

// Each check bounded by work, not time: the same verdict on a loaded
// machine.
constexpr unsigned kMs = 600000, kRlimit = 20000000;

struct Element {
  z3::context c;
  z3::expr x = c.fpa_const("x", 8, 24);
  z3::expr minusInf = z3::expr(c, Z3_mk_fpa_inf(c, c.fpa_sort(8, 24), true));
  z3::expr zero = z3::expr(c, Z3_mk_fpa_zero(c, c.fpa_sort(8, 24), false));
  // The target's "x": x, except 0 where x is -inf (a lowest-finite start).
  z3::expr patched = z3::ite(x == minusInf, zero, x);
  std::vector<SVal> args{SVal{{1}, {x}, {c.bool_val(false)}, std::nullopt}};

  z3::expr rne = z3::expr(c, Z3_mk_fpa_rne(c));
  z3::expr mul(const z3::expr &a, const z3::expr &b) {
    return z3::expr(c, Z3_mk_fpa_mul(c, rne, a, b));
  }
  z3::expr sub(const z3::expr &a, const z3::expr &b) {
    return z3::expr(c, Z3_mk_fpa_sub(c, rne, a, b));
  }

  bool proved(const z3::expr &source, const z3::expr &target) {
    z3::expr no = c.bool_val(false);
    z3::expr d = !no && (no || source != target);
    PairFacts facts;
    std::optional<z3::model> cex;
    return provedByDifferences(c, c.bool_val(true), d, args, kMs, kRlimit,
                               facts, cex);
  }
};

// (x - x) * 0 is NaN at -inf on both sides (NaN * 0, +inf * 0), and the
// same elsewhere: the difference is masked.
TEST(ProofByDifferences, ProvesAMaskedDifference) {
  Element e;
  EXPECT_TRUE(e.proved(e.mul(e.sub(e.x, e.x), e.zero),
                       e.mul(e.sub(e.patched, e.x), e.zero)));
}

// Without the multiplication the difference shows at -inf (NaN against
// +inf), and with another value where x is 1 it shows on a plane of
// inputs: neither is proved.
TEST(ProofByDifferences, NeverProvesADifferenceThatShows) {
  Element e;
  EXPECT_FALSE(e.proved(e.sub(e.x, e.x), e.sub(e.patched, e.x)));
  z3::expr one =
      z3::expr(e.c, Z3_mk_fpa_numeral_double(e.c, 1.0, e.c.fpa_sort(8, 24)));
  z3::expr wide =
      z3::ite(z3::expr(e.c, Z3_mk_fpa_abs(e.c, e.x)) == one, e.zero, e.x);
  EXPECT_FALSE(e.proved(e.mul(e.x, e.zero), e.mul(wide, e.zero)));
}

// A row of products x_i * y, its maximum started at -inf (the source) or
// at the lowest finite float (the target): the maxima differ wherever the
// whole row is -inf, at many inputs but at one value of the row. As a
// function of the row (the subterms both sides share) the difference is
// settled, and masked by the product with zero; unmasked it is not proved,
// and the element at the row of -inf is a counterexample.
TEST(ProofByDifferences, SettlesADifferenceOfSharedSubterms) {
  z3::context c;
  z3::sort f32 = c.fpa_sort(8, 24);
  z3::expr x0 = c.fpa_const("x0", 8, 24), x1 = c.fpa_const("x1", 8, 24),
           y = c.fpa_const("y", 8, 24);
  z3::expr rne(c, Z3_mk_fpa_rne(c));
  auto mul = [&](const z3::expr &a, const z3::expr &b) {
    return z3::expr(c, Z3_mk_fpa_mul(c, rne, a, b));
  };
  auto sub = [&](const z3::expr &a, const z3::expr &b) {
    return z3::expr(c, Z3_mk_fpa_sub(c, rne, a, b));
  };
  auto max = [&](const z3::expr &a, const z3::expr &b) {
    return z3::ite(z3::expr(c, Z3_mk_fpa_gt(c, a, b)), a, b);
  };
  z3::expr r0 = mul(x0, y), r1 = mul(x1, y);
  z3::expr lowest(c, Z3_mk_fpa_numeral_double(c, -3.4028234663852886e38, f32));
  z3::expr zero(c, Z3_mk_fpa_zero(c, f32, false));
  z3::expr ms = max(r0, r1), mt = max(max(lowest, r0), r1);
  z3::expr no = c.bool_val(false);
  std::vector<SVal> args{SVal{{3}, {x0, x1, y}, {no, no, no}, std::nullopt}};
  std::optional<z3::model> cex;
  auto proved = [&](const z3::expr &source, const z3::expr &target) {
    PairFacts facts;
    return provedByDifferences(c, c.bool_val(true),
                               !no && (no || source != target), args, kMs,
                               kRlimit, facts, cex);
  };
  EXPECT_TRUE(proved(mul(sub(r0, ms), zero), mul(sub(r0, mt), zero)));
  EXPECT_FALSE(cex.has_value());
  EXPECT_FALSE(proved(sub(r0, ms), sub(r0, mt)));
  ASSERT_TRUE(cex.has_value());
  auto isInf = [&](const z3::expr &v) {
    return z3::expr(c, Z3_mk_fpa_is_infinite(c, v));
  };
  EXPECT_TRUE(cex->eval(sub(r0, ms) != sub(r0, mt), true).is_true());
  EXPECT_TRUE(cex->eval(isInf(r0) && isInf(r1), true).is_true());
}

} // namespace
} // namespace cc::smt::detail
