// Every op of the table, in every dtype it allows, through every named
// pipeline: the compiled result must agree with the reference interpreter
// under the numeric oracle (the differential check), except for the known
// compiler bugs listed below, whose findings must still show up. This is the
// op x dtype matrix of docs/OPS.md.
#include "backends/mlir/MlirBackend.h"
#include "core/OpTable.h"
#include "generators/Inputs.h"
#include "oracles/Differential.h"
#include "tests/unit/mlir/KnownBugs.h"

#include <gtest/gtest.h>

using namespace cc;

namespace {

constexpr DType kGraphDTypes[] = {DType::f32, DType::f16, DType::bf16,
                                  DType::i8,  DType::i16, DType::i32,
                                  DType::i1};

// Compiler bugs the matrix finds today (see tests/unit/mlir/KnownBugs.h).
const test::KnownBug kKnownBugs[] = {
    {"intdiv_i32", "tosa-O3", Kind::Crash,
     "affine-super-vectorize widens arith.divsi onto out-of-bounds lanes whose "
     "divisor is the poison padding: SIGFPE",
     "affine-super-vectorize-divsi-padding"},
    {"ceil_bf16", "tosa-O1-expand", Kind::Miscompile,
     "LLVM x86 isel folds copysign(1.0, widened bf16 load) of math-expand-ops' "
     "ceil to +1.0: negative results lose their sign",
     "llvm-x86-copysign-bf16-load"},
};

// mid-vectorize is for generated programs: on one-op graphs the affine
// super-vectorizer's known bugs (a transfer_write with a broadcast
// dimension, llvm/llvm-project#131135, fixed by PR #184770 after 22.1; a
// strided window read as contiguous, corpus/regressions/
// affine-super-vectorize-noncontiguous-access) fail 11 of its op x dtype
// cases, some with both kinds of finding.
constexpr const char *kNotOnGraphs = "mid-vectorize";

struct MatrixCase {
  std::string op;
  DType dtype;
  std::string pipeline;
};

void PrintTo(const MatrixCase &c, std::ostream *os) {
  *os << c.op << " " << dtypeName(c.dtype) << " " << c.pipeline;
}

std::vector<MatrixCase> allCases() {
  std::vector<MatrixCase> cases;
  for (const OpDef &op : allOps())
    for (DType d : kGraphDTypes)
      if (op.id == OpId::Const || op.allows(d))
        for (const NamedPipeline &p : namedPipelines())
          if (p.name != kNotOnGraphs)
            cases.push_back({op.name, d, p.name});
  return cases;
}

class OpMatrix : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(OpMatrix, CompiledAgreesWithReference) {
  const MatrixCase &c = GetParam();
  const OpDef *op = findOp(c.op);
  ASSERT_NE(op, nullptr);
  auto backend = makeMlirBackend("mlir:" + c.pipeline);
  ASSERT_TRUE(backend) << backend.error().message();
  test::CaseFindings findings(test::findKnownBug(
      kKnownBugs, c.op + "_" + std::string(dtypeName(c.dtype)), c.pipeline));
  // Two seeds: attributes and inputs differ per seed (a third added a
  // third of the suite's time and found nothing the two do not).
  int judged = 0;
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    auto g = exampleGraph(*op, c.dtype, seed);
    ASSERT_TRUE(g) << "no valid one-op graph for " << c.op << " in "
                   << dtypeName(c.dtype) << ": " << g.error().message();
    Inputs inputs = makeInputs(*g, seed);
    auto r = runDifferential(*g, inputs, **backend);
    if (!r && r.error().code() == ErrorCode::Undefined)
      continue; // the input generator cannot yet avoid every undefined case
    ASSERT_TRUE(r) << "seed " << seed << ": " << r.error().message();
    findings.add("seed " + std::to_string(seed), r->verdict);
    ++judged;
  }
  EXPECT_GT(judged, 0) << "every seed hit undefined behaviour";
  findings.finish();
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpMatrix, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<MatrixCase> &info) {
                           std::string p = info.param.pipeline;
                           for (char &ch : p)
                             if (ch == '-')
                               ch = '_';
                           return info.param.op + "_" +
                                  std::string(dtypeName(info.param.dtype)) +
                                  "_" + p;
                         });

} // namespace
