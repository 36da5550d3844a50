// Proof by differences (smt/RefineSplit.cpp) on hand-made element terms:
// it proves a difference that is masked downstream and never one that
// shows.
#include "smt/Refine.h"

#include <gtest/gtest.h>

namespace cc::smt::detail {
namespace {

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
    return provedByDifferences(c, c.bool_val(true), d, args, 10000, 0, facts);
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

} // namespace
} // namespace cc::smt::detail
