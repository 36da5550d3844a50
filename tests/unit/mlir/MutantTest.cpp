// Every mutant pass is wired: inserted in front of tosa-O0 it changes the
// result of a small TOSA function.
#include "MlirTestUtil.h"

#include "backends/mlir/MlirBackend.h"
#include "tests/mutants/Mutants.h"

#include <limits>
#include <map>
#include <set>

namespace cc {
namespace {

using test::closeTo;
using test::tensorOf;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// tosa-O0 with `mutant` run first on each function.
std::string mutatedO0(const std::string &mutant) {
  std::string o0 = namedPipelines()[0].pipeline;
  return "builtin.module(func.func(" + mutant + ")," +
         o0.substr(std::string("builtin.module(").size());
}

struct MutantCase {
  std::string body; // of func.func @f
  std::string signature;
  Inputs inputs;
  TensorType result;
  Tensor expected; // the correct result
};

std::map<std::string, MutantCase> cases() {
  auto f32 = [](Shape s, std::vector<double> v) {
    return tensorOf(DType::f32, std::move(s), std::move(v));
  };
  std::map<std::string, MutantCase> c;
  // MLIR 22's own tosa.mul folder already turns x * 0 into the zero
  // constant (so Inf * 0 gives 0, not NaN); the mutant differs from it in
  // the sign of x * -0.
  c["cc-mutant-mul-zero"] = {
      R"(%z = "tosa.const"() <{values = dense<-0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.mul %x, %z, %s : (tensor<3xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<3xf32>)",
      "%x: tensor<3xf32>",
      {f32({3}, {1, 2, 3})},
      {DType::f32, {3}},
      f32({3}, {-0.0, -0.0, -0.0})};
  c["cc-mutant-add-sub-cancel"] = {
      R"(%t = tosa.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r = tosa.sub %t, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
      "%x: tensor<2xf32>, %y: tensor<2xf32>",
      {f32({2}, {1, 1e-8}), f32({2}, {kInf, 1})},
      {DType::f32, {2}},
      f32({2}, {kNaN, 0})};
  c["cc-mutant-sub-swap"] = {
      R"(%r = tosa.sub %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
      "%x: tensor<2xf32>, %y: tensor<2xf32>",
      {f32({2}, {1, 2}), f32({2}, {5, 5})},
      {DType::f32, {2}},
      f32({2}, {-4, -3})};
  c["cc-mutant-slice-off-by-one"] = {
      R"(%start = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.slice %x, %start, %size : (tensor<6xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<3xf32>)",
      "%x: tensor<6xf32>",
      {f32({6}, {0, 1, 2, 3, 4, 5})},
      {DType::f32, {3}},
      f32({3}, {1, 2, 3})};
  c["cc-mutant-cast-trunc"] = {
      R"(%r = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>)",
      "%x: tensor<4xf32>",
      {f32({4}, {2.7, -2.7, 0.5, 1.5})},
      {DType::i32, {4}},
      tensorOf(DType::i32, {4}, {3, -3, 0, 2})};
  c["cc-mutant-clamp-drop"] = {
      R"(%r = tosa.clamp %x {min_val = 0.0 : f32, max_val = 1.0 : f32} : (tensor<3xf32>) -> tensor<3xf32>)",
      "%x: tensor<3xf32>",
      {f32({3}, {-1, 0.5, 3})},
      {DType::f32, {3}},
      f32({3}, {0, 0.5, 1})};
  c["cc-mutant-transpose-invert"] = {
      R"(%r = tosa.transpose %x {perms = array<i32: 1, 2, 0>} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>)",
      "%x: tensor<2x2x2xf32>",
      {f32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})},
      {DType::f32, {2, 2, 2}},
      // out[i][j][k] = x[k][i][j]
      f32({2, 2, 2}, {0, 4, 1, 5, 2, 6, 3, 7})};
  c["cc-mutant-rescale-zp"] = {
      // multiplier 2^30 >> shift 30: a scale of 1, so r = x - input_zp.
      R"(%m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %iz = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %oz = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.rescale %x, %m, %s, %iz, %oz {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<2xi32>)",
      "%x: tensor<2xi8>",
      {tensorOf(DType::i8, {2}, {10, -10})},
      {DType::i32, {2}},
      tensorOf(DType::i32, {2}, {7, -13})};
  c["cc-mutant-broadcast-first"] = {
      R"(%r = tosa.add %x, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>)",
      "%x: tensor<2x3xf32>, %y: tensor<1x3xf32>",
      {f32({2, 3}, {0, 1, 2, 3, 4, 5}), f32({1, 3}, {10, 20, 30})},
      {DType::f32, {2, 3}},
      f32({2, 3}, {10, 21, 32, 13, 24, 35})};
  c["cc-mutant-reduce-axis"] = {
      R"(%r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>)",
      "%x: tensor<2x3xf32>",
      {f32({2, 3}, {1, 2, 3, 4, 5, 6})},
      {DType::f32, {2, 1}},
      f32({2, 1}, {6, 15})};
  // Just below a power of two, these round up to it; 3 rounds exactly.
  c["cc-mutant-bf16-carry"] = {
      R"(%r = tosa.cast %x : (tensor<4xf32>) -> tensor<4xbf16>)",
      "%x: tensor<4xf32>",
      {f32({4}, {0.49999997, 1.9999999, 3, -0.49999997})},
      {DType::bf16, {4}},
      tensorOf(DType::bf16, {4}, {0.5, 2, 3, -0.5})};
  // A 2x2 window over 1..9 with one row and column of -Inf padding after.
  c["cc-mutant-pad-shift"] = {
      R"(%r = "tosa.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>}> : (tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>)",
      "%x: tensor<1x3x3x1xf32>",
      {f32({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9})},
      {DType::f32, {1, 3, 3, 1}},
      f32({1, 3, 3, 1}, {5, 6, 6, 8, 9, 9, 8, 9, 9})};
  c["cc-mutant-negate-fold"] = {
      R"(%z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %y, %z, %z : (tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  %r = tosa.sub %x, %n : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
      "%x: tensor<2xf32>, %y: tensor<2xf32>",
      {f32({2}, {1, 2}), f32({2}, {5, 5})},
      {DType::f32, {2}},
      f32({2}, {6, 7})};
  c["cc-mutant-sub-self"] = {
      R"(%r = tosa.sub %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>)",
      "%x: tensor<3xf32>",
      {f32({3}, {1, kInf, kNaN})},
      {DType::f32, {3}},
      f32({3}, {0, kNaN, kNaN})};
  c["cc-mutant-trunc-ext-fold"] = {
      R"(%n = tosa.cast %x : (tensor<2xi32>) -> tensor<2xi8>
  %r = tosa.cast %n : (tensor<2xi8>) -> tensor<2xi32>)",
      "%x: tensor<2xi32>",
      {tensorOf(DType::i32, {2}, {300, 5})},
      {DType::i32, {2}},
      tensorOf(DType::i32, {2}, {44, 5})};
  c["cc-mutant-slice-start-size"] = {
      R"(%start = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.slice %x, %start, %size : (tensor<6xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>)",
      "%x: tensor<6xf32>",
      {f32({6}, {0, 1, 2, 3, 4, 5})},
      {DType::f32, {2}},
      f32({2}, {1, 2})};
  c["cc-mutant-clamp-swap"] = {
      R"(%r = tosa.clamp %x {min_val = 0.0 : f32, max_val = 1.0 : f32} : (tensor<3xf32>) -> tensor<3xf32>)",
      "%x: tensor<3xf32>",
      {f32({3}, {-1, 0.5, 3})},
      {DType::f32, {3}},
      f32({3}, {0, 0.5, 1})};
  // 5 is not a multiple of the tile size 4: the last element is lost.
  c["cc-mutant-tile-tail"] = {
      R"(%r = tosa.add %x, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>)",
      "%x: tensor<5xf32>, %y: tensor<5xf32>",
      {f32({5}, {1, 2, 3, 4, 5}), f32({5}, {1, 1, 1, 1, 1})},
      {DType::f32, {5}},
      f32({5}, {2, 3, 4, 5, 6})};
  c["cc-mutant-minmax-swap"] = {
      R"(%r = tosa.maximum %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
      "%x: tensor<2xf32>, %y: tensor<2xf32>",
      {f32({2}, {1, 7}), f32({2}, {3, 2})},
      {DType::f32, {2}},
      f32({2}, {3, 7})};
  c["cc-mutant-select-invert"] = {
      R"(%c = tosa.greater %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %r = tosa.select %c, %x, %y : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>)",
      "%x: tensor<2xf32>, %y: tensor<2xf32>",
      {f32({2}, {1, 7}), f32({2}, {3, 2})},
      {DType::f32, {2}},
      f32({2}, {3, 7})};
  return c;
}

std::string moduleOf(const MutantCase &c) {
  return "func.func @f(" + c.signature + ") -> " + c.result.mlir() + " {\n  " +
         c.body + "\n  return %r : " + c.result.mlir() + "\n}\n";
}

TEST(Mutants, ListHasTheRequiredPasses) {
  std::set<std::string> names;
  for (const MutantInfo &m : mutantPasses()) {
    EXPECT_FALSE(m.description.empty()) << m.name;
    names.insert(m.name);
  }
  EXPECT_GE(names.size(), 20u);
  for (const auto &[name, c] : cases())
    EXPECT_TRUE(names.count(name)) << name;
}

TEST(Mutants, RegistrationIsIdempotentAndNamesParse) {
  registerMutantPasses();
  registerMutantPasses(); // idempotent
  auto b = makeMlirBackend("mlir:pipeline=" + mutatedO0("cc-mutant-sub-swap"));
  EXPECT_TRUE(bool(b)) << b.error().message();
}

TEST(Mutants, EachMutantChangesAResult) {
  registerMutantPasses();
  for (const MutantInfo &m : mutantPasses()) {
    SCOPED_TRACE(m.name);
    auto all = cases();
    auto it = all.find(m.name);
    ASSERT_NE(it, all.end()) << "no test case for " << m.name;
    const MutantCase &c = it->second;
    std::string module = moduleOf(c);
    auto good = runMlirModule(module, "f", {c.result}, c.inputs,
                              namedPipelines()[0].pipeline, 0);
    ASSERT_TRUE(bool(good)) << good.error().message() << "\n" << module;
    EXPECT_TRUE(closeTo((*good)[0], c.expected, 0));
    auto bad =
        runMlirModule(module, "f", {c.result}, c.inputs, mutatedO0(m.name), 0);
    ASSERT_TRUE(bool(bad)) << bad.error().message();
    EXPECT_FALSE(closeTo((*bad)[0], c.expected, 0))
        << "the mutant did not change the result";
  }
}

TEST(Mutants, WorkThroughABackendSpecOnEmittedGraphs) {
  registerMutantPasses();
  Graph g;
  g.name = "g";
  ValueId a = g.addInput("a", {DType::f32, {3}});
  ValueId b = g.addInput("b", {DType::f32, {3}});
  auto d = g.add("sub", {a, b});
  ASSERT_TRUE(bool(d)) << d.error().message();
  g.addOutput(*d);
  Inputs in = {tensorOf(DType::f32, {3}, {1, 2, 3}),
               tensorOf(DType::f32, {3}, {0, 0, 0})};
  auto backend =
      makeMlirBackend("mlir:pipeline=" + mutatedO0("cc-mutant-sub-swap"));
  ASSERT_TRUE(bool(backend)) << backend.error().message();
  auto out = (*backend)->run(g, in, {});
  ASSERT_TRUE(bool(out)) << out.error().message();
  EXPECT_TRUE(closeTo((*out)[0], tensorOf(DType::f32, {3}, {-1, -2, -3}), 0));
}

} // namespace
} // namespace cc
