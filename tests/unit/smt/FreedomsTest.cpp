// What TOSA leaves open (the op table's freedoms) is never a finding of
// translation validation: the sign of a zero maximum, the value of pow
// where it is undefined. Genuine differences next to them still are.
#include "core/File.h"
#include "core/Json.h"
#include "smt/Validate.h"
#include "tests/unit/smt/Limits.h"

#include <gtest/gtest.h>

namespace cc::smt {
namespace {

// The verdict of one function of tests/lit/Inputs/tv/freedoms*.mlir.
FunctionCheck checkFreedom(const std::string &function) {
  std::string dir = std::string(CC_SOURCE_DIR) + "/tests/lit/Inputs/tv/";
  auto src = readFile(dir + "freedoms.mlir");
  auto tgt = readFile(dir + "freedoms.tgt.mlir");
  if (!src || !tgt) {
    ADD_FAILURE() << "inputs missing";
    return {};
  }
  TvOptions o = deterministicOptions();
  o.function = function;
  auto r = checkRefinement(*src, *tgt, o);
  if (!r || r->size() != 1) {
    ADD_FAILURE() << (r ? "one function expected" : r.error().message());
    return {};
  }
  return (*r)[0];
}

// max(-0, +0) may be either zero: a target that returns the first operand
// on ties is correct, elementwise and as a reduction.
TEST(TvFreedoms, ZeroSignOfAMaximumIsOpen) {
  for (const char *f : {"max_ties", "reduce_max"}) {
    FunctionCheck r = checkFreedom(f);
    EXPECT_EQ(r.verdict, TvVerdict::Correct) << f << ": " << r.reason;
    EXPECT_NE(r.reason.find("zero signs TOSA leaves open"), std::string::npos)
        << f << ": " << r.reason;
  }
}

// The same target without NaN propagation is wrong, and a zero sign where
// TOSA leaves none open (0 - x for negate) is too.
TEST(TvFreedoms, DifferencesBesideThemAreFindings) {
  for (const char *f : {"max_nan", "negate"}) {
    FunctionCheck r = checkFreedom(f);
    EXPECT_EQ(r.verdict, TvVerdict::Incorrect) << f << ": " << r.reason;
  }
}

// pow is undefined for a negative base: a target may compute anything
// there, but not elsewhere.
TEST(TvFreedoms, PowIsOpenOnlyWhereUndefined) {
  FunctionCheck open = checkFreedom("pow_undefined");
  EXPECT_EQ(open.verdict, TvVerdict::Correct) << open.reason;
  FunctionCheck wrong = checkFreedom("pow_wrong");
  EXPECT_EQ(wrong.verdict, TvVerdict::Incorrect) << wrong.reason;
}

} // namespace
} // namespace cc::smt
