// Parsing, lowering and JIT execution with MLIR. The only translation unit
// of the backend that includes MLIR headers (they cost 10-30 s each).
#include "backends/mlir/Coverage.h"
#include "backends/mlir/MlirBackend.h"
#include "backends/mlir/MlirSupport.h"
#include "process/Sandbox.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <optional>
#include <unistd.h>

namespace cc::mlirbackend {

// MLIR's runtime library: where the build found it, else (a fuzz target
// shipped to ClusterFuzzLite/OSS-Fuzz with its libraries) lib/ beside the
// executable, or $CC_MLIR_RUNNER_UTILS.
namespace {
const std::string &runnerUtils() {
  static const std::string path = [] {
    if (const char *env = std::getenv("CC_MLIR_RUNNER_UTILS"); env && *env)
      return std::string(env);
    if (access(CC_MLIR_C_RUNNER_UTILS, R_OK) == 0)
      return std::string(CC_MLIR_C_RUNNER_UTILS);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    std::string dir = n > 0 ? std::string(self, size_t(n)) : "";
    dir = dir.substr(0, dir.rfind('/'));
    std::string beside = dir + "/lib/libmlir_c_runner_utils.so";
    return access(beside.c_str(), R_OK) == 0
               ? beside
               : std::string(CC_MLIR_C_RUNNER_UTILS);
  }();
  return path;
}

std::string runnerUtilsFile() {
  const std::string &path = runnerUtils();
  return path.substr(path.rfind('/') + 1);
}
} // namespace

void initializeMlir() {
  static const bool done = [] {
    mlir::registerAllPasses();
    registerStraightPasses();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // For checkExternalSymbols: this process (libm, libc) and the runtime.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(runnerUtils().c_str());
    return true;
  }();
  (void)done;
}

namespace {
using Clock = std::chrono::steady_clock;

// Remembers the first pass that failed, and whether it left IR that fails
// the verifier (the pass manager's verifier after a pass fails the pass
// too) or signalled failure itself.
struct FailedPassRecorder : public mlir::PassInstrumentation {
  std::string *failed;
  bool *invalidIr;
  FailedPassRecorder(std::string *f, bool *invalid)
      : failed(f), invalidIr(invalid) {}
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    if (!failed->empty())
      return;
    *failed = pass->getArgument().empty() ? pass->getName().str()
                                          : pass->getArgument().str();
    // Verified again quietly: its diagnostics were reported once already.
    mlir::ScopedDiagnosticHandler quiet(
        op->getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    *invalidIr = mlir::failed(mlir::verify(op));
  }
};

// Reports each pass as the current stage ("pass NAME"); nested pass
// managers run in a stack discipline (threading is disabled).
class StageReporter : public mlir::PassInstrumentation {
public:
  explicit StageReporter(void (*onStage)(const char *)) : onStage(onStage) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    stack.push_back("pass " + (pass->getArgument().empty()
                                   ? pass->getName().str()
                                   : pass->getArgument().str()));
    onStage(stack.back().c_str());
  }
  void runAfterPass(mlir::Pass *, mlir::Operation *) override { pop(); }
  void runAfterPassFailed(mlir::Pass *, mlir::Operation *) override { pop(); }

private:
  void pop() {
    stack.pop_back();
    onStage(stack.empty() ? "lower" : stack.back().c_str());
  }
  void (*onStage)(const char *);
  std::vector<std::string> stack;
};
} // namespace

std::unique_ptr<mlir::MLIRContext>
makeContext(void (*extend)(mlir::DialectRegistry &)) {
  initializeMlir();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  if (extend)
    extend(registry);
  // One context per run; threads would only compete with campaign workers.
  auto ctx = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  ctx->allowUnregisteredDialects(false);
  return ctx;
}

void reportStage(const LowerRequest &req, const char *stage) {
  if (req.onStage)
    req.onStage(stage);
}

Error completionFailure(const LowerRequest &req, const std::string &how,
                        const std::string &detail) {
  return Error::failure("crosscheck's completing lowering " + how + " on the " +
                            req.originName +
                            " (crosscheck's problem, not a finding)" + detail,
                        ErrorCode::Unsupported);
}

namespace {

// Pipelines may omit the outer "builtin.module(...)".
const char *const kAnchor = "builtin.module(";

// The parser's first line, "<name>:1:COL: error: MSG", as "MSG (at column
// COL)" relative to the user's text; the rest repeats the pipeline.
std::string parserMessage(const std::string &err, size_t shift) {
  std::string first = err.substr(0, err.find('\n'));
  size_t colon = first.find(":1:");
  size_t marker = first.find(": error: ");
  if (colon == std::string::npos || marker == std::string::npos ||
      marker < colon)
    return first;
  long column = std::atol(first.c_str() + colon + 3) - long(shift);
  return first.substr(marker + 9) + " (at column " +
         std::to_string(std::max(column, 1L)) + ")";
}

} // namespace

Error parsePipelineInto(const std::string &pipeline, mlir::PassManager &pm) {
  bool wrap = pipeline.rfind(kAnchor, 0) != 0;
  std::string text = wrap ? kAnchor + pipeline + ")" : pipeline;
  std::string err;
  llvm::raw_string_ostream os(err);
  mlir::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline(text, os);
  if (mlir::failed(parsed))
    return makeError("invalid pass pipeline '" + pipeline +
                     "': " + parserMessage(err, wrap ? strlen(kAnchor) : 0));
  if (parsed->getOpAnchorName() != mlir::ModuleOp::getOperationName())
    return makeError("invalid pass pipeline '" + pipeline +
                     "': it must run on builtin.module");
  static_cast<mlir::OpPassManager &>(pm) = *parsed;
  return Error::success();
}

Error compilerFailure(const std::string &msg) {
  return compilerFault(msg, CompilerFault::Kind::Failed);
}

namespace {

// A memref descriptor as the C interface expects it:
// {allocated, aligned, offset, sizes[rank], strides[rank]}.
std::vector<int64_t> descriptor(void *data, const Shape &shape) {
  std::vector<int64_t> d(3 + 2 * shape.size());
  d[0] = d[1] = int64_t(reinterpret_cast<intptr_t>(data));
  d[2] = 0;
  std::vector<int64_t> strides = rowMajorStrides(shape);
  for (size_t i = 0; i < shape.size(); ++i) {
    d[3 + i] = shape[i];
    d[3 + shape.size() + i] = strides[i];
  }
  return d;
}

Error checkSignature(mlir::ModuleOp module, const std::string &ciface,
                     size_t expectedArgs) {
  auto fn = llvm::dyn_cast_or_null<mlir::FunctionOpInterface>(
      mlir::SymbolTable::lookupSymbolIn(module, ciface));
  if (!fn)
    return makeError("the lowered module has no @" + ciface +
                     " (does the pipeline lower func.func to the LLVM "
                     "dialect?)");
  if (fn.getNumArguments() != expectedArgs)
    return makeError("after lowering, @" + ciface + " takes " +
                     std::to_string(fn.getNumArguments()) +
                     " arguments; expected " + std::to_string(expectedArgs) +
                     " (inputs, then outputs as memref out-params: does the "
                     "pipeline run buffer-results-to-out-params?)");
  // Returned memrefs also make a C interface with one pointer per result
  // (written by the callee), which has the same arity: only a function that
  // returns nothing writes into the buffers crosscheck passes.
  auto impl = llvm::dyn_cast_or_null<mlir::FunctionOpInterface>(
      mlir::SymbolTable::lookupSymbolIn(
          module, ciface.substr(std::string("_mlir_ciface_").size())));
  if (impl && impl.getNumResults() != 0)
    return makeError("after lowering, @" + ciface.substr(13) +
                     " returns its results instead of writing them to "
                     "memref out-params (does the pipeline run "
                     "buffer-results-to-out-params?)");
  return Error::success();
}

} // namespace

std::string str(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

// Tensor-typed arguments and results must match what we pass and read back
// (an external compiler may already have bufferized them: not checked).
Error checkTypes(mlir::Operation *op, const Inputs &inputs,
                 const std::vector<TensorType> &resultTypes) {
  auto fn = llvm::dyn_cast<mlir::FunctionOpInterface>(op);
  if (!fn)
    return makeError("@" + mlir::SymbolTable::getSymbolName(op).str() +
                     " is not a function");
  if (fn.getNumArguments() != inputs.size() ||
      fn.getNumResults() != resultTypes.size())
    return makeError("@" + fn.getName().str() + " has " +
                     std::to_string(fn.getNumArguments()) + " arguments and " +
                     std::to_string(fn.getNumResults()) + " results; given " +
                     std::to_string(inputs.size()) + " inputs and " +
                     std::to_string(resultTypes.size()) + " result types");
  auto mismatch = [&](const char *what, size_t i, mlir::Type actual,
                      const TensorType &expected) -> Error {
    std::string a = str(actual);
    if (a.rfind("tensor<", 0) != 0 || a == expected.mlir())
      return Error::success();
    return makeError(std::string(what) + " " + std::to_string(i) + " of @" +
                     fn.getName().str() + " is " + a + ", expected " +
                     expected.mlir());
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(mismatch("argument", i, fn.getArgumentTypes()[i], inputs[i].type()));
  for (size_t i = 0; i < resultTypes.size(); ++i)
    CC_TRY(mismatch("result", i, fn.getResultTypes()[i], resultTypes[i]));
  return Error::success();
}

namespace {

// Functions the lowered module declares must exist in this process or the
// runtime library; otherwise ORC would print its own error to stderr.
Error checkExternalSymbols(mlir::ModuleOp module) {
  std::string missing;
  module.walk([&](mlir::FunctionOpInterface fn) {
    std::string name = fn.getName().str();
    if (fn.isExternal() &&
        !llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name))
      missing += (missing.empty() ? "" : ", ") + name;
  });
  if (missing.empty())
    return Error::success();
  return compilerFailure("the lowered module calls functions that exist "
                         "neither in libc/libm nor in MLIR's runtime: " +
                         missing);
}

// The C library functions lowered code may call: memory, and what a failed
// cf.assert calls (puts, abort); nothing else.
bool allowedLibcFunction(llvm::StringRef name) {
  static const llvm::StringSet<> kLibc = {
      "malloc",  "free",           "aligned_alloc", "calloc",
      "realloc", "memcpy",         "memmove",       "memset",
      "memcmp",  "posix_memalign", "puts",          "abort"};
  return kLibc.contains(name);
}

// The file name of the library that defines the code at `address`.
std::string libraryOf(void *address) {
  Dl_info info;
  if (!address || !dladdr(address, &info) || !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  return path.substr(path.rfind('/') + 1);
}

// Why the lowered module may not be run, or "": each function it declares
// is a math function of libm, a utility of MLIR's runtime library or a
// memory function of libc (docs/SECURITY.md); it has no inline assembly
// and no external data.
std::string refusedReference(mlir::ModuleOp module) {
  std::string why;
  module.walk([&](mlir::Operation *op) {
    if (!why.empty())
      return mlir::WalkResult::interrupt();
    auto fn = mlir::dyn_cast<mlir::FunctionOpInterface>(op);
    if (fn && fn.isExternal()) {
      llvm::StringRef name = fn.getName();
      std::string lib = libraryOf(
          llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name.str()));
      if (!allowedLibcFunction(name) && !lib.starts_with("libm.so") &&
          lib != runnerUtilsFile())
        why = "it calls @" + name.str() + ", which is not a math function " +
              "of libm, a utility of MLIR's runtime or a memory function";
    } else if (op->getName().getStringRef() == "llvm.inline_asm") {
      why = "it holds inline assembly";
    } else if (auto g = mlir::dyn_cast<mlir::LLVM::GlobalOp>(op);
               g && !g.getValueAttr() && g.getInitializer().empty() &&
               (g.getLinkage() == mlir::LLVM::Linkage::External ||
                g.getLinkage() == mlir::LLVM::Linkage::ExternWeak)) {
      why = "it refers to external data @" + g.getSymName().str();
    }
    return mlir::WalkResult::advance();
  });
  return why;
}

// Lowered code runs only when it calls nothing but the runtime it needs
// (docs/SECURITY.md): a program from a file cannot call system().
Error checkAllowedReferences(mlir::ModuleOp module) {
  std::string why = refusedReference(module);
  if (why.empty())
    return Error::success();
  return Error::failure("not run: " + why, ErrorCode::Unsupported);
}

llvm::CodeGenOptLevel codeGenLevel(int level) {
  switch (level) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

std::string takeLlvmError(llvm::Error e) {
  return llvm::toString(std::move(e));
}

// MLIR 22's ExecutionEngine::create ignores jitCodeGenOptLevel: it sets the
// level on a builder after it has made its TargetMachine at the default
// level (-O2), so code generation ran at -O2 for every pipeline. The
// TargetMachine is made here at the pipeline's level, with fast instruction
// selection at -O0 as clang and llc use it.
Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine(int level) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return makeError("JIT: cannot describe the host: " +
                     takeLlvmError(builder.takeError()));
  builder->setCodeGenOptLevel(codeGenLevel(level));
  // x86's f32 -> bf16 conversion instructions flush denormals to zero,
  // which LLVM's default floating-point environment does not allow (known
  // upstream: LLVM PR #221052, open), so results would depend on the host:
  // bf16 conversions are done in software instead.
  if (builder->getTargetTriple().isX86())
    for (const char *feature : {"avx512bf16", "avxneconvert"})
      builder->getFeatures().AddFeature(feature, false);
  auto tm = builder->createTargetMachine();
  if (!tm)
    return makeError("JIT: cannot make a target machine: " +
                     takeLlvmError(tm.takeError()));
  if (level == 0)
    (*tm)->setO0WantsFastISel(true);
  return std::move(*tm);
}

} // namespace

// Parses (without verifying) MLIR text into a module.
Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &ctx, DiagnosticCapture &diags,
            const std::string &text, const std::string &what) {
  CC_TRY(checkMlirNesting(text, "the " + what));
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, what);
  if (!module)
    return makeError("cannot parse the " + what + ": " + diags.take());
  return module;
}

Error runPipeline(mlir::ModuleOp module, const LowerRequest &req,
                  DiagnosticCapture &diags, PassCoverage *coverage) {
  mlir::MLIRContext *ctx = module.getContext();
  mlir::PassManager pm(ctx, mlir::ModuleOp::getOperationName());
  CC_TRY(parsePipelineInto(req.pipeline, pm));
  std::string failedPass;
  bool invalidIr = false;
  pm.addInstrumentation(
      std::make_unique<FailedPassRecorder>(&failedPass, &invalidIr));
  if (req.onStage)
    pm.addInstrumentation(std::make_unique<StageReporter>(req.onStage));
  std::optional<CoverageRecorder> recorder;
  if (coverage)
    recorder.emplace(*ctx, pm, coverage);
  mlir::LogicalResult lowered = pm.run(module);
  recorder.reset();
  if (mlir::failed(lowered)) {
    CompilerFault fault;
    fault.kind = invalidIr ? CompilerFault::Kind::VerifierFailed
                           : CompilerFault::Kind::PassFailed;
    fault.stage = failedPass.empty() ? "pipeline" : failedPass;
    fault.diagnostic = diags.take();
    if (req.origin == Origin::External)
      return completionFailure(req, "failed in pass " + fault.stage,
                               ": " + fault.diagnostic);
    std::string message = "pass " + fault.stage + " failed on the " +
                          req.originName + ": " + fault.diagnostic;
    return compilerFault(std::move(message), std::move(fault));
  }
  return Error::success();
}

// Parses and verifies the module and checks that it defines the function.
// A compiler's output that fails here (garbage, nothing at all, the graph's
// function gone) is the compiler's failure: a broken compiler must never
// pass as "skipped". Another signature may be a legitimate lowering that
// the runner cannot call, so checkTypes stays a plain error.
Expected<mlir::OwningOpRef<mlir::ModuleOp>>
loadModule(mlir::MLIRContext &ctx, DiagnosticCapture &diags,
           const LowerRequest &req, const Inputs &inputs,
           const std::vector<TensorType> &resultTypes) {
  // What failed, for the compiler's output: no program, or invalid IR.
  CompilerFault::Kind failed = CompilerFault::Kind::Failed;
  auto load = [&]() -> Expected<mlir::OwningOpRef<mlir::ModuleOp>> {
    if (req.module->find_first_not_of(" \t\r\n") == std::string::npos)
      return makeError("the " + req.originName + " is empty");
    CC_ASSIGN(module, parseModule(ctx, diags, *req.module, req.originName));
    if (mlir::failed(mlir::verify(*module))) {
      failed = CompilerFault::Kind::VerifierFailed;
      return makeError("the " + req.originName +
                       " fails the verifier: " + diags.take());
    }
    mlir::Operation *fn =
        mlir::SymbolTable::lookupSymbolIn(*module, req.funcName);
    if (!fn)
      return makeError("the " + req.originName + " has no function @" +
                       req.funcName);
    return std::move(module);
  };
  auto module = load();
  if (!module && req.origin == Origin::External)
    return compilerFault(module.error().message(), failed);
  if (module) {
    auto fn = mlir::SymbolTable::lookupSymbolIn(**module, req.funcName);
    CC_TRY(checkTypes(fn, inputs, resultTypes));
  }
  return module;
}

Error checkPipeline(const std::string &pipeline) {
  auto ctx = makeContext();
  DiagnosticCapture diags(*ctx);
  mlir::PassManager pm(ctx.get(), mlir::ModuleOp::getOperationName());
  return parsePipelineInto(pipeline, pm);
}

namespace {
// Calls the compiled function once on one input set.
Outputs execute(void (*entry)(void **), const Inputs &inputs,
                const std::vector<TensorType> &resultTypes) {
  // Inputs are copied: bufferized functions may write into their arguments.
  Inputs inputCopies = inputs;
  Outputs outputs;
  for (const TensorType &t : resultTypes)
    outputs.emplace_back(t);
  std::vector<std::vector<int64_t>> descriptors;
  for (Tensor &t : inputCopies)
    descriptors.push_back(descriptor(t.data(), t.shape()));
  for (Tensor &t : outputs)
    descriptors.push_back(descriptor(t.data(), t.shape()));
  // The packed wrapper takes one pointer per argument; each argument of the
  // C interface is a pointer to a descriptor.
  std::vector<void *> argValues, args;
  for (auto &d : descriptors)
    argValues.push_back(d.data());
  for (void *&v : argValues)
    args.push_back(&v);
  entry(args.data());
  return outputs;
}
} // namespace

Expected<Outputs> lowerAndRunSetsInProcess(
    const LowerRequest &req, const std::vector<TensorType> &resultTypes,
    const InputSets &sets, StageTimes *times, PassCoverage *coverage) {
  auto start = Clock::now();
  reportStage(req, "parse");
  auto ctx = makeContext();
  DiagnosticCapture diags(*ctx);

  CC_ASSIGN(module, loadModule(*ctx, diags, req, *sets.at(0), resultTypes));
  mlir::Operation *fn =
      mlir::SymbolTable::lookupSymbolIn(*module, req.funcName);
  // The JIT calls the function through its C interface wrapper.
  fn->setAttr("llvm.emit_c_interface", mlir::UnitAttr::get(ctx.get()));

  CC_TRY(runPipeline(*module, req, diags, coverage));
  addStageTime(times, "lower", start);

  start = Clock::now();
  reportStage(req, "jit");
  std::string ciface = "_mlir_ciface_" + req.funcName;
  CC_TRY(checkSignature(*module, ciface, sets[0]->size() + resultTypes.size()));
  CC_TRY(checkExternalSymbols(*module));
  CC_TRY(checkAllowedReferences(*module));
  mlir::ExecutionEngineOptions options;
  auto transformer =
      mlir::makeOptimizingTransformer(unsigned(req.llvmOptLevel), 0, nullptr);
  options.transformer = transformer;
  CC_ASSIGN(tm, targetMachine(req.llvmOptLevel));
  // memrefCopy and friends, called by copies between strided memrefs.
  llvm::StringRef runtimeLibs[] = {runnerUtils()};
  options.sharedLibPaths = runtimeLibs;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = mlir::ExecutionEngine::create(*module, options, std::move(tm));
  if (!engine)
    return compilerFailure(
        "JIT compilation failed: " + takeLlvmError(engine.takeError()) + " " +
        diags.take());
  auto entry = (*engine)->lookupPacked(ciface);
  if (!entry)
    return compilerFailure("JIT: cannot find @" + ciface + ": " +
                           takeLlvmError(entry.takeError()));
  addStageTime(times, "jit", start);

  start = Clock::now();
  if (req.sandboxed)
    CC_TRY(process::enterSandbox());
  reportStage(req, "execute");
  Outputs all;
  for (const Inputs *inputs : sets)
    for (Tensor &t : execute(*entry, *inputs, resultTypes))
      all.push_back(std::move(t));
  addStageTime(times, "execute", start);
  // A crash from here on is in tearing down the JIT and the module (heap
  // damage by the compiled code shows up here too), not in the code run.
  reportStage(req, "teardown");
  return all;
}

Expected<Outputs> lowerAndRunInProcess(
    const LowerRequest &req, const std::vector<TensorType> &resultTypes,
    const Inputs &inputs, StageTimes *times, PassCoverage *coverage) {
  return lowerAndRunSetsInProcess(req, resultTypes, {&inputs}, times, coverage);
}

} // namespace cc::mlirbackend

namespace cc {
Error verifyMlir(const std::string &text) {
  auto ctx = mlirbackend::makeContext();
  mlirbackend::DiagnosticCapture diags(*ctx);
  CC_ASSIGN(module, mlirbackend::parseModule(*ctx, diags, text, "module"));
  if (mlir::failed(mlir::verify(*module)))
    return makeError("the module fails the verifier: " + diags.take());
  return Error::success();
}
} // namespace cc
