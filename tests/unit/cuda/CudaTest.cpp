// The GPU backend. Compile-only tests run everywhere (the CUDA toolkit's
// ptxas is on every machine); tests that execute kernels skip, saying why,
// where no GPU is present.
#include "backends/cuda/Cuda.h"
#include "backends/Registry.h"
#include "backends/cuda/Internal.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/ref/Interpreter.h"
#include "core/Json.h"
#include "generators/Inputs.h"
#include "generators/Precision.h"
#include "generators/Topology.h"
#include "oracles/Consensus.h"
#include "oracles/Differential.h"

#include "tests/unit/SeedCorpus.h"

#include <gtest/gtest.h>

#include <set>

using namespace cc;

namespace {

const GpuPipeline &pipelineNamed(const std::string &name) {
  for (const GpuPipeline &p : gpuPipelines())
    if (p.name == name)
      return p;
  ADD_FAILURE() << "no GPU pipeline " << name;
  return gpuPipelines().front();
}

// Compiles a graph, checks the plan's shape and runs ptxas on every module
// for every architecture; returns the plan.
GpuPlan compileAndCheck(const Graph &g, const std::string &pipeline) {
  auto text = emitModule(g);
  EXPECT_TRUE(text) << text.error().message();
  if (!text)
    return {};
  auto plan = compileForGpu(*text, g.name, pipelineNamed(pipeline).pipeline);
  EXPECT_TRUE(plan) << g.name << " with " << pipeline << ": "
                    << plan.error().message();
  if (!plan)
    return {};
  EXPECT_EQ(plan->numInputs, g.inputs.size()) << g.name;
  EXPECT_EQ(plan->numOutputs, g.outputs.size()) << g.name;
  EXPECT_FALSE(plan->steps.empty()) << g.name;
  for (const GpuModule &m : plan->modules) {
    EXPECT_EQ(m.arch, gpuArchitectures()) << g.name << " @" << m.name;
    for (size_t i = 0; i < m.ptx.size(); ++i)
      EXPECT_NE(m.ptx[i].find(".target " + m.arch[i]), std::string::npos)
          << g.name << " @" << m.name;
  }
  Error e = assembleWithPtxas(plan->modules);
  EXPECT_FALSE(e) << g.name << ": " << e.message();
  // One cubin (an ELF image) per architecture.
  for (const GpuModule &m : plan->modules) {
    EXPECT_EQ(m.cubin.size(), m.arch.size()) << g.name << " @" << m.name;
    for (const std::string &c : m.cubin)
      EXPECT_EQ(c.substr(0, 4), "\x7f"
                                "ELF")
          << g.name << " @" << m.name;
  }
  // Every launch names a module and passes views of existing buffers.
  for (const GpuStep &s : plan->steps) {
    if (s.kind != GpuStep::Launch)
      continue;
    EXPECT_GE(s.module, 0);
    EXPECT_LT(size_t(s.module), plan->modules.size());
    for (int d = 0; d < 3; ++d)
      EXPECT_GT(s.grid[d] * s.block[d], 0) << g.name;
    for (const GpuKernelArg &a : s.args)
      if (a.isMemref) {
        EXPECT_GE(a.view.buffer, 0);
        EXPECT_LT(size_t(a.view.buffer), plan->buffers.size());
      }
  }
  return *plan;
}

Attrs axis(int64_t a) {
  Attrs attrs;
  attrs.set("axis", a);
  return attrs;
}

Graph addThenReduce() {
  Graph g;
  g.name = "add_reduce";
  ValueId a = g.addInput("a", {DType::f32, {3, 5}});
  ValueId b = g.addInput("b", {DType::f32, {3, 5}});
  auto sum = g.add("add", {a, b});
  EXPECT_TRUE(sum) << sum.error().message();
  auto red = g.add("reduce_sum", {*sum}, axis(1));
  EXPECT_TRUE(red) << red.error().message();
  g.addOutput(*sum);
  g.addOutput(*red);
  return g;
}

TEST(GpuCompile, SeedCorpusLowersToPtxThatPtxasAccepts) {
  for (const std::string &file : test::seedFiles()) {
    auto g = loadGraph(file);
    ASSERT_TRUE(g) << g.error().message();
    compileAndCheck(*g, "gpu-O3");
  }
}

TEST(GpuCompile, GeneratedGraphsOfEveryPrecisionLowerToPtx) {
  GenOptions o;
  // Two seeds: each graph and variant takes seconds through ptxas.
  for (uint64_t seed = 0; seed < 2; ++seed) {
    auto g = generateGraph(o, seed);
    ASSERT_TRUE(g) << g.error().message();
    compileAndCheck(*g, "gpu-O0");
    for (PrecisionKind k :
         {PrecisionKind::F16, PrecisionKind::BF16, PrecisionKind::Int8}) {
      auto v = makePrecisionVariant(*g, k, seed);
      if (v)
        compileAndCheck(*v, "gpu-O0");
    }
  }
}

TEST(GpuCompile, LaunchesCoverTheOutputAndReadTheArguments) {
  GpuPlan plan = compileAndCheck(addThenReduce(), "gpu-O0");
  ASSERT_EQ(plan.buffers.size() >= 4, true);
  // Arguments first: two inputs, then the two outputs as out-params.
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.buffers[size_t(i)].kind, GpuBuffer::Argument);
    EXPECT_EQ(plan.buffers[size_t(i)].argument, i);
  }
  EXPECT_EQ(plan.buffers[0].bytes, 3 * 5 * 4);
  EXPECT_EQ(plan.buffers[3].bytes, 3 * 1 * 4);
  // gpu-O0 maps each parallel dimension onto the grid: the add covers the
  // 3x5 elements with one thread each. The add's result is also an output:
  // a kernel writes it, or a copy does.
  bool addCovered = false;
  std::set<int> written;
  for (const GpuStep &s : plan.steps) {
    if (s.kind == GpuStep::Copy) {
      EXPECT_EQ(s.elementBytes, 4);
      written.insert(s.to.buffer);
      continue;
    }
    int64_t threads = 1;
    for (int d = 0; d < 3; ++d)
      threads *= s.grid[d] * s.block[d];
    std::set<int> args;
    for (const GpuKernelArg &a : s.args)
      if (a.isMemref)
        args.insert(a.view.buffer);
    addCovered |= threads == 15 && args.count(0) && args.count(1);
    // The last memref argument of these kernels is the one they write.
    for (auto a = s.args.rbegin(); a != s.args.rend(); ++a)
      if (a->isMemref) {
        written.insert(a->view.buffer);
        break;
      }
  }
  EXPECT_TRUE(addCovered);
  EXPECT_TRUE(written.count(2)) << "nothing writes the add's output";
  EXPECT_TRUE(written.count(3)) << "nothing writes the reduction's output";
}

TEST(GpuCompile, SerialHostCodeBecomesASingleThreadKernel) {
  // A reduction over every dimension has no parallel loop: without the
  // wrapping it would run on the host, on device memory.
  Graph g;
  g.name = "reduce_all";
  ValueId x = g.addInput("x", {DType::f32, {7}});
  auto red = g.add("reduce_sum", {x}, axis(0));
  ASSERT_TRUE(red) << red.error().message();
  g.addOutput(*red);
  GpuPlan plan = compileAndCheck(g, "gpu-O0");
  bool single = false;
  for (const GpuStep &s : plan.steps)
    single |= s.kind == GpuStep::Launch && s.grid[0] * s.grid[1] * s.grid[2] *
                                                   s.block[0] * s.block[1] *
                                                   s.block[2] ==
                                               1;
  EXPECT_TRUE(single);
}

TEST(Ptxas, RejectsBrokenPtxAsACompilerFailure) {
  GpuPlan plan = compileAndCheck(addThenReduce(), "gpu-O0");
  ASSERT_FALSE(plan.modules.empty());
  std::string ptx = plan.modules[0].ptx[0];
  ASSERT_FALSE(ptxasCheck(ptx, "sm_80"));
  // An instruction ptxas does not know.
  size_t ret = ptx.rfind("ret;");
  ASSERT_NE(ret, std::string::npos);
  std::string broken = ptx;
  broken.replace(ret, 4, "frobnicate.u32 %r1;");
  Error e = ptxasCheck(broken, "sm_80");
  ASSERT_TRUE(e);
  EXPECT_EQ(e.code(), ErrorCode::CompilerFailure);
  EXPECT_NE(e.message().find("ptxas -arch=sm_80 rejected the PTX"),
            std::string::npos)
      << e.message();
  // PTX for sm_90 does not assemble for sm_80.
  std::string newer = plan.modules[0].ptx[1];
  ASSERT_NE(newer.find(".target sm_90"), std::string::npos);
  EXPECT_TRUE(ptxasCheck(newer, "sm_80"));
  // Over a plan's modules, the rejection names the module and architecture.
  std::vector<GpuModule> modules = plan.modules;
  modules.back().ptx.back() = broken;
  Error all = assembleWithPtxas(modules);
  ASSERT_TRUE(all);
  EXPECT_EQ(all.code(), ErrorCode::CompilerFailure);
  EXPECT_NE(all.message().find("ptxas -arch=" + modules.back().arch.back() +
                               " on kernel module @" + modules.back().name +
                               " rejected the PTX"),
            std::string::npos)
      << all.message();
}

TEST(CudaBackend, UnknownPipelineNamesTheKnownOnes) {
  auto b = makeBackend("cuda:gpu-O7");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("known: gpu-O0, gpu-O3"),
            std::string::npos)
      << b.error().message();
}

// With a GPU the backend's outputs pass the numeric oracle; without one the
// run stops after ptxas and says so.
TEST(CudaBackend, RunsWhereAGpuIsAndSaysWhyNotElsewhere) {
  auto b = makeBackend("cuda:gpu-O3");
  ASSERT_TRUE(b) << b.error().message();
  Graph g = addThenReduce();
  Inputs in = makeInputs(g, 1);
  auto out = (*b)->run(g, in, {});
  std::string why = gpuUnavailableReason();
  if (!why.empty()) {
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code(), ErrorCode::Unsupported);
    EXPECT_NE(out.error().message().find("PTX that ptxas accepts"),
              std::string::npos)
        << out.error().message();
    EXPECT_NE(out.error().message().find(why), std::string::npos);
    return;
  }
  ASSERT_TRUE(out) << out.error().message();
  auto r = runDifferential(g, in, **b, {});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(!r->verdict.passed())
      << (r->verdict.finding() ? r->verdict.finding()->message : "");
}

// Input sets share one worker: the graph is lowered once (one lowering
// path in the coverage, not one per set), and with a GPU each set's outputs
// are those of a run of that set alone.
TEST(CudaBackend, CompilesOnceForAllInputSets) {
  auto b = makeBackend("cuda:gpu-O0");
  ASSERT_TRUE(b) << b.error().message();
  Graph g = addThenReduce();
  std::vector<Inputs> in = {makeInputs(g, 1), makeInputs(g, 2),
                            makeInputs(g, 3)};
  PassCoverage coverage;
  RunOptions o;
  o.passCoverage = &coverage;
  auto results = (*b)->runSets(g, {&in[0], &in[1], &in[2]}, o);
  ASSERT_EQ(results.size(), 3u);
  int64_t paths = 0;
  for (const auto &[key, count] : coverage)
    paths += key.first == "path" ? count : 0;
  EXPECT_EQ(paths, 1);
  std::string why = gpuUnavailableReason();
  for (size_t i = 0; i < results.size(); ++i) {
    if (!why.empty()) {
      ASSERT_FALSE(results[i]);
      EXPECT_EQ(results[i].error().code(), ErrorCode::Unsupported);
      continue;
    }
    ASSERT_TRUE(results[i]) << results[i].error().message();
    auto alone = (*b)->run(g, in[i], {});
    ASSERT_TRUE(alone) << alone.error().message();
    ASSERT_EQ(results[i]->size(), alone->size());
    for (size_t k = 0; k < alone->size(); ++k)
      EXPECT_EQ((*results[i])[k], (*alone)[k])
          << "set " << i << " output " << k;
  }
}

TEST(CudaBackend, GeneratedGraphsMatchTheReferenceOnTheGpu) {
  if (std::string why = gpuUnavailableReason(); !why.empty())
    GTEST_SKIP() << "no GPU to run kernels on: " << why;
  for (const char *spec : {"cuda:gpu-O0", "cuda:gpu-O3"}) {
    auto b = makeBackend(spec);
    ASSERT_TRUE(b) << b.error().message();
    for (uint64_t seed = 0; seed < 20; ++seed) {
      auto g = generateGraph(GenOptions{}, seed);
      ASSERT_TRUE(g) << g.error().message();
      auto r = runDifferential(*g, makeInputs(*g, seed), **b, {});
      ASSERT_TRUE(r) << spec << " seed " << seed << ": " << r.error().message();
      EXPECT_FALSE(!r->verdict.passed())
          << spec << " seed " << seed << ": "
          << (r->verdict.finding() ? r->verdict.finding()->message : "");
    }
  }
}

// A campaign with a CPU and a GPU compiler: without a GPU the GPU backend
// drops out of the comparison after compiling; the CPU one still runs.
TEST(CudaBackend, AnUnrunnableGpuLeavesTheOtherCompilersJudged) {
  if (gpuUnavailableReason().empty())
    GTEST_SKIP() << "a GPU is present: the GPU backend runs";
  auto cpu = makeBackend("mlir:tosa-O0");
  auto gpu = makeBackend("cuda:gpu-O0");
  auto ref = makeBackend("ref");
  ASSERT_TRUE(cpu && gpu && ref);
  TestCase c;
  c.graph = addThenReduce();
  c.inputs = makeInputs(c.graph, 3);
  auto r = judgeConsensus(c, {cpu->get(), gpu->get()}, {}, {});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(r->skipped) << r->skipReason;
  EXPECT_TRUE(r->findings.empty());
}

} // namespace

namespace {

// conv2d of x [1,5,5,2] with 3x3 weights and asymmetric padding (cuDNN pads
// symmetrically: the reference pads on the host), and a matmul of a with a
// constant: what the cudnn reference runs.
Graph convAndMatmul() {
  Graph g;
  g.name = "conv_matmul";
  ValueId x = g.addInput("x", {DType::f32, {1, 5, 5, 2}});
  ValueId a = g.addInput("a", {DType::f32, {1, 2, 3}});
  Attrs w, b, m, conv;
  w.set("value", Tensor::splat({DType::f32, {3, 3, 3, 2}}, 0.25));
  b.set("value", Tensor::splat({DType::f32, {3}}, -1.0));
  m.set("value", Tensor::splat({DType::f32, {1, 3, 4}}, 0.5));
  conv.set("pad", std::vector<int64_t>{1, 0, 0, 1});
  auto y = g.add("conv2d", {x, *g.add("const", {}, w), *g.add("const", {}, b)},
                 conv);
  auto z = g.add("matmul", {a, *g.add("const", {}, m)});
  EXPECT_TRUE(y && z);
  g.addOutput(*y);
  g.addOutput(*z);
  return g;
}

TEST(CudnnReference, RunsConvAndMatmulGraphsOnly) {
  auto ref = makeBackend("cudnn");
  ASSERT_TRUE(ref) << ref.error().message();
  Graph g = convAndMatmul();
  EXPECT_TRUE((*ref)->supports(g).ok);
  Support s = (*ref)->supports(addThenReduce());
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.reason.find("not add"), std::string::npos) << s.reason;
}

// With a GPU, cuDNN and cuBLAS agree with the interpreter; without one the
// run says why (a campaign drops the reference and goes on). Either way
// CUDA stays out of this process: the run is isolated in a worker.
TEST(CudnnReference, AgreesWithTheInterpreterWhereAGpuIs) {
  auto ref = makeBackend("cudnn");
  ASSERT_TRUE(ref) << ref.error().message();
  Graph g = convAndMatmul();
  Inputs in = makeInputs(g, 5);
  auto out = (*ref)->run(g, in, {});
  EXPECT_FALSE(cudabackend::driverLoaded());
  if (std::string why = gpuUnavailableReason(); !why.empty()) {
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().code(), ErrorCode::Unsupported);
    EXPECT_EQ(out.error().message(), why);
    GTEST_SKIP() << "no GPU to run cuDNN on: " << why;
  }
  ASSERT_TRUE(out) << out.error().message();
  auto expected = interpret(g, in, Precision::F64);
  auto target = interpret(g, in, Precision::Target);
  ASSERT_TRUE(expected && target);
  NumericReport r = judgeNumeric(g, *out, *expected, *target);
  EXPECT_TRUE(r.ok) << r.summary();
}

} // namespace
