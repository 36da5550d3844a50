// The GPU backend's checks that need no GPU: the fork guard of the CUDA
// driver, the choice of image to load, the launcher's checks of a plan and
// of launch dimensions, and how library statuses map to error codes.
#include "backends/cuda/Internal.h"

#include <gtest/gtest.h>

#include <unistd.h>

using namespace cc;
using namespace cc::cudabackend;

namespace {

TEST(GpuDriver, AnInitialisedDriverIsRefusedInAForkedChild) {
  Driver d{};
  d.pid = getpid();
  d.initialised = true;
  EXPECT_EQ(inheritedDriverError(d, getpid()), "");
  std::string why = inheritedDriverError(d, getpid() + 1);
  EXPECT_NE(why.find("cannot be used after fork()"), std::string::npos) << why;
  EXPECT_NE(why.find(std::to_string(getpid())), std::string::npos) << why;
  // A parent that never called cuInit (no driver library) leaves nothing
  // unsafe behind: the child loads the driver itself.
  d.initialised = false;
  EXPECT_EQ(inheritedDriverError(d, getpid() + 1), "");
}

// gpuUnavailableReason asks a child: this process, which forks workers
// that use the GPU, never loads the driver itself.
TEST(GpuDriver, AskingWhetherAGpuIsThereLeavesCudaAlone) {
  std::string why = gpuUnavailableReason();
  EXPECT_FALSE(driverLoaded());
  EXPECT_EQ(probeDriverInChild(), why);
  EXPECT_EQ(gpuUnavailableReason(), why);
  EXPECT_FALSE(driverLoaded());
}

GpuModule twoArchitectures(bool withCubins) {
  GpuModule m;
  m.name = "k";
  m.arch = {"sm_80", "sm_90"};
  m.ptx = {"ptx80", "ptx90"};
  if (withCubins)
    m.cubin = {"cubin80", "cubin90"};
  return m;
}

void expectChoice(const GpuModule &m, int deviceArch, int index, bool cubin) {
  ArchChoice c = pickArch(m, deviceArch);
  EXPECT_EQ(c.index, index) << "sm_" << deviceArch;
  EXPECT_EQ(c.cubin, cubin) << "sm_" << deviceArch;
}

TEST(GpuLauncher, PicksACubinOfTheDevicesMajorArchitectureElsePtx) {
  GpuModule m = twoArchitectures(true);
  expectChoice(m, 80, 0, true);
  expectChoice(m, 86, 0, true); // sm_80's cubin runs on sm_86 and sm_89
  expectChoice(m, 89, 0, true);
  expectChoice(m, 90, 1, true);
  expectChoice(m, 100, 1, false); // no cubin of major 10: sm_90's PTX
  expectChoice(m, 75, -1, false);
  GpuModule ptxOnly = twoArchitectures(false);
  expectChoice(ptxOnly, 86, 0, false);
  expectChoice(ptxOnly, 90, 1, false);
  // Without sm_90's cubin the sm_90 device gets sm_90's PTX, not sm_80's
  // cubin (a cubin runs only on its own major architecture).
  m.cubin[1].clear();
  expectChoice(m, 90, 1, false);
}

TEST(GpuLauncher, ADriverThatCannotLoadTheToolkitsOutputIsUnsupported) {
  for (CUresult r : {209, 221, 222}) // no binary, no JIT, PTX too new
    EXPECT_EQ(moduleLoadErrorCode(r), ErrorCode::Unsupported) << r;
  for (CUresult r : {200, 218}) // invalid image, invalid PTX
    EXPECT_EQ(moduleLoadErrorCode(r), ErrorCode::CompilerFailure) << r;
}

// One f32[3] input, one f32[1] output.
GpuPlan onePlan() {
  GpuPlan plan;
  plan.numInputs = 1;
  plan.numOutputs = 1;
  GpuBuffer in, out;
  in.kind = out.kind = GpuBuffer::Argument;
  in.argument = 0;
  out.argument = 1;
  in.elementBytes = out.elementBytes = 4;
  in.bytes = 12;
  out.bytes = 4;
  plan.buffers = {in, out};
  return plan;
}

void expectPlanError(const GpuPlan &plan, const Inputs &inputs,
                     const std::vector<TensorType> &outputs,
                     const std::string &message) {
  Error e = checkPlanArguments(plan, inputs, outputs);
  ASSERT_TRUE(e) << message;
  EXPECT_EQ(e.code(), ErrorCode::None);
  EXPECT_NE(e.message().find(message), std::string::npos) << e.message();
}

TEST(GpuLauncher, InputsAndOutputsMustMatchThePlanBeforeUploading) {
  GpuPlan plan = onePlan();
  TensorType f32x1{DType::f32, {1}}, f32x2{DType::f32, {2}};
  Tensor three(DType::f32, {3}), two(DType::f32, {2});
  EXPECT_FALSE(checkPlanArguments(plan, {three}, {f32x1}));
  expectPlanError(plan, {two}, {f32x1},
                  "input 0 has 12 bytes on the GPU, 8 given");
  expectPlanError(plan, {three}, {f32x2},
                  "output 0 has 4 bytes on the GPU, 8 expected");
  expectPlanError(plan, {three}, {f32x1, f32x1},
                  "takes 1 inputs and 1 outputs, the run has 1 and 2");
  expectPlanError(plan, {}, {f32x1}, "the run has 0 and 1");
  plan.buffers.pop_back();
  expectPlanError(plan, {three}, {f32x1}, "no argument buffer for output 0");
}

Error launchWith(std::vector<int64_t> grid, std::vector<int64_t> block) {
  GpuStep s;
  s.kernel = "main_kernel";
  for (int d = 0; d < 3; ++d) {
    s.grid[d] = grid[size_t(d)];
    s.block[d] = block[size_t(d)];
  }
  return checkLaunchDims(s, "main_kernel_0");
}

TEST(GpuLauncher, LaunchesOverCudasLimitsAreCompilerFindings) {
  constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
  EXPECT_FALSE(launchWith({1, 1, 1}, {1, 1, 1}));
  EXPECT_FALSE(launchWith({kMaxGridX, 65535, 65535}, {1024, 1, 1}));
  EXPECT_FALSE(launchWith({1, 1, 1}, {16, 16, 4}));
  Error e = launchWith({kMaxGridX + 1, 1, 1}, {128, 1, 1});
  ASSERT_TRUE(e);
  EXPECT_EQ(e.code(), ErrorCode::CompilerFailure);
  EXPECT_NE(e.message().find("kernel @main_kernel_0::main_kernel is launched "
                             "with grid (2147483648, 1, 1) and block "
                             "(128, 1, 1): grid x"),
            std::string::npos)
      << e.message();
  struct Case {
    std::vector<int64_t> grid, block;
    const char *why;
  } cases[] = {{{1, 65536, 1}, {1, 1, 1}, "grid y"},
               {{1, 1, 65536}, {1, 1, 1}, "grid z"},
               {{0, 1, 1}, {1, 1, 1}, "grid x"},
               {{-1, 1, 1}, {1, 1, 1}, "grid x"},
               {{1, 1, 1}, {1025, 1, 1}, "block x"},
               {{1, 1, 1}, {1, 1, 65}, "block z"},
               {{1, 1, 1}, {1, 1, int64_t(1) << 32}, "block z"},
               {{1, 1, 1}, {32, 32, 2}, "more than 1024 threads per block"}};
  for (const Case &c : cases) {
    Error f = launchWith(c.grid, c.block);
    ASSERT_TRUE(f) << c.why;
    EXPECT_EQ(f.code(), ErrorCode::CompilerFailure);
    EXPECT_NE(f.message().find(c.why), std::string::npos) << f.message();
  }
}

TEST(CudnnReference, NotSupportedStatusesAreUnsupported) {
  auto dnn = [](int status, size_t version) {
    return cudnnErrorCode(status, version);
  };
  constexpr size_t kCudnn9 = 90100, kCudnn8 = 8907;
  for (int status : {3000, 3001, 3007, 3014})
    EXPECT_EQ(dnn(status, kCudnn9), ErrorCode::Unsupported) << status;
  for (int status : {9, 2000, 2002, 4000, 5000})
    EXPECT_EQ(dnn(status, kCudnn9), ErrorCode::None) << status;
  EXPECT_EQ(dnn(9, kCudnn8), ErrorCode::Unsupported);
  EXPECT_EQ(dnn(3000, kCudnn8), ErrorCode::None);
  EXPECT_EQ(cublasErrorCode(15), ErrorCode::Unsupported);
  for (int status : {1, 7, 13, 14})
    EXPECT_EQ(cublasErrorCode(status), ErrorCode::None) << status;
}

} // namespace
