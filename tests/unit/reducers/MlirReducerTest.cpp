// The MLIR-level reducer on emitted TOSA: a pass failure whose message names
// one op keeps that op and loses the others; candidates stay valid MLIR.
#include "backends/mlir/MlirBackend.h"
#include "generators/Inputs.h"
#include "reducers/MlirEdit.h"
#include "reducers/Reduce.h"
#include "tests/unit/reducers/Graphs.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>

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

// A driver as the bundles have it: a global read by a loop, a function the
// failure needs, and one it does not.
const char *const kDriver = R"(module {
  memref.global @in : memref<4xf32> = dense<1.0>
  memref.global @unused : memref<8xf32> = dense<0.0>
  func.func @needed(%x: f32) -> f32 {
    %y = arith.subf %x, %x : f32
    return %y : f32
  }
  func.func @dead(%x: f32) -> f32 {
    %y = arith.mulf %x, %x : f32
    return %y : f32
  }
  func.func @main() {
    %m = memref.get_global @in : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %m[%i] : memref<4xf32>
      %r = func.call @needed(%v) : (f32) -> f32
      vector.print %r : f32
    }
    return
  }
}
)";

bool hasSubAndPrint(const std::string &text) {
  return text.find("arith.subf") != std::string::npos &&
         text.find("vector.print") != std::string::npos;
}

TEST(MlirReducer, RemovesDeadFunctionsAndGlobals) {
  ReduceOptions o;
  o.maxCalls = 500; // a safety net: the reduction needs far fewer
  auto r = reduceMlir(kDriver, hasSubAndPrint, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(verifyMlir(r->module));
  EXPECT_TRUE(hasSubAndPrint(r->module));
  for (const char *gone :
       {"@dead", "@unused", "arith.mulf", "memref.global", "memref.load"})
    EXPECT_EQ(r->module.find(gone), std::string::npos) << r->module;
  EXPECT_LT(r->opsAfter, r->opsBefore) << r->module;
}

// A loop that sums four loaded values. The failure needs the load, the add
// and the print, which its first iteration has: the loop goes, its body
// stays with the lower bound for the index and the initial value for the
// sum, and the print takes that iteration's sum.
const char *const kSumLoop = R"(module {
  memref.global @in : memref<4xf32> = dense<1.0>
  func.func @main() {
    %m = memref.get_global @in : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
      %v = memref.load %m[%i] : memref<4xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    vector.print %sum : f32
    return
  }
}
)";

bool loadsAddsAndPrints(const std::string &text) {
  return text.find("memref.load") != std::string::npos &&
         text.find("arith.addf") != std::string::npos &&
         text.find("vector.print") != std::string::npos;
}

TEST(MlirReducer, CutsALoopToItsFirstIteration) {
  ReduceOptions o;
  o.maxCalls = 500; // a safety net: the reduction needs far fewer
  auto r = reduceMlir(kSumLoop, loadsAddsAndPrints, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(verifyMlir(r->module));
  EXPECT_TRUE(loadsAddsAndPrints(r->module)) << r->module;
  EXPECT_EQ(r->module.find("scf."), std::string::npos) << r->module;
  EXPECT_LT(r->opsAfter, r->opsBefore);
  auto facts = reduce::mlirFacts(r->module);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->ub.definite, "") << r->module;
  EXPECT_EQ(facts->ub.unknown, 0) << r->module;
}

// A loop that never runs is not cut to a first iteration: its body would
// run where it did not (here, a load out of bounds).
TEST(MlirReducer, LeavesALoopThatNeverRuns) {
  std::string module = kSumLoop;
  module.replace(module.find("%c0 to %c4"), 10, "%c4 to %c4");
  reduce::StructuralEdits edits(module);
  ASSERT_GT(edits.size(), 0u);
  for (size_t i = 0; i < edits.size(); ++i) {
    auto text = edits.apply(i);
    bool cut = text && text->find("memref.load") != std::string::npos &&
               text->find("scf.for") == std::string::npos;
    EXPECT_FALSE(cut) << *text;
  }
}

TEST(MlirReducer, ScanFindsZeroStepsAndOutOfBoundsIndices) {
  auto ok = reduce::mlirFacts(kDriver);
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->ub.definite, "");
  EXPECT_EQ(ok->ub.unknown, 0);
  std::string zeroStep = kDriver;
  zeroStep.replace(zeroStep.find("step %c1"), 8, "step %c0");
  auto zero = reduce::mlirFacts(zeroStep);
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->ub.definite, "a loop whose step is not positive");
  std::string oob = kDriver;
  oob.replace(oob.find("%c4 = arith.constant 4"), 22, "%c4 = arith.constant 5");
  auto out = reduce::mlirFacts(oob);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->ub.definite, "an index out of bounds");
  EXPECT_FALSE(reduce::mlirFacts("func.func @f("));
}

// Rewiring %c1 (the step) to %c0, or the bound %c4 to a larger index, would
// still be "interesting" here: the predicate only looks at the text (and
// keeps the loop, which is otherwise cut to its first iteration). No such
// candidate may reach it.
TEST(MlirReducer, NeverRunsACandidateWithUndefinedBehaviour) {
  std::string module = kDriver;
  // A larger index defined before the loop bound: rewiring %c4 to it reads
  // out of bounds.
  module.replace(module.find("    %c0 = arith"), 0,
                 "    %c9 = arith.constant 9 : index\n"
                 "    %s = memref.alloc(%c9) : memref<?xf32>\n");
  std::vector<std::string> seen;
  auto fails = [&](const std::string &text) {
    seen.push_back(text);
    return hasSubAndPrint(text) &&
           text.find("memref.load") != std::string::npos &&
           text.find("scf.for") != std::string::npos;
  };
  ReduceOptions o;
  o.maxCalls = 500;
  auto r = reduceMlir(module, fails, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_TRUE(fails(r->module));
  EXPECT_GT(r->ubRejected, 0);
  for (const std::string &text : seen) {
    auto facts = reduce::mlirFacts(text);
    ASSERT_TRUE(facts) << text;
    EXPECT_EQ(facts->ub.definite, "") << text;
  }
  auto final = reduce::mlirFacts(r->module);
  ASSERT_TRUE(final);
  EXPECT_EQ(final->ub.definite, "") << r->module;
  EXPECT_EQ(r->module.find("step %c0"), std::string::npos) << r->module;
}

TEST(MlirReducer, JudgesEachCandidateOnce) {
  std::set<std::string> seen;
  int repeats = 0;
  auto fails = [&](const std::string &text) {
    repeats += !seen.insert(text).second;
    return hasSubAndPrint(text);
  };
  ReduceOptions o;
  o.maxCalls = 500;
  auto r = reduceMlir(kDriver, fails, o);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(repeats, 0);
  EXPECT_GT(r->cacheHits, 0);
  EXPECT_EQ(r->oracleCalls, int64_t(seen.size()));
}

// Parallel judging picks the first failing candidate in order, as one job
// does: the same module comes out.
TEST(MlirReducer, JobsGiveTheSameReducedModule) {
  std::mutex lock;
  int64_t calls = 0;
  auto fails = [&](const std::string &text) {
    std::lock_guard<std::mutex> hold(lock);
    ++calls;
    return hasSubAndPrint(text);
  };
  ReduceOptions one, four;
  one.maxCalls = four.maxCalls = 1000;
  four.jobs = 4;
  auto a = reduceMlir(kDriver, fails, one);
  auto b = reduceMlir(kDriver, fails, four);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(hasSubAndPrint(b->module));
  EXPECT_FALSE(verifyMlir(b->module));
  EXPECT_EQ(a->module, b->module);
  EXPECT_EQ(calls, a->oracleCalls + b->oracleCalls);
}

} // namespace
