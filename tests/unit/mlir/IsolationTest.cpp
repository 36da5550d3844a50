// The isolated worker: a crash or hang in a pass or in the JIT-compiled code
// becomes a CompilerFailure or a Timeout, and this process lives on.
#include "FaultModules.h"
#include "MlirTestUtil.h"
#include "tests/mutants/Mutants.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

namespace cc {
namespace {

using test::closeTo;
using test::runFaultModule;
using test::tensorOf;

using Clock = std::chrono::steady_clock;

const TensorType kI32x2{DType::i32, {2}};

void expectFailure(const Expected<Outputs> &out, ErrorCode code,
                   std::initializer_list<const char *> needles) {
  ASSERT_FALSE(bool(out));
  EXPECT_EQ(out.error().code(), code) << out.error().message();
  for (const char *needle : needles)
    EXPECT_NE(out.error().message().find(needle), std::string::npos)
        << "no '" << needle << "' in: " << out.error().message();
}

TEST(MlirIsolation, DivisionByZeroInCompiledCodeNamesSignalAndStage) {
  Inputs inputs = {tensorOf(DType::i32, {2}, {7, -9}),
                   tensorOf(DType::i32, {2}, {0, 0})};
  auto out = runFaultModule(test::kIntDivModule, {kI32x2}, inputs);
  expectFailure(
      out, ErrorCode::CompilerFailure,
      {"signal 8", "Floating point exception", "in execute", "stack:", "#0 "});

  // This process survived, and the next run works.
  inputs[1] = tensorOf(DType::i32, {2}, {2, 3});
  auto good = runFaultModule(test::kIntDivModule, {kI32x2}, inputs);
  ASSERT_TRUE(bool(good)) << good.error().message();
  EXPECT_TRUE(closeTo((*good)[0], tensorOf(DType::i32, {2}, {3, -3}), 0));
}

TEST(MlirIsolation, AbortInCompiledCodeShowsASymbolizedStack) {
  TensorType t{DType::f32, {1}};
  auto out =
      runFaultModule(test::kAbortModule, {t}, {tensorOf(DType::f32, {1}, {1})});
  expectFailure(out, ErrorCode::CompilerFailure,
                {"signal 6", "in execute", "abort (libc"});
}

TEST(MlirIsolation, EndlessLoopIsATimeoutNamingTheStage) {
  RunOptions options;
  options.limits.timeoutSeconds = 1;
  auto start = Clock::now();
  auto out = runFaultModule(test::kEndlessLoopModule, {{DType::i64, {1}}},
                            {tensorOf(DType::i64, {1}, {5})}, options);
  double took = std::chrono::duration<double>(Clock::now() - start).count();
  expectFailure(out, ErrorCode::Timeout, {"timed out after 1 s", "in execute"});
  EXPECT_GE(took, 1);
  EXPECT_LT(took, 120); // killed, not left to loop (generous under load)
}

TEST(MlirIsolation, CrashInAPassNamesThePassAndItsStack) {
  // A pass that segfaults on purpose: upstream crashes get fixed, and the
  // ones in use-after-free code do not crash on every heap layout.
  registerMutantPasses();
  std::string module = R"(
func.func @f(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tosa.transpose %a {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
})";
  std::string pipeline = "builtin.module(func.func(cc-crash-on-transpose,"
                         "tosa-to-linalg),one-shot-bufferize,convert-to-llvm)";
  TensorType in{DType::f32, {2, 3, 4}}, out{DType::f32, {4, 2, 3}};
  auto r = runMlirModule(module, "f", {out}, {Tensor(in)}, pipeline, 0);
  expectFailure(r, ErrorCode::CompilerFailure,
                {"signal 11",
                 "in pass cc-crash-on-transpose on the input module",
                 "stack:", "#0 "});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One compilation for several input sets gives each set what a run of its
// own gives; a crash on one set is that set's alone, and a failure to
// compile is every set's.
TEST(MlirIsolation, InputSetsShareACompilationButNotACrash) {
  Graph g;
  ValueId x = g.addInput("x", kI32x2), y = g.addInput("y", kI32x2);
  g.addOutput(*g.add("intdiv", {x, y}));
  auto backend = makeMlirBackend("mlir:tosa-O0");
  ASSERT_TRUE(bool(backend));
  std::vector<Inputs> sets = {
      {tensorOf(DType::i32, {2}, {7, -9}), tensorOf(DType::i32, {2}, {2, 3})},
      {tensorOf(DType::i32, {2}, {7, -9}), tensorOf(DType::i32, {2}, {0, 1})},
      {tensorOf(DType::i32, {2}, {100, 5}),
       tensorOf(DType::i32, {2}, {-3, 5})}};
  InputSets pointers = {&sets[0], &sets[1], &sets[2]};
  for (bool isolate : {true, false}) {
    RunOptions options;
    options.isolate = isolate;
    // In-process, the crashing set would take the test down.
    InputSets run = isolate ? pointers : InputSets{&sets[0], &sets[2]};
    auto results = (*backend)->runSets(g, run, options);
    ASSERT_EQ(results.size(), run.size());
    for (size_t i = 0; i < run.size(); ++i) {
      auto alone = (*backend)->run(g, *run[i], options);
      if (isolate && i == 1) {
        expectFailure(results[i], ErrorCode::CompilerFailure,
                      {"signal 8", "in execute"});
        continue;
      }
      ASSERT_TRUE(bool(results[i])) << results[i].error().message();
      ASSERT_TRUE(bool(alone)) << alone.error().message();
      EXPECT_EQ(*results[i], *alone) << "set " << i;
    }
  }
  EXPECT_TRUE(closeTo((*(*backend)->runSets(g, pointers, {})[2])[0],
                      tensorOf(DType::i32, {2}, {-33, 1}), 0));
  // Compiled once: the passes ran as often as for one set.
  PassCoverage once, shared;
  RunOptions onceOptions, sharedOptions;
  onceOptions.passCoverage = &once;
  sharedOptions.passCoverage = &shared;
  ASSERT_TRUE(bool((*backend)->run(g, sets[0], onceOptions)));
  (*backend)->runSets(g, {&sets[0], &sets[2]}, sharedOptions);
  EXPECT_FALSE(once.empty());
  EXPECT_EQ(once, shared);

  // A pipeline that cannot lower the module fails every set alike.
  auto broken = makeMlirBackend("mlir:pipeline=builtin.module(canonicalize)");
  ASSERT_TRUE(bool(broken));
  auto failed = (*broken)->runSets(g, {&sets[0], &sets[2]}, {});
  ASSERT_EQ(failed.size(), 2u);
  ASSERT_FALSE(bool(failed[0]));
  ASSERT_FALSE(bool(failed[1]));
  EXPECT_EQ(failed[0].error().message(), failed[1].error().message());
}

// Same outputs with and without the worker; prints what the worker costs
// (runs interleaved, medians: the machine may be busy).
TEST(MlirIsolation, IsolatedAndInProcessRunsAgree) {
  Inputs inputs = {tensorOf(DType::i32, {2}, {100, -7}),
                   tensorOf(DType::i32, {2}, {3, 2})};
  std::vector<double> wall[2], overhead;
  std::optional<Outputs> results[2];
  for (int i = 0; i < 10; ++i) {
    for (int isolate = 0; isolate < 2; ++isolate) {
      RunOptions options;
      options.isolate = isolate;
      StageTimes times;
      options.times = &times;
      auto start = Clock::now();
      auto out = runFaultModule(test::kIntDivModule, {kI32x2}, inputs, options);
      wall[isolate].push_back(
          std::chrono::duration<double>(Clock::now() - start).count());
      ASSERT_TRUE(bool(out)) << out.error().message();
      results[isolate] = *out;
      for (const char *stage : {"lower", "jit", "execute"})
        EXPECT_GT(times[stage], 0) << stage;
      EXPECT_EQ(times.count("isolate"), size_t(isolate));
      if (isolate)
        overhead.push_back(times["isolate"]);
    }
  }
  EXPECT_EQ(*results[0], *results[1]);
  std::printf("[ overhead ] median per run: in-process %.1f ms, isolated "
              "%.1f ms; fork, exit and transfer ('isolate' stage) %.2f ms\n",
              1e3 * median(wall[0]), 1e3 * median(wall[1]),
              1e3 * median(overhead));
}

} // namespace
} // namespace cc
