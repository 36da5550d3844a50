// The MLIR-level reducer on emitted TOSA: a pass failure whose message names
// one op keeps that op and loses the others; candidates stay valid MLIR.
#include "backends/mlir/MlirBackend.h"
#include "generators/Inputs.h"
#include "reducers/Reduce.h"
#include "tests/unit/reducers/Graphs.h"

#include <gtest/gtest.h>

using namespace cc;

namespace {

TEST(MlirReducer, KeepsTheOpTheFailureNames) {
  Graph g = test::mixedGraph();
  auto module = emitModule(g);
  ASSERT_TRUE(module) << module.error().message();
  Inputs inputs = makeInputs(g, 1);
  std::vector<TensorType> results;
  for (ValueId o : g.outputs)
    results.push_back(g.typeOf(o));
  // An integer-only TOSA profile: tosa-validate names the first float op.
  const std::string &o0 = namedPipelines().front().pipeline;
  std::string pipeline = "builtin.module(tosa-attach-target{profiles=pro_int},"
                         "tosa-validate{strict-op-spec-alignment}," +
                         o0.substr(std::string("builtin.module(").size());
  auto fails = [&](const std::string &text) {
    auto out = runMlirModule(text, g.name, results, inputs, pipeline, 0);
    return !out && out.error().message().find("'tosa.sub' op illegal") !=
                       std::string::npos;
  };
  ASSERT_TRUE(fails(*module)) << *module;
  ReduceOptions o;
  o.budgetSeconds = 600; // a safety net: the reduction needs far less
  auto r = reduceMlir(*module, fails, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(verifyMlir(r->module));
  EXPECT_TRUE(fails(r->module));
  EXPECT_LT(r->opsAfter, r->opsBefore);
  EXPECT_NE(r->module.find("tosa.sub"), std::string::npos) << r->module;
  for (const char *gone :
       {"tosa.bitwise_and", "tosa.bitwise_or", "tosa.bitwise_xor"})
    EXPECT_EQ(r->module.find(gone), std::string::npos) << r->module;
  EXPECT_GT(r->oracleCalls, 0);
}

// Ops the failure needs stay; then their optional attributes go and their
// dense constants become zero splats of the right element type.
TEST(MlirReducer, DropsAttributesAndMakesConstantsSplats) {
  const std::string module =
      R"(func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %k = "tosa.const"() <{values = dense<[[1.5, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %a = tosa.add %x, %k : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %m = tosa.maximum %a, %x {nan_mode = "IGNORE"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %m : tensor<1x4xf32>
}
)";
  auto fails = [](const std::string &text) {
    return text.find("tosa.add %x, %k") != std::string::npos &&
           text.find("tosa.maximum %a") != std::string::npos;
  };
  auto r = reduceMlir(module, fails);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->opsAfter, r->opsBefore);
  EXPECT_EQ(r->simplified, 2) << r->module;
  EXPECT_EQ(r->module.find("nan_mode"), std::string::npos) << r->module;
  EXPECT_NE(r->module.find("dense<0.000000e+00> : tensor<1x4xf32>"),
            std::string::npos)
      << r->module;
  EXPECT_FALSE(verifyMlir(r->module));
}

TEST(MlirReducer, RefusesAModuleThatDoesNotFail) {
  auto module = emitModule(test::mixedGraph());
  ASSERT_TRUE(module);
  auto r = reduceMlir(*module, [](const std::string &) { return false; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotReproduced);
  EXPECT_FALSE(
      reduceMlir("func.func @f(", [](const std::string &) { return true; }));
}

} // namespace
