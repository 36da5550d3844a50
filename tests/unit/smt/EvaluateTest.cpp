// Oracle (b): a generated program evaluated through its translation-
// validation encoding gives, wherever its value is computed, exactly what
// the straight lowering's compiled code gives, and is never undefined.
#include "smt/Evaluate.h"
#include "backends/mlir/MlirBackend.h"
#include "generators/Program.h"
#include "oracles/Program.h"
#include "tests/mutants/Mutants.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>

namespace cc::smt {
namespace {

struct Tally {
  int programs = 0, evaluated = 0;
  int64_t elements = 0, known = 0;
  std::map<std::string, int> unsupported;
};

// The first element where the evaluation and the compiled code differ.
std::string firstDifference(const Evaluation &ev, const Outputs &out) {
  for (size_t r = 0; r < out.size() && r < ev.outputs.size(); ++r)
    for (int64_t i = 0; i < out[r].size(); ++i) {
      if (!ev.known[r][size_t(i)])
        continue;
      bool same = isFloat(out[r].dtype())
                      ? sameValue(ev.outputs[r].getF(i), out[r].getF(i))
                      : ev.outputs[r].getI(i) == out[r].getI(i);
      if (!same)
        return "result " + std::to_string(r) + "[" + std::to_string(i) +
               "]: encoding " + std::to_string(ev.outputs[r].getF(i)) +
               ", compiled " + std::to_string(out[r].getF(i));
    }
  return "";
}

void check(int seed, const ProgramOptions &options, Tally &t) {
  const Program p = generateProgram(options, uint64_t(seed));
  MlirProgram mp{p.name, p.mlir, p.args, p.results};
  Inputs in = programInputs(p, 1);
  auto ev = evaluateProgram(mp, {&in}).front();
  ++t.programs;
  if (!ev) {
    ASSERT_EQ(ev.error().code(), ErrorCode::Unsupported)
        << "seed " << seed << ": " << ev.error().message();
    std::string why = ev.error().message();
    ++t.unsupported[why.substr(0, why.find(" ("))];
    return;
  }
  ++t.evaluated;
  EXPECT_EQ(ev->undefined, "") << "seed " << seed << "\n" << p.mlir;
  const NamedPipeline straight = straightLowering();
  RunOptions run;
  run.limits.timeoutSeconds = 60;
  Expected<Outputs> out =
      runMlirModule(p.mlir, p.name, p.results, {in}, straight.pipeline,
                    straight.llvmOptLevel, run);
  ASSERT_TRUE(bool(out)) << "seed " << seed << ": " << out.error().message();
  for (const auto &k : ev->known) {
    t.elements += int64_t(k.size());
    for (bool b : k)
      t.known += b;
  }
  EXPECT_EQ(firstDifference(*ev, *out), "") << "seed " << seed << "\n"
                                            << p.mlir;
}

MlirProgram program(const std::string &body, const TensorType &arg,
                    const TensorType &result) {
  return {"main",
          "func.func @main(%x: " + arg.mlir() + ") -> " + result.mlir() +
              " {\n" + body + "}\n",
          {arg},
          {result}};
}

Tensor tensorOf(DType dt, std::vector<double> values) {
  Tensor t(dt, Shape({int64_t(values.size())}));
  for (size_t i = 0; i < values.size(); ++i)
    isFloat(dt) ? t.setF(int64_t(i), values[i])
                : t.setI(int64_t(i), int64_t(values[i]));
  return t;
}

// Values are computed exactly (an i8 wraps, an f16 rounds, denormals
// stay), a math function's result is open, and poison is undefined.
TEST(Evaluate, ComputesExactValuesAndLeavesMathOpen) {
  MlirProgram p = program(R"(
  %c = arith.constant dense<100> : tensor<3xi8>
  %s = arith.addi %x, %c : tensor<3xi8>
  %f = arith.sitofp %s : tensor<3xi8> to tensor<3xf16>
  %h = arith.constant dense<6.0e-08> : tensor<3xf16>
  %m = arith.mulf %f, %h : tensor<3xf16>
  %e = math.exp %m : tensor<3xf16>
  %r = tensor.concat dim(0) %m, %e : (tensor<3xf16>, tensor<3xf16>) -> tensor<6xf16>
  return %r : tensor<6xf16>
)",
                          {DType::i8, {3}}, {DType::f16, {6}});
  Inputs in{tensorOf(DType::i8, {1, 27, -128})};
  auto ev = evaluateProgram(p, {&in}).front();
  ASSERT_TRUE(bool(ev)) << ev.error().message();
  EXPECT_EQ(ev->undefined, "");
  // 101, -129 wraps to 127, -28; times the smallest f16 denormal.
  const double tiny = f16BitsToF64(1);
  std::vector<double> want{101 * tiny, 127 * tiny, -28 * tiny};
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(ev->known[0][size_t(i)]) << i;
    EXPECT_EQ(ev->outputs[0].getF(i), want[size_t(i)]) << i;
    EXPECT_FALSE(ev->known[0][size_t(i) + 3]) << i;
  }
  EXPECT_EQ(ev->open, "math functions uninterpreted");

  MlirProgram shift = program(R"(
  %c = arith.constant dense<[1, 40]> : tensor<2xi32>
  %s = arith.shli %x, %c : tensor<2xi32>
  return %s : tensor<2xi32>
)",
                              {DType::i32, {2}}, {DType::i32, {2}});
  Inputs two{tensorOf(DType::i32, {3, 3})};
  auto sh = evaluateProgram(shift, {&two}).front();
  ASSERT_TRUE(bool(sh)) << sh.error().message();
  EXPECT_EQ(sh->undefined, "result 0 element 1 is poison");
  EXPECT_EQ(sh->outputs[0].getI(0), 6);
}

// An op the encoding does not cover is an uninterpreted function: what
// depends on it is open, and the evaluation says which op.
TEST(Evaluate, UncoveredOpsLeaveTheirResultsOpen) {
  MlirProgram p = program(R"(
  %r = tensor.bitcast %x : tensor<4xi32> to tensor<4xui32>
  %s = tensor.bitcast %r : tensor<4xui32> to tensor<4xi32>
  return %s : tensor<4xi32>
)",
                          {DType::i32, {4}}, {DType::i32, {4}});
  Inputs in{tensorOf(DType::i32, {1, 2, 3, 4})};
  auto ev = evaluateProgram(p, {&in}).front();
  ASSERT_TRUE(bool(ev)) << ev.error().message();
  EXPECT_EQ(ev->known[0], std::vector<bool>(4, false));
  EXPECT_NE(ev->open.find("tensor.bitcast"), std::string::npos) << ev->open;
}

// The program oracle with --ref smt: a program whose encoding is undefined
// on its inputs (a shift by more than the width is poison) is a
// reference-disagreement of the straight lowering with the encoding, found
// only when asked for.
TEST(Evaluate, TheProgramOracleReportsAnUndefinedProgram) {
  TestCase c;
  c.program = program(R"(
  %c = arith.constant dense<40> : tensor<1xi32>
  %s = arith.shli %x, %c : tensor<1xi32>
  return %s : tensor<1xi32>
)",
                      {DType::i32, {1}}, {DType::i32, {1}});
  c.inputs = {tensorOf(DType::i32, {3})};
  ConsensusOptions o;
  auto plain = std::move(judgeProgramSets({c}, {}, o).front());
  ASSERT_TRUE(bool(plain)) << plain.error().message();
  EXPECT_TRUE(plain->findings.empty());
  o.smtReference = true;
  auto r = std::move(judgeProgramSets({c}, {}, o).front());
  ASSERT_TRUE(bool(r)) << r.error().message();
  ASSERT_EQ(r->findings.size(), 1u);
  const Signature &s = r->findings[0].finding.signature;
  EXPECT_EQ(s.kind, Kind::RefDisagreement);
  EXPECT_EQ(s.backend, "mlir:straight~smt");
  EXPECT_EQ(s.detail, "smt:undefined");
  EXPECT_EQ(r->findings[0].testCase.cut, "mlir:straight");
}

// Where the straight lowering disagrees with the encoding, the reference
// is not trusted: on inputs where the program is undefined no compiler's
// miscompile stays (it may compute anything there), only the disagreement.
TEST(Evaluate, AnUntrustedReferenceBlamesNoCompiler) {
  registerMutantPasses();
  TestCase c;
  c.program = program(R"(
  %c = arith.constant dense<40> : tensor<1xi32>
  %s = arith.shli %x, %c : tensor<1xi32>
  %t = arith.constant dense<3> : tensor<1xi32>
  %m = arith.maxsi %x, %t : tensor<1xi32>
  %r = arith.addi %s, %m : tensor<1xi32>
  return %r : tensor<1xi32>
)",
                      {DType::i32, {1}}, {DType::i32, {1}});
  c.inputs = {tensorOf(DType::i32, {-5})};
  auto cut = makeMlirBackend(
      "mlir:pipeline-O0=" +
      straightLowering({"cc-mutant-minmax-unsigned", "", "", ""}).pipeline);
  ASSERT_TRUE(bool(cut)) << cut.error().message();
  ConsensusOptions o;
  auto plain = std::move(judgeProgramSets({c}, {cut->get()}, o).front());
  ASSERT_TRUE(bool(plain)) << plain.error().message();
  ASSERT_EQ(plain->findings.size(), 1u); // maxui(-5, 3) is -5
  EXPECT_EQ(plain->findings[0].finding.signature.kind, Kind::Miscompile);
  o.smtReference = true;
  auto r = std::move(judgeProgramSets({c}, {cut->get()}, o).front());
  ASSERT_TRUE(bool(r)) << r.error().message();
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].finding.signature.kind, Kind::RefDisagreement);
  EXPECT_EQ(r->findings[0].finding.signature.detail, "smt:undefined");
}

// The reducer's gate: reading a tensor.empty or looping with step 0 is
// undefined; the same programs reading the argument are not.
TEST(Evaluate, ProgramUndefinedSeesUninitializedReadsAndZeroSteps) {
  TestCase c;
  c.inputs = {tensorOf(DType::i32, {3, 4})};
  c.program = program(R"(
  %e = tensor.empty() : tensor<2xi32>
  %r = arith.addi %x, %e : tensor<2xi32>
  return %r : tensor<2xi32>
)",
                      {DType::i32, {2}}, {DType::i32, {2}});
  EXPECT_EQ(programUndefined(c), "result 0 element 0 is poison");
  c.program = program(R"(
  %r = arith.addi %x, %x : tensor<2xi32>
  return %r : tensor<2xi32>
)",
                      {DType::i32, {2}}, {DType::i32, {2}});
  EXPECT_EQ(programUndefined(c), "");
  c.program = program(R"(
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c0 iter_args(%a = %x) -> (tensor<2xi32>) {
    %b = arith.addi %a, %a : tensor<2xi32>
    scf.yield %b : tensor<2xi32>
  }
  return %r : tensor<2xi32>
)",
                      {DType::i32, {2}}, {DType::i32, {2}});
  EXPECT_EQ(programUndefined(c), "undefined behaviour on these inputs");
}

TEST(Evaluate, GeneratedProgramsAgreeWithTheStraightLowering) {
  int first = 0, count = 1000, ops = ProgramOptions().ops;
  if (const char *env = std::getenv("CC_PROGRAM_EVAL"))
    std::sscanf(env, "%d %d %d", &first, &count, &ops);
  ProgramOptions options;
  options.ops = ops;
  Tally t;
  for (int seed = first; seed < first + count; ++seed)
    check(seed, options, t);
  std::printf("evaluated %d of %d programs; %lld of %lld elements known\n",
              t.evaluated, t.programs, (long long)t.known,
              (long long)t.elements);
  for (const auto &[why, n] : t.unsupported)
    std::printf("  %4d %s\n", n, why.c_str());
  // Not vacuous: nearly every program is evaluated and most of the
  // elements are computed (the rest depend on math functions or float
  // contractions, which stay uninterpreted).
  EXPECT_GE(t.evaluated * 100, t.programs * 95);
  EXPECT_GE(t.known * 100, t.elements * 85);
}

} // namespace
} // namespace cc::smt
