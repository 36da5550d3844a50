// The Z3 encoding agrees with the reference interpreter on concrete inputs:
// for one-op integer graphs, a function computing the op on constant inputs
// must be refined by (here: equal to) a function returning the reference's
// outputs as constants, and not by one with a single element changed.
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "core/ops/Indexing.h"
#include "generators/Inputs.h"
#include "smt/Validate.h"
#include "tests/unit/smt/Limits.h"

#include <gtest/gtest.h>

namespace cc::smt {
namespace {

struct OpCase {
  std::string op;
  std::vector<DType> operandTypes;
  Attrs attrs;
};

Attrs attrs(std::initializer_list<std::pair<std::string, AttrValue>> kv) {
  Attrs a;
  for (const auto &[k, v] : kv)
    a.set(k, v);
  return a;
}

std::vector<OpCase> cases() {
  const DType i32 = DType::i32, i1 = DType::i1;
  return {
      {"add", {i32, i32}, {}},
      {"sub", {i32, i32}, {}},
      {"mul", {i32, i32}, attrs({{"shift", int64_t(0)}})},
      {"mul", {DType::i8, DType::i8}, {}}, // an i32 product
      {"maximum", {i32, i32}, {}},
      {"minimum", {i32, i32}, {}},
      {"abs", {i32}, {}},
      {"negate", {i32}, {}},
      {"bitwise_and", {i32, i32}, {}},
      {"bitwise_or", {i32, i32}, {}},
      {"bitwise_xor", {i32, i32}, {}},
      {"logical_and", {i1, i1}, {}},
      {"logical_or", {i1, i1}, {}},
      {"select", {i1, i32, i32}, {}},
      {"clamp", {DType::i16}, attrs({{"min", -5.0}, {"max", 7.0}})},
  };
}

// The op over graph inputs (for makeInputs and the reference) or over
// constants holding `values` (for the encoding).
Expected<Graph> oneOp(const OpCase &c, const Inputs *values) {
  Graph g;
  std::vector<ValueId> operands;
  for (size_t i = 0; i < c.operandTypes.size(); ++i) {
    if (!values) {
      operands.push_back(g.addInput("x" + std::to_string(i),
                                    TensorType{c.operandTypes[i], {2, 3}}));
      continue;
    }
    CC_ASSIGN(v, g.add("const", {}, attrs({{"value", (*values)[i]}})));
    operands.push_back(v);
  }
  CC_ASSIGN(r, g.add(c.op, operands, c.attrs));
  g.addOutput(r);
  return g;
}

Expected<Graph> constant(const Tensor &t) {
  Graph g;
  CC_ASSIGN(v, g.add("const", {}, attrs({{"value", t}})));
  g.addOutput(v);
  return g;
}

TvVerdict check(const Graph &src, const Tensor &expected) {
  auto tgtGraph = constant(expected);
  if (!tgtGraph) {
    ADD_FAILURE() << tgtGraph.error().message();
    return TvVerdict::Unknown;
  }
  auto s = emitModule(src);
  auto t = emitModule(*tgtGraph);
  if (!s || !t) {
    ADD_FAILURE() << "emitModule failed";
    return TvVerdict::Unknown;
  }
  TvOptions o = deterministicOptions();
  o.confirm = false; // judge the encoding alone, not the JIT
  auto r = checkRefinement(*s, *t, o);
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return TvVerdict::Unknown;
  }
  EXPECT_EQ(r->size(), 1u);
  if (r->empty())
    return TvVerdict::Unknown;
  EXPECT_NE((*r)[0].verdict, TvVerdict::Unknown) << (*r)[0].reason;
  return (*r)[0].verdict;
}

TEST(OpAgreement, EncodingMatchesReferenceOnConcreteInputs) {
  for (const OpCase &c : cases()) {
    for (uint64_t seed : {1, 2, 3}) {
      SCOPED_TRACE(c.op + " seed " + std::to_string(seed));
      auto g = oneOp(c, nullptr);
      ASSERT_TRUE(g) << g.error().message();
      Inputs in = makeInputs(*g, seed);
      auto ref = interpret(*g, in);
      ASSERT_TRUE(ref) << ref.error().message();
      auto src = oneOp(c, &in);
      ASSERT_TRUE(src) << src.error().message();
      EXPECT_EQ(check(*src, (*ref)[0]), TvVerdict::Correct);
      if (seed == 1) {
        // A wrong constant must be caught, or the check above proves nothing.
        Tensor wrong = (*ref)[0];
        wrong.setI(0, wrong.getI(0) ^ 1);
        EXPECT_EQ(check(*src, wrong), TvVerdict::Incorrect);
      }
    }
  }
}

Tensor filled(DType d, Shape shape, const std::vector<double> &values) {
  Tensor t(d, std::move(shape));
  for (int64_t i = 0; i < t.size(); ++i)
    isFloat(d) ? t.setF(i, values[size_t(i) % values.size()])
               : t.setI(i, int64_t(values[size_t(i) % values.size()]));
  return t;
}

// An op over constant operands, its reference result, and the verdicts
// against that result (Correct) and against it with one element changed
// (Incorrect).
void expectAgreement(const std::string &op, const std::vector<Tensor> &operands,
                     const Attrs &at) {
  SCOPED_TRACE(op);
  Graph g;
  std::vector<ValueId> ids;
  for (const Tensor &t : operands) {
    auto v = g.add("const", {}, attrs({{"value", t}}));
    ASSERT_TRUE(v) << v.error().message();
    ids.push_back(*v);
  }
  auto r = g.add(op, ids, at);
  ASSERT_TRUE(r) << r.error().message();
  g.addOutput(*r);
  auto ref = interpret(g, {}, Precision::Target);
  ASSERT_TRUE(ref) << ref.error().message();
  EXPECT_EQ(check(g, (*ref)[0]), TvVerdict::Correct);
  Tensor wrong = (*ref)[0];
  if (isFloat(wrong.dtype()))
    wrong.setF(1, wrong.getF(1) + 1);
  else
    wrong.setI(1, wrong.getI(1) ^ 1);
  EXPECT_EQ(check(g, wrong), TvVerdict::Incorrect);
}

// TOSA-level conv2d, depthwise_conv2d (small integer values: exact in any
// summation order, so the abstract floats refine to IEEE and decide) and
// gather.
TEST(OpAgreement, ConvolutionsAndGatherMatchTheReference) {
  const DType f32 = DType::f32, i32 = DType::i32;
  Attrs conv = attrs({{"pad", std::vector<int64_t>{1, 0, 0, 1}}});
  expectAgreement("conv2d",
                  {filled(f32, {1, 3, 3, 2}, {1, -2, 3, 0, 2}),
                   filled(f32, {2, 2, 2, 2}, {1, 0, -1, 2}),
                   filled(f32, {2}, {0.5, -1})},
                  conv);
  expectAgreement("depthwise_conv2d",
                  {filled(f32, {1, 3, 4, 2}, {1, -2, 3, 0, 2}),
                   filled(f32, {2, 2, 2, 1}, {1, 0, -1, 2}),
                   filled(f32, {2}, {0.5, -1})},
                  attrs({{"stride", std::vector<int64_t>{1, 2}}}));
  expectAgreement("gather",
                  {filled(i32, {1, 4, 2}, {7, -3, 11, 5, 0, 2, 9}),
                   filled(i32, {1, 3}, {2, 0, 3})},
                  {});
}

// The other TOSA kernels: transposed convolution; integer convolutions and
// matmul with zero points (exact sums); max and avg pooling with padding
// (excluded from the window), NaN and integer rounding; argmax with NaN;
// rescale per tensor and per channel.
TEST(OpAgreement, KernelsMatchTheReference) {
  const DType f32 = DType::f32, i8 = DType::i8, i32 = DType::i32;
  using V = std::vector<int64_t>;
  expectAgreement("transpose_conv2d",
                  {filled(f32, {1, 2, 2, 2}, {1, -2, 3, 0, 2}),
                   filled(f32, {2, 2, 2, 2}, {1, 0, -1, 2, 3}),
                   filled(f32, {2}, {0.5, -1})},
                  attrs({{"stride", V{2, 1}}, {"out_pad", V{0, 1, 1, 0}}}));
  Attrs zps = attrs({{"input_zp", int64_t(-3)}, {"weight_zp", int64_t(2)}});
  Attrs padded = zps;
  padded.set("pad", V{1, 0, 0, 1});
  expectAgreement("conv2d",
                  {filled(i8, {1, 3, 3, 2}, {1, -128, 127, 0, 5}),
                   filled(i8, {2, 2, 2, 2}, {1, 0, -1, 2, -7}),
                   filled(i32, {2}, {100, -5})},
                  padded);
  expectAgreement("depthwise_conv2d",
                  {filled(i8, {1, 3, 4, 2}, {1, -2, 3, 0, 2}),
                   filled(i8, {2, 2, 2, 1}, {1, 0, -1, 2}),
                   filled(i32, {2}, {7, -1})},
                  zps);
  expectAgreement("matmul",
                  {filled(i8, {1, 2, 3}, {-128, 5, 127, 3}),
                   filled(i8, {1, 3, 2}, {2, -7, 1})},
                  attrs({{"a_zp", int64_t(4)}, {"b_zp", int64_t(-1)}}));
  Attrs pool =
      attrs({{"kernel", V{2, 2}}, {"stride", V{1, 2}}, {"pad", V{1, 0, 0, 1}}});
  expectAgreement("max_pool2d",
                  {filled(f32, {1, 3, 5, 2}, {1, -2, 3, 0, -INFINITY, 2})},
                  pool);
  expectAgreement("max_pool2d",
                  {filled(i8, {1, 3, 5, 2}, {1, -128, 3, 0, 127})}, pool);
  expectAgreement("avg_pool2d", {filled(f32, {1, 3, 5, 2}, {1, -2, 3, 0.5, 2})},
                  pool);
  Attrs qpool = pool;
  qpool.set("input_zp", int64_t(-5));
  qpool.set("output_zp", int64_t(3));
  expectAgreement("avg_pool2d",
                  {filled(i8, {1, 3, 5, 2}, {1, -128, 3, 0, 127, -7})}, qpool);
  expectAgreement("argmax", {filled(f32, {2, 3, 4}, {1, 3, -2, 3, NAN, 0, 5})},
                  attrs({{"axis", int64_t(2)}}));
  expectAgreement(
      "argmax", {filled(f32, {2, 3, 4}, {1, 3, -2, 3, NAN, 0, 5})},
      attrs({{"axis", int64_t(1)}, {"nan_mode", std::string("IGNORE")}}));
  expectAgreement("argmax", {filled(i8, {3, 4}, {1, 3, -2, 3, -128, 0, 5})},
                  attrs({{"axis", int64_t(0)}}));
  expectAgreement("rescale",
                  {filled(i32, {2, 3}, {12345, -2, 1000000, -77, 0})},
                  attrs({{"to", DType::i8},
                         {"multiplier", V{1518500250}},
                         {"shift", V{38}},
                         {"input_zp", int64_t(0)},
                         {"output_zp", int64_t(-4)},
                         {"rounding_mode", std::string("DOUBLE_ROUND")}}));
  expectAgreement("rescale", {filled(i8, {2, 3}, {-128, 5, 127, 0, -3})},
                  attrs({{"to", DType::i32},
                         {"multiplier", V{1073741824, 3, 2000000000}},
                         {"shift", V{30, 12, 33}},
                         {"per_channel", true},
                         {"input_zp", int64_t(7)},
                         {"output_zp", int64_t(0)}}));
  // Unsigned values and zero points above the signed range.
  for (bool unsignedIn : {true, false})
    expectAgreement("rescale", {filled(i8, {2, 3}, {-128, 5, 127, 0, -3, -56})},
                    attrs({{"to", DType::i8},
                           {"multiplier", V{1073741824}},
                           {"shift", V{30}},
                           {"input_unsigned", unsignedIn},
                           {"output_unsigned", !unsignedIn},
                           {"input_zp", int64_t(unsignedIn ? 200 : 0)},
                           {"output_zp", int64_t(unsignedIn ? 0 : 130)}}));
}

// Float clamp in both NaN modes (written as the lowering writes it):
// NaN, the infinities and values on both bounds.
TEST(OpAgreement, FloatClampMatchesTheReference) {
  for (const char *mode : {"PROPAGATE", "IGNORE"})
    expectAgreement(
        "clamp",
        {filled(DType::f32, {2, 4},
                {NAN, -INFINITY, INFINITY, -2, 0.5, 3, -0.0, 1})},
        attrs({{"min", -1.0}, {"max", 2.0}, {"nan_mode", std::string(mode)}}));
}

// Edge values the sampled inputs may miss: i8 and i16 negate saturate at the
// minimum (negating in the i32 accumulator, then clipping); the tosa.negate
// double-negation fold of MLIR 22 is wrong exactly there.
TEST(OpAgreement, NarrowIntNegateSaturatesAtTheMinimum) {
  for (DType t : {DType::i8, DType::i16}) {
    SCOPED_TRACE(dtypeName(t));
    OpCase c{"negate", {t}, {}};
    Tensor x(t, {2, 3});
    int64_t min = t == DType::i8 ? -128 : -32768;
    for (int64_t i = 0; i < 6; ++i)
      x.setI(i, i == 0 ? min : i == 1 ? -min - 1 : i - 3);
    Inputs in = {x};
    auto ref = interpret(*oneOp(c, nullptr), in);
    ASSERT_TRUE(ref) << ref.error().message();
    EXPECT_EQ((*ref)[0].getI(0), -min - 1);
    auto src = oneOp(c, &in);
    ASSERT_TRUE(src) << src.error().message();
    EXPECT_EQ(check(*src, (*ref)[0]), TvVerdict::Correct);
    Tensor wrapped = (*ref)[0];
    wrapped.setI(0, min);
    EXPECT_EQ(check(*src, wrapped), TvVerdict::Incorrect);
  }
}

// `%name = arith.constant dense<[values]> : tensor<N x elt>`.
std::string constantLine(const std::string &name,
                         const std::vector<int64_t> &values,
                         const std::string &elt) {
  std::string list;
  for (int64_t v : values)
    list += (list.empty() ? "" : ", ") + std::to_string(v);
  return "  %" + name + " = arith.constant dense<[" + list + "]> : tensor<" +
         std::to_string(values.size()) + "x" + elt + ">\n";
}

// tosa.apply_scale (what tosa-to-linalg makes of rescale, inside
// linalg.generic bodies) against the reference's apply_scale on edge values:
// a function of constants is refined by the reference's results and not by
// one changed element; a failed REQUIRE is poison, refined by anything.
std::string applyScaleModule(const std::vector<int64_t> &values,
                             const std::vector<int64_t> &mults,
                             const std::vector<int64_t> &shifts,
                             const std::string &mode) {
  std::string n = std::to_string(values.size());
  std::string t32 = "tensor<" + n + "xi32>", t8 = "tensor<" + n + "xi8>";
  return "func.func @f() -> " + t32 + " {\n" +
         constantLine("v", values, "i32") + constantLine("m", mults, "i32") +
         constantLine("s", shifts, "i8") +
         "  %r = tosa.apply_scale %v, %m, %s {rounding_mode = " + mode +
         "} : (" + t32 + ", " + t32 + ", " + t8 + ") -> " + t32 +
         "\n  return %r : " + t32 + "\n}\n";
}

std::string constantModule(const std::vector<int64_t> &values) {
  std::string t = "tensor<" + std::to_string(values.size()) + "xi32>";
  return "func.func @f() -> " + t + " {\n" + constantLine("c", values, "i32") +
         "  return %c : " + t + "\n}\n";
}

TvVerdict verdictOf(const std::string &src, const std::string &tgt) {
  // The bf16 IEEE proofs take seconds: none of these may run out.
  TvOptions o = deterministicOptions();
  o.confirm = false;
  auto r = checkRefinement(src, tgt, o);
  if (!r || r->size() != 1) {
    ADD_FAILURE() << (r ? "one function expected" : r.error().message());
    return TvVerdict::Unknown;
  }
  EXPECT_NE((*r)[0].verdict, TvVerdict::Unknown) << (*r)[0].reason;
  return (*r)[0].verdict;
}

TEST(OpAgreement, ApplyScaleMatchesTheReference) {
  // Rounding ties both ways, shifts on both sides of 31 (double rounding
  // adds 2^30 there), large multipliers and the i32 extremes.
  const std::vector<int64_t> values = {12345, -2, 1000000,    -1000000,
                                       1,     -1, 2147483647, -2147483647 - 1};
  const std::vector<int64_t> mults = {1073741824, 3, 2147483647, 1518500250,
                                      1,          1, 1073741824, 1073741824};
  const std::vector<int64_t> shifts = {31, 2, 40, 33, 2, 2, 62, 62};
  for (bool doubleRound : {false, true}) {
    SCOPED_TRACE(doubleRound ? "DOUBLE_ROUND" : "SINGLE_ROUND");
    std::vector<int64_t> expected;
    for (size_t i = 0; i < values.size(); ++i) {
      auto r = applyScale(values[i], mults[i], shifts[i], true, doubleRound);
      ASSERT_TRUE(r) << r.error().message();
      expected.push_back(*r);
    }
    std::string src = applyScaleModule(
        values, mults, shifts, doubleRound ? "DOUBLE_ROUND" : "SINGLE_ROUND");
    EXPECT_EQ(verdictOf(src, constantModule(expected)), TvVerdict::Correct);
    for (size_t i : {size_t(0), size_t(3)}) {
      std::vector<int64_t> wrong = expected;
      wrong[i] ^= 1;
      EXPECT_EQ(verdictOf(src, constantModule(wrong)), TvVerdict::Incorrect)
          << i;
    }
  }
  // A shift of 1, a value outside the range shift 2 allows and a negative
  // multiplier fail TOSA's REQUIREs (the reference refuses them), but the
  // MLIR op is not bound by them: tosa-to-linalg gives it tosa.mul's
  // operands. Each has its exact (v * m + round) >> shift.
  struct Case {
    int64_t value, mult, shift, result;
  };
  for (Case k : {Case{5, 1, 1, 3}, Case{5, 1, 2, 1}, Case{5, -3, 2, -4}}) {
    EXPECT_FALSE(applyScale(k.value, k.mult, k.shift, true, false));
    std::string src =
        applyScaleModule({k.value}, {k.mult}, {k.shift}, "SINGLE_ROUND");
    EXPECT_EQ(verdictOf(src, constantModule({k.result})), TvVerdict::Correct);
    EXPECT_EQ(verdictOf(src, constantModule({k.result + 1})),
              TvVerdict::Incorrect);
  }
}

// i32 add, sub, abs and negate overflow exactly where the reference says
// TOSA is undefined (apply_add_s / apply_sub_s fail their REQUIRE; the
// encoding makes that element poison, as a failed REQUIRE of apply_scale).
// So the op on an argument is refined by the op on the argument first clamped
// to where it is defined (the wrapped result at the bound is not TOSA's), and
// one step inside that bound the op is exact.
TEST(OpAgreement, I32OverflowIsUndefinedAsInTheReference) {
  const DType i32 = DType::i32;
  const int64_t mn = -2147483647 - 1, mx = 2147483647;
  struct Case {
    std::string op;
    int64_t operand;     // the first operand's value that overflows
    std::string clampTo; // maximum or minimum, with the bound one inside
    std::vector<Tensor> undefined, defined;
  };
  const std::vector<Case> cases = {
      {"add",
       mx,
       "minimum",
       {filled(i32, {2}, {mx, 3}), filled(i32, {2}, {1, 4})},
       {filled(i32, {2}, {mx, mx - 1}), filled(i32, {2}, {0, 1})}},
      {"sub",
       mn,
       "maximum",
       {filled(i32, {2}, {mn, 3}), filled(i32, {2}, {1, 4})},
       {filled(i32, {2}, {mn + 1, -1}), filled(i32, {2}, {1, mx})}},
      {"abs",
       mn,
       "maximum",
       {filled(i32, {2}, {mn, -3})},
       {filled(i32, {2}, {mn + 1, -3})}},
      {"negate",
       mn,
       "maximum",
       {filled(i32, {2}, {mn, -3})},
       {filled(i32, {2}, {mn + 1, mx})}},
  };
  const std::string t = "tensor<2xi32>";
  const std::string t1 = "tensor<1xi32>";
  auto cst = [&](const std::string &name, int64_t v, const std::string &type) {
    return "  %" + name + " = \"tosa.const\"() <{values = dense<" +
           std::to_string(v) + "> : " + type + "}> : () -> " + type + "\n";
  };
  for (const Case &k : cases) {
    SCOPED_TRACE(k.op);
    // The reference refuses the overflow.
    Graph g;
    std::vector<ValueId> ids;
    for (const Tensor &x : k.undefined) {
      auto v = g.add("const", {}, attrs({{"value", x}}));
      ASSERT_TRUE(v) << v.error().message();
      ids.push_back(*v);
    }
    auto r = g.add(k.op, ids, {});
    ASSERT_TRUE(r) << r.error().message();
    g.addOutput(*r);
    auto ref = interpret(g, {}, Precision::Target);
    ASSERT_FALSE(ref) << "the reference computes the overflow";
    EXPECT_EQ(ref.error().code(), ErrorCode::Undefined)
        << ref.error().message();
    // The encoding leaves it undefined: clamping first refines the op.
    bool binary = k.op == "add" || k.op == "sub";
    auto fn = [&](bool clamp) {
      std::string body =
          cst("one", 1, t) + cst("zp", 0, t1) +
          cst("bound", k.operand + (k.operand == mx ? -1 : 1), t);
      std::string x = "%x";
      if (clamp) {
        body += "  %c = tosa." + k.clampTo + " %x, %bound : (" + t + ", " + t +
                ") -> " + t + "\n";
        x = "%c";
      }
      std::string operands =
          binary ? x + ", %one : (" + t + ", " + t + ")"
          : k.op == "negate"
              ? x + ", %zp, %zp : (" + t + ", " + t1 + ", " + t1 + ")"
              : x + " : (" + t + ")";
      return "func.func @f(%x: " + t + ") -> " + t + " {\n" + body +
             "  %r = tosa." + k.op + " " + operands + " -> " + t + "\n" +
             "  return %r : " + t + "\n}\n";
    };
    EXPECT_EQ(verdictOf(fn(false), fn(true)), TvVerdict::Correct);
    // Clamping is not the identity elsewhere: the reverse is no refinement.
    EXPECT_EQ(verdictOf(fn(true), fn(false)), TvVerdict::Incorrect);
    expectAgreement(k.op, k.defined, {});
  }
}

// Rounding to an integral value in bf16 (floor, roundeven, and the
// truncation of float to integer casts; Z3 cannot round a format whose
// significand is no longer than its exponent): as exact as in f32, and
// floor is not ceil. One element: the IEEE proofs take a second each.
TEST(OpAgreement, Bf16RoundingIsExact) {
  const std::string t = "tensor<1xbf16>", w = "tensor<1xf32>";
  auto viaF32 = [&](const std::string &op) {
    return "func.func @f(%x: " + t + ") -> " + t + " {\n" +
           "  %e = arith.extf %x : " + t + " to " + w + "\n" + "  %r = math." +
           op + " %e : " + w + "\n" + "  %n = arith.truncf %r : " + w + " to " +
           t + "\n" + "  return %n : " + t + "\n}\n";
  };
  for (std::string op : {"floor", "roundeven"}) {
    SCOPED_TRACE(op);
    std::string src = "func.func @f(%x: " + t + ") -> " + t + " {\n" +
                      "  %r = math." + op + " %x : " + t + "\n" +
                      "  return %r : " + t + "\n}\n";
    EXPECT_EQ(verdictOf(src, viaF32(op)), TvVerdict::Correct);
    EXPECT_EQ(verdictOf(src, viaF32(op == "floor" ? "ceil" : "floor")),
              TvVerdict::Incorrect);
  }
  const std::string i = "tensor<1xi32>";
  auto toInt = [&](bool widen, const std::string &cast) {
    return "func.func @f(%x: " + t + ") -> " + i + " {\n" +
           (widen ? "  %e = arith.extf %x : " + t + " to " + w + "\n" +
                        "  %r = arith." + cast + " %e : " + w + " to " + i
                  : "  %r = arith." + cast + " %x : " + t + " to " + i) +
           "\n  return %r : " + i + "\n}\n";
  };
  EXPECT_EQ(verdictOf(toInt(false, "fptosi"), toInt(true, "fptosi")),
            TvVerdict::Correct);
  EXPECT_EQ(verdictOf(toInt(false, "fptosi"), toInt(true, "fptoui")),
            TvVerdict::Incorrect);
}

// math.ctlz, cttz and ctpop (integer avg_pool2d's lowering divides with
// ctlz) are exact, zero included.
TEST(OpAgreement, BitCountsAreExact) {
  const std::vector<int64_t> values = {
      0, 1, -1, 0x00f0, 0x40000000, -2147483647 - 1, 12345};
  for (std::string op : {"ctlz", "cttz", "ctpop"}) {
    SCOPED_TRACE(op);
    std::vector<int64_t> expected;
    for (int64_t v : values) {
      uint32_t u = uint32_t(v);
      expected.push_back(op == "ctpop"  ? __builtin_popcount(u)
                         : u == 0       ? 32
                         : op == "ctlz" ? __builtin_clz(u)
                                        : __builtin_ctz(u));
    }
    std::string t = "tensor<" + std::to_string(values.size()) + "xi32>";
    std::string src = "func.func @f() -> " + t + " {\n" +
                      constantLine("x", values, "i32") + "  %r = math." + op +
                      " %x : " + t + "\n  return %r : " + t + "\n}\n";
    EXPECT_EQ(verdictOf(src, constantModule(expected)), TvVerdict::Correct);
    std::vector<int64_t> wrong = expected;
    wrong[0] ^= 1;
    EXPECT_EQ(verdictOf(src, constantModule(wrong)), TvVerdict::Incorrect);
  }
}

} // namespace
} // namespace cc::smt
