// Lowering to PTX in process and reading the host function into a GpuPlan.
// The only translation unit of the GPU backend that includes MLIR headers.
#include "backends/cuda/Cuda.h"
#include "backends/cuda/Internal.h"
#include "backends/mlir/MlirSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include <chrono>
#include <cstring>
#include <map>
#include <optional>

namespace cc::cudabackend {

using mlirbackend::compilerFailure;
using mlirbackend::reportStage;

namespace {

// Ops that stay on the host and the launcher replays; everything else at
// the top of the function is computation.
bool isHostOp(mlir::Operation *op) {
  return llvm::isa<mlir::arith::ConstantOp, mlir::memref::AllocOp,
                   mlir::memref::AllocaOp, mlir::memref::GetGlobalOp,
                   mlir::memref::SubViewOp, mlir::memref::ExpandShapeOp,
                   mlir::memref::CollapseShapeOp, mlir::memref::CastOp,
                   mlir::memref::ReinterpretCastOp, mlir::memref::CopyOp,
                   mlir::memref::DeallocOp, mlir::scf::ParallelOp,
                   mlir::func::ReturnOp>(op);
}

// Computation left at the top of a function after linalg became parallel
// loops (a rank-0 linalg op, a loop nest with only reduction iterators)
// would run on the host, on device memory. This wraps each run of it in a
// one-iteration scf.parallel, so that it becomes a single-thread kernel.
struct WrapSerialCode
    : public mlir::PassWrapper<WrapSerialCode,
                               mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WrapSerialCode)
  llvm::StringRef getArgument() const final { return "cc-wrap-serial-code"; }
  llvm::StringRef getDescription() const final {
    return "wrap host-level computation in one-iteration scf.parallel loops";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::scf::SCFDialect, mlir::arith::ArithDialect>();
  }

  void runOnOperation() override {
    for (mlir::Block &block : getOperation().getBody()) {
      std::vector<std::vector<mlir::Operation *>> runs(1);
      for (mlir::Operation &op : block) {
        if (isHostOp(&op)) {
          if (!runs.back().empty())
            runs.emplace_back();
        } else {
          runs.back().push_back(&op);
        }
      }
      for (auto &run : runs)
        if (!run.empty() && !escapes(block, run))
          wrap(run);
    }
  }

  // A value of the run used after it (by a host op) cannot move into a loop.
  static bool escapes(mlir::Block &block,
                      const std::vector<mlir::Operation *> &run) {
    llvm::SmallPtrSet<mlir::Operation *, 16> inRun(run.begin(), run.end());
    for (mlir::Operation *op : run)
      for (mlir::Operation *user : op->getUsers())
        if (!inRun.contains(block.findAncestorOpInBlock(*user)))
          return true;
    return false;
  }

  static void wrap(const std::vector<mlir::Operation *> &run) {
    mlir::OpBuilder b(run.front());
    mlir::Location loc = run.front()->getLoc();
    mlir::Value zero = mlir::arith::ConstantIndexOp::create(b, loc, 0);
    mlir::Value one = mlir::arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = mlir::scf::ParallelOp::create(b, loc, mlir::ValueRange{zero},
                                              mlir::ValueRange{one},
                                              mlir::ValueRange{one});
    mlir::Operation *terminator = loop.getBody()->getTerminator();
    for (mlir::Operation *op : run)
      op->moveBefore(terminator);
  }
};

void registerGpuTranslations(mlir::DialectRegistry &registry) {
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

using mlirbackend::str;

std::string opName(mlir::Operation *op) {
  return op->getName().getStringRef().str();
}

int64_t elementBytes(mlir::Type t) {
  if (t.isIndex())
    return 8;
  return (int64_t(t.getIntOrFloatBitWidth()) + 7) / 8;
}

// The bytes of a memref.global's initial value, as LLVM lays them out
// (i1 one byte per element; a splat repeated).
Expected<std::vector<uint8_t>> globalBytes(mlir::memref::GlobalOp global) {
  auto dense = llvm::dyn_cast_or_null<mlir::DenseElementsAttr>(
      global.getInitialValueAttr());
  if (!dense)
    return Error::failure("memref.global @" + global.getSymName().str() +
                              " has no dense initial value",
                          ErrorCode::Unsupported);
  mlir::MemRefType type = global.getType();
  int64_t count = type.getNumElements();
  int64_t width = elementBytes(type.getElementType());
  std::vector<uint8_t> bytes(size_t(count * width));
  if (type.getElementType().isInteger(1)) {
    size_t i = 0;
    for (bool v : dense.getValues<bool>())
      bytes[i++] = v;
    return bytes;
  }
  llvm::ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(bytes.data() + i * width, raw.data(), size_t(width));
  } else {
    std::memcpy(bytes.data(), raw.data(), bytes.size());
  }
  return bytes;
}

// Reads the host function into a plan: values are buffer views or scalar
// constants.
class PlanBuilder {
public:
  PlanBuilder(mlir::ModuleOp module, GpuPlan &plan)
      : module(module), plan(plan) {}

  Error build(mlir::func::FuncOp fn, size_t numInputs) {
    plan.numInputs = numInputs;
    plan.numOutputs = fn.getNumArguments() - numInputs;
    for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
      auto type = llvm::dyn_cast<mlir::MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape())
        return unsupported("argument " + std::to_string(i) + " of type " +
                           str(arg.getType()));
      GpuBuffer b;
      b.kind = GpuBuffer::Argument;
      b.argument = int(i);
      CC_TRY(addBuffer(arg, type, std::move(b)));
    }
    CC_TRY(readModules());
    for (mlir::Operation &op : fn.getBody().front())
      CC_TRY(step(&op));
    return Error::success();
  }

private:
  static Error unsupported(const std::string &what) {
    return Error::failure("the GPU launcher cannot replay " + what,
                          ErrorCode::Unsupported);
  }

  Error readModules() {
    for (auto binary : module.getOps<mlir::gpu::BinaryOp>()) {
      GpuModule m;
      m.name = binary.getSymName().str();
      for (mlir::Attribute a : binary.getObjectsAttr()) {
        auto object = llvm::cast<mlir::gpu::ObjectAttr>(a);
        auto target =
            llvm::dyn_cast<mlir::NVVM::NVVMTargetAttr>(object.getTarget());
        if (!target ||
            object.getFormat() != mlir::gpu::CompilationTarget::Assembly)
          return unsupported("gpu.binary @" + m.name +
                             ": an object that is not NVVM assembly (PTX)");
        m.arch.push_back(target.getChip().str());
        m.ptx.push_back(object.getObject().str());
      }
      moduleIndex[m.name] = int(plan.modules.size());
      plan.modules.push_back(std::move(m));
    }
    return Error::success();
  }

  // A view of a fresh buffer, or of the buffer `base` with the static
  // layout of `type` (views of views compose in the type: its offset and
  // strides are relative to the allocation).
  Expected<GpuView> viewOf(mlir::MemRefType type, int buffer) {
    auto [strides, offset] = type.getStridesAndOffset();
    if (!type.hasStaticShape() || mlir::ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, mlir::ShapedType::isDynamic))
      return unsupported("a memref with a dynamic layout: " + str(type));
    GpuView v;
    v.buffer = buffer;
    v.offset = offset;
    v.sizes.assign(type.getShape().begin(), type.getShape().end());
    v.strides.assign(strides.begin(), strides.end());
    return v;
  }

  Error addBuffer(mlir::Value value, mlir::MemRefType type, GpuBuffer b) {
    b.elementBytes = elementBytes(type.getElementType());
    b.bytes = type.getNumElements() * b.elementBytes;
    plan.buffers.push_back(std::move(b));
    CC_ASSIGN(v, viewOf(type, int(plan.buffers.size()) - 1));
    views[value] = std::move(v);
    return Error::success();
  }

  // A view op: same buffer, the result type's layout.
  Error alias(mlir::Value source, mlir::Value result) {
    auto it = views.find(source);
    if (it == views.end())
      return unsupported("a view of a value that is not a buffer");
    CC_ASSIGN(v, viewOf(llvm::cast<mlir::MemRefType>(result.getType()),
                        it->second.buffer));
    views[result] = std::move(v);
    return Error::success();
  }

  Expected<int64_t> index(mlir::Value v) {
    auto it = scalars.find(v);
    if (it == scalars.end())
      return unsupported("a launch size that is not a constant");
    return int64_t(it->second.first);
  }

  Error step(mlir::Operation *op) {
    using namespace mlir;
    if (auto c = llvm::dyn_cast<arith::ConstantOp>(op)) {
      Attribute value = c.getValue();
      if (auto i = llvm::dyn_cast<IntegerAttr>(value))
        scalars[c] = {i.getValue().getZExtValue(),
                      int(elementBytes(c.getType()))};
      else if (auto f = llvm::dyn_cast<FloatAttr>(value))
        scalars[c] = {f.getValue().bitcastToAPInt().getZExtValue(),
                      int(elementBytes(c.getType()))};
      // Other constants (dense vectors) are only used inside kernels.
      return Error::success();
    }
    if (llvm::isa<memref::AllocOp, memref::AllocaOp>(op))
      return addBuffer(op->getResult(0),
                       llvm::cast<MemRefType>(op->getResult(0).getType()),
                       GpuBuffer{});
    if (auto get = llvm::dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          op, get.getNameAttr());
      if (!global)
        return unsupported("memref.get_global of a missing global");
      GpuBuffer b;
      b.kind = GpuBuffer::Global;
      CC_ASSIGN(bytes, globalBytes(global));
      b.init = std::move(bytes);
      return addBuffer(get, get.getType(), std::move(b));
    }
    if (llvm::isa<memref::SubViewOp, memref::ExpandShapeOp,
                  memref::CollapseShapeOp, memref::CastOp,
                  memref::ReinterpretCastOp>(op))
      return alias(op->getOperand(0), op->getResult(0));
    if (auto copy = llvm::dyn_cast<memref::CopyOp>(op)) {
      GpuStep s;
      s.kind = GpuStep::Copy;
      if (!views.count(copy.getSource()) || !views.count(copy.getTarget()))
        return unsupported("a memref.copy between values that are not buffers");
      s.from = views[copy.getSource()];
      s.to = views[copy.getTarget()];
      s.elementBytes = plan.buffers[size_t(s.from.buffer)].elementBytes;
      plan.steps.push_back(std::move(s));
      return Error::success();
    }
    if (auto launch = llvm::dyn_cast<gpu::LaunchFuncOp>(op))
      return addLaunch(launch);
    if (llvm::isa<memref::DeallocOp, func::ReturnOp>(op))
      return Error::success();
    return unsupported("the host op " + opName(op));
  }

  Error addLaunch(mlir::gpu::LaunchFuncOp launch) {
    GpuStep s;
    auto it = moduleIndex.find(launch.getKernelModuleName().str());
    if (it == moduleIndex.end())
      return unsupported("a launch of a kernel outside any gpu.binary");
    s.module = it->second;
    s.kernel = launch.getKernelName().str();
    mlir::Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                           launch.getGridSizeZ()};
    mlir::Value block[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                            launch.getBlockSizeZ()};
    for (int d = 0; d < 3; ++d) {
      CC_ASSIGN(g, index(grid[d]));
      CC_ASSIGN(b, index(block[d]));
      s.grid[d] = g;
      s.block[d] = b;
    }
    if (launch.getDynamicSharedMemorySize() || launch.hasClusterSize())
      return unsupported("a launch with shared memory or clusters");
    for (mlir::Value v : launch.getKernelOperands()) {
      GpuKernelArg a;
      if (auto view = views.find(v); view != views.end()) {
        a.isMemref = true;
        a.view = view->second;
      } else if (auto scalar = scalars.find(v); scalar != scalars.end()) {
        a.scalar = scalar->second.first;
        a.scalarBytes = scalar->second.second;
      } else {
        return unsupported("a kernel argument of type " + str(v.getType()) +
                           " that is neither a buffer nor a constant");
      }
      s.args.push_back(std::move(a));
    }
    plan.steps.push_back(std::move(s));
    return Error::success();
  }

  mlir::ModuleOp module;
  GpuPlan &plan;
  std::map<std::string, int> moduleIndex;
  llvm::DenseMap<mlir::Value, GpuView> views;
  llvm::DenseMap<mlir::Value, std::pair<uint64_t, int>> scalars;
};
} // namespace

void registerGpuPasses() {
  static const bool done = [] {
    mlirbackend::initializeMlir();
    mlir::PassRegistration<WrapSerialCode>();
    return true;
  }();
  (void)done;
}

Expected<GpuPlan> compile(const mlirbackend::LowerRequest &req,
                          StageTimes *times, PassCoverage *coverage) {
  auto start = std::chrono::steady_clock::now();
  registerGpuPasses();
  reportStage(req, "parse");
  auto ctx = mlirbackend::makeContext(registerGpuTranslations);
  mlirbackend::DiagnosticCapture diags(*ctx);
  CC_ASSIGN(module,
            mlirbackend::parseModule(*ctx, diags, *req.module, req.originName));
  if (mlir::failed(mlir::verify(*module)))
    return makeError("the " + req.originName +
                     " fails the verifier: " + diags.take());
  auto source = llvm::dyn_cast_or_null<mlir::func::FuncOp>(
      mlir::SymbolTable::lookupSymbolIn(*module, req.funcName));
  if (!source)
    return makeError("the " + req.originName + " has no func.func @" +
                     req.funcName);
  // Bufferization appends the results as out-params after these.
  size_t numInputs = source.getNumArguments();

  CC_TRY(mlirbackend::runPipeline(*module, req, diags, coverage));
  addStageTime(times, "lower", start);

  auto fn = mlir::SymbolTable::lookupSymbolIn(*module, req.funcName);
  auto func = llvm::dyn_cast_or_null<mlir::func::FuncOp>(fn);
  if (!func || func.isExternal() || func.getNumResults() != 0)
    return makeError("after lowering, @" + req.funcName +
                     " is not a func.func that writes its results to memref "
                     "out-params (does the pipeline bufferize and run "
                     "buffer-results-to-out-params?)");
  GpuPlan plan;
  CC_TRY(PlanBuilder(*module, plan).build(func, numInputs));
  return plan;
}

} // namespace cc::cudabackend

namespace cc {
Expected<GpuPlan> compileForGpu(const std::string &module,
                                const std::string &funcName,
                                const std::string &pipeline, StageTimes *times,
                                PassCoverage *coverage) {
  mlirbackend::LowerRequest req{&module,  mlirbackend::Origin::Crosscheck,
                                "module", funcName,
                                pipeline, 0};
  return cudabackend::compile(req, times, coverage);
}
} // namespace cc
