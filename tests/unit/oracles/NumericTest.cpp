// The numeric oracle on hand-made outputs: what must pass and what must fail.
#include "oracles/Numeric.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace cc;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor make(DType d, Shape shape, const std::vector<double> &v) {
  Tensor t(d, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i) {
    if (isFloat(d))
      t.setF(int64_t(i), v[i]);
    else
      t.setI(int64_t(i), int64_t(v[i]));
  }
  return t;
}

OutputSpec spec(DType d, Shape shape, double accumulation = 1,
                bool floatDerived = false) {
  return {"y", {d, std::move(shape)}, {accumulation, floatDerived}};
}

// Judges one float output whose f64 reference is `ref`; the reference in
// target precision is `ref` rounded to the output dtype unless given.
OutputReport judge(const OutputSpec &s, const std::vector<double> &actual,
                   const std::vector<double> &ref,
                   std::vector<double> target = {}) {
  if (target.empty())
    target = ref;
  Tensor r = make(isFloat(s.type.dtype) ? DType::f64 : s.type.dtype,
                  s.type.shape, ref);
  NumericReport rep =
      judgeNumeric({s}, {make(s.type.dtype, s.type.shape, actual)}, {r},
                   {make(s.type.dtype, s.type.shape, target)});
  EXPECT_EQ(rep.ok, rep.outputs.at(0).ok);
  return rep.outputs.at(0);
}

double nextUp(float f) { return std::nextafter(f, INFINITY); }

} // namespace

TEST(NumericOracle, OneUlpInF32Passes) {
  float x = 1.2345f, y = -3.75e-3f;
  OutputReport r = judge(spec(DType::f32, {2}), {nextUp(x), nextUp(y)},
                         {double(x), double(y)});
  EXPECT_TRUE(r.ok) << r.first.reason;
  EXPECT_EQ(r.maxUlp, 1u);
  EXPECT_GT(r.maxAbsError, 0);
}

TEST(NumericOracle, WrongElementFailsWithItsIndex) {
  std::vector<double> ref = {1, 2, 3, 4, 5, 6};
  std::vector<double> act = ref;
  act[5] = 6.5;
  act[4] = 5.001;
  OutputReport r = judge(spec(DType::f32, {2, 3}), act, ref);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.first.flatIndex, 4);
  EXPECT_EQ(r.first.index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(r.first.expected, 5);
  EXPECT_FLOAT_EQ(r.first.actual, 5.001f);
  EXPECT_EQ(r.first.reason, "value");
  EXPECT_DOUBLE_EQ(r.maxAbsError, 0.5);
  EXPECT_GT(r.maxUlp, 1000u);
}

TEST(NumericOracle, NaNPositionMustAgree) {
  EXPECT_TRUE(judge(spec(DType::f32, {2}), {kNaN, 1}, {kNaN, 1}).ok);
  OutputReport missing = judge(spec(DType::f32, {2}), {0, 1}, {kNaN, 1});
  EXPECT_FALSE(missing.ok);
  EXPECT_EQ(missing.first.reason, "nan-inf");
  EXPECT_FALSE(judge(spec(DType::f32, {2}), {1, kNaN}, {1, 1}).ok);
}

TEST(NumericOracle, SignedZerosAreEqual) {
  OutputReport r = judge(spec(DType::f32, {2}), {-0.0, 0.0}, {0.0, -0.0});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.maxUlp, 0u);
}

TEST(NumericOracle, InfinitySignMustAgree) {
  EXPECT_TRUE(judge(spec(DType::f16, {2}), {kInf, -kInf}, {kInf, -kInf}).ok);
  OutputReport r = judge(spec(DType::f32, {2}), {-kInf, 1}, {kInf, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first.reason, "nan-inf");
  EXPECT_FALSE(judge(spec(DType::f32, {1}), {3.0e38}, {kInf}).ok);
}

TEST(NumericOracle, OverflowInTheOutputDtypeIsInfinity) {
  // The f64 reference is finite but beyond f16's range: f16 +Inf is right.
  EXPECT_TRUE(judge(spec(DType::f16, {1}), {kInf}, {1e6}, {kInf}).ok);
  EXPECT_FALSE(judge(spec(DType::f16, {1}), {-kInf}, {1e6}, {kInf}).ok);
}

TEST(NumericOracle, IntegersMustBeExact) {
  EXPECT_TRUE(
      judge(spec(DType::i32, {3}), {1, -7, 2147483647}, {1, -7, 2147483647})
          .ok);
  OutputReport r = judge(spec(DType::i32, {3}), {1, -6, 0}, {1, -7, 0});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first.reason, "exact");
  EXPECT_EQ(r.first.flatIndex, 1);
  EXPECT_EQ(r.maxUlp, 1u);
  EXPECT_FALSE(judge(spec(DType::i8, {1}), {-128}, {127}).ok);
  EXPECT_FALSE(judge(spec(DType::i1, {2}), {1, 1}, {1, 0}).ok);
}

TEST(NumericOracle, FloatDerivedIntegersMayMatchEitherReference) {
  // argmax of floats: the target-precision reference picked index 3.
  OutputSpec s = spec(DType::i32, {1}, 0, /*floatDerived=*/true);
  EXPECT_TRUE(judge(s, {3}, {2}, {3}).ok);
  EXPECT_FALSE(judge(s, {1}, {2}, {3}).ok);
  // Without float ancestry the f64 reference alone decides.
  EXPECT_FALSE(judge(spec(DType::i32, {1}), {3}, {2}, {3}).ok);
}

TEST(NumericOracle, F16OutputsAreJudgedAtF16Tolerance) {
  // One f16 ulp at 1.0 is 2^-10: fine for an f16 output, far too much for
  // an f32 output with the same values.
  double err = std::ldexp(1.0, -10);
  std::vector<double> ref = {1.0, 0.75, -1.5, 1.25};
  std::vector<double> act = ref;
  act[0] += err;
  OutputReport f16 = judge(spec(DType::f16, {4}), act, ref);
  EXPECT_TRUE(f16.ok);
  EXPECT_EQ(f16.maxUlp, 1u);
  OutputReport f32 = judge(spec(DType::f32, {4}), act, ref);
  EXPECT_FALSE(f32.ok);
  EXPECT_EQ(f32.maxUlp, 1u << 13);
  EXPECT_GT(f16.relTolerance, f32.relTolerance);
  // bf16 is coarser still: one bf16 ulp at 1.0 passes there, not in f16.
  act[0] = 1.0 + std::ldexp(1.0, -7);
  EXPECT_TRUE(judge(spec(DType::bf16, {4}), act, ref).ok);
  EXPECT_FALSE(judge(spec(DType::f16, {4}), act, ref).ok);
}

TEST(NumericOracle, LongReductionsGetWiderTolerance) {
  // A sum of 4096 terms in f32 legitimately carries more error than a sum
  // of 4: the same error passes the first and fails the second.
  std::vector<double> ref = {100.0, -50.0, 75.0};
  std::vector<double> act = ref;
  act[1] += 50.0 * 1e-4;
  OutputReport longSum = judge(spec(DType::f32, {3}, 4096 + 1), act, ref);
  OutputReport shortSum = judge(spec(DType::f32, {3}, 4 + 1), act, ref);
  EXPECT_TRUE(longSum.ok);
  EXPECT_FALSE(shortSum.ok);
  EXPECT_GT(longSum.relTolerance, 100 * shortSum.relTolerance);
}

TEST(NumericOracle, CalibratedByTheTargetPrecisionReference) {
  // The target-precision evaluation itself is off by 0.01 at element 0 (an
  // ill-conditioned computation): the compiler may be off by a few times
  // that, but not by far more.
  std::vector<double> ref = {1.0, 2.0}, target = {1.01, 2.0};
  EXPECT_TRUE(judge(spec(DType::f32, {2}), {1.03, 2.0}, ref, target).ok);
  OutputReport r = judge(spec(DType::f32, {2}), {1.5, 2.0}, ref, target);
  EXPECT_FALSE(r.ok);
  EXPECT_DOUBLE_EQ(r.maxTargetError, double(1.01f) - 1.0);
}

TEST(NumericOracle, CancellationNearZeroUsesTheTensorScale) {
  // An element that cancels to nearly 0 is judged against the tensor's
  // magnitude, not its own: a relative error of 1 there is still tiny.
  std::vector<double> ref = {1000, -1000, 1e-9, 500};
  std::vector<double> act = ref;
  act[2] = 2e-9;
  EXPECT_TRUE(judge(spec(DType::f32, {4}, 64), act, ref).ok);
  act[2] = 1.0;
  EXPECT_FALSE(judge(spec(DType::f32, {4}, 64), act, ref).ok);
}

TEST(NumericOracle, WrongTypeOrMissingOutputFails) {
  OutputSpec s = spec(DType::f32, {2});
  Tensor ref = make(DType::f64, {2}, {1, 2});
  Tensor tgt = make(DType::f32, {2}, {1, 2});
  NumericReport shape =
      judgeNumeric({s}, {make(DType::f32, {1, 2}, {1, 2})}, {ref}, {tgt});
  EXPECT_FALSE(shape.ok);
  EXPECT_EQ(shape.outputs[0].first.reason, "type");
  NumericReport missing = judgeNumeric({s}, {}, {ref}, {tgt});
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.summary().find("missing"), std::string::npos);
  NumericReport extra = judgeNumeric({s}, {tgt, tgt}, {ref}, {tgt});
  EXPECT_FALSE(extra.ok);
}

TEST(NumericOracle, ReportSummaryAndJson) {
  NumericReport rep = judgeNumeric({spec(DType::f32, {2, 2})},
                                   {make(DType::f32, {2, 2}, {1, 2, 3, kNaN})},
                                   {make(DType::f64, {2, 2}, {1, 2, 3, 4})},
                                   {make(DType::f32, {2, 2}, {1, 2, 3, 4})});
  EXPECT_FALSE(rep.ok);
  EXPECT_NE(rep.summary().find("[1,1]"), std::string::npos) << rep.summary();
  nlohmann::json j = rep.toJson();
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["outputs"][0]["first_mismatch"]["flat_index"], 3);
  EXPECT_EQ(j["outputs"][0]["first_mismatch"]["actual"], "nan");
  EXPECT_EQ(
      j["outputs"][0]["first_mismatch"]["index"].get<std::vector<int64_t>>(),
      (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(j["outputs"][0]["tolerance"].contains("rel"));
}

TEST(NumericOracle, UlpDistance) {
  EXPECT_EQ(ulpDistance(DType::f32, 1.0, nextUp(1.0f)), 1u);
  EXPECT_EQ(ulpDistance(DType::f32, -0.0, 0.0), 0u);
  double denorm = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulpDistance(DType::f32, -denorm, denorm), 2u);
  EXPECT_EQ(ulpDistance(DType::f16, 1.0, 1.0 + std::ldexp(1.0, -10)), 1u);
  EXPECT_EQ(ulpDistance(DType::bf16, 1.0, 2.0), 128u);
}

// The error model composes the op table's accumulation lengths along a
// hand-built graph (declared attribute defaults may be left out).
TEST(ErrorModel, AccumulationComposesAlongTheGraph) {
  Graph g;
  auto value = [&](const std::string &name, DType d, Shape s, int producer) {
    g.values.push_back({name, {d, std::move(s)}, producer});
    return ValueId(g.values.size() - 1);
  };
  ValueId a = value("a", DType::f32, {1, 4, 64}, -1);
  ValueId b = value("b", DType::f32, {1, 64, 8}, -1);
  g.inputs = {a, b};
  ValueId mm = value("mm", DType::f32, {1, 4, 8}, 0);
  g.nodes.push_back({*parseOpId("matmul"), {a, b}, {mm}, {}});
  ValueId sum = value("sum", DType::f32, {1, 4, 1}, 1);
  Attrs axis;
  axis.set("axis", int64_t(2));
  g.nodes.push_back({*parseOpId("reduce_sum"), {mm}, {sum}, axis});
  ValueId r = value("r", DType::f32, {1, 4, 1}, 2);
  Attrs shape;
  shape.set("shape", std::vector<int64_t>{1, 4, 1});
  g.nodes.push_back({*parseOpId("reshape"), {sum}, {r}, shape});
  ValueId am = value("am", DType::i32, {1, 4}, 3);
  g.nodes.push_back({*parseOpId("argmax"), {mm}, {am}, axis});
  g.outputs = {r, am, a};

  std::vector<ValueErrorModel> m = analyzeErrors(g);
  EXPECT_EQ(m[a].accumulation, 0);
  EXPECT_EQ(m[mm].accumulation, 64);
  EXPECT_EQ(m[sum].accumulation, 64 + 8);
  EXPECT_EQ(m[r].accumulation, m[sum].accumulation); // reshape is exact
  EXPECT_TRUE(m[am].floatDerived);
  EXPECT_FALSE(m[mm].floatDerived);

  std::vector<OutputSpec> specs = outputSpecs(g);
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "r");
  EXPECT_EQ(specs[0].model.accumulation, 72);
  EXPECT_EQ(specs[1].type, (TensorType{DType::i32, {1, 4}}));
}

TEST(Verdict, CompilerFailuresBecomeOneLineFindingsOfTheirKind) {
  auto crashed = [](const std::string &stderrText) {
    CompilerFault f;
    f.kind = CompilerFault::Kind::Crashed;
    f.signal = 11;
    f.diagnostic = stderrText;
    std::string message =
        "'opt' crashed with signal 11 (Segmentation fault); stderr: ";
    return compilerFault(message + stderrText, f);
  };
  Finding crash =
      compilerFailureFinding("mlir-ext:opt", crashed("#0 0x4f2a\n#1 0x5000\n"));
  EXPECT_EQ(crash.signature.kind, Kind::Crash);
  EXPECT_EQ(crash.message.find('\n'), std::string::npos);
  EXPECT_EQ(crash.signature.backend, "mlir-ext:opt");
  // Addresses and line numbers do not split one bug into many signatures.
  Finding again =
      compilerFailureFinding("mlir-ext:opt", crashed("#0 0x77ab\n#1 0x12\n"));
  EXPECT_EQ(crash.signature, again.signature);
  // A failure without a CompilerFault: its code alone, whatever its words
  // say.
  EXPECT_EQ(
      compilerFailureFinding("x", Error::failure("hung", ErrorCode::Timeout))
          .signature.kind,
      Kind::Timeout);
  for (const char *words : {"error: 'tosa.add' op failed to verify",
                            "the pass crashed with signal 11"})
    EXPECT_EQ(compilerFailureFinding(
                  "x", Error::failure(words, ErrorCode::CompilerFailure))
                  .signature.kind,
              Kind::PassFailure)
        << words;
  // With one, its kind.
  EXPECT_EQ(compilerFailureFinding(
                "x", compilerFault("failed to legalize operation 'tosa.pad'",
                                   CompilerFault::Kind::VerifierFailed))
                .signature.kind,
            Kind::Verifier);
  for (Kind k : {Kind::Crash, Kind::Timeout, Kind::Verifier, Kind::PassFailure,
                 Kind::Miscompile, Kind::TvIncorrect})
    EXPECT_EQ(parseKind(kindName(k)), k);
  EXPECT_FALSE(parseKind("bogus"));
}
