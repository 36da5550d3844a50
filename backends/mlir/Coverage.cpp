// Pass and pattern coverage of the in-process pipeline (see Coverage.h).
#include "backends/mlir/Coverage.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Rewrite/PatternApplicator.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace cc::mlirbackend {

struct CoverageRecorder::State {
  PassCoverage *out;
  // Fingerprints of the ops the running passes started on (a stack:
  // nested pass managers, threading disabled).
  std::vector<mlir::OperationFingerPrint> before;
  std::string path; // passes that changed the IR, in order
  // Op counts of the scopes patterns ran in, measured once per pass run:
  // hashing a scope twice per pattern attempt is quadratic in its size.
  std::map<mlir::Operation *, size_t> scopeSizes;
};

namespace {

std::string passName(mlir::Pass *pass) {
  return pass->getArgument().empty() ? pass->getName().str()
                                     : pass->getArgument().str();
}

class PassChanges : public mlir::PassInstrumentation {
public:
  explicit PassChanges(std::shared_ptr<CoverageRecorder::State> s)
      : s(std::move(s)) {}
  void runBeforePass(mlir::Pass *, mlir::Operation *op) override {
    s->before.emplace_back(op);
    s->scopeSizes.clear();
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    if (s->before.empty())
      return;
    bool changed = s->before.back() != mlir::OperationFingerPrint(op);
    s->before.pop_back();
    // Adaptors only forward to nested pass managers whose passes are
    // recorded themselves.
    if (!changed || pass->getName().contains("OpToOpPassAdaptor"))
      return;
    std::string name = passName(pass);
    (*s->out)[{"pass", name}]++;
    s->path += name + ",";
  }
  void runAfterPassFailed(mlir::Pass *, mlir::Operation *) override {
    if (!s->before.empty())
      s->before.pop_back();
  }

private:
  std::shared_ptr<CoverageRecorder::State> s;
};

// A cheap hash of the IR under `root`: which ops, their attributes,
// operands and result types. Pointers suffice (attributes and types are
// uniqued). It runs twice per pattern attempt, so it is a plain
// multiply-xor over the pointers: a SHA-1 fingerprint, or even
// llvm::hash_combine, costs a large share of the lowering.
uint64_t irHash(mlir::Operation *root) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&h](const void *p) {
    h = (h ^ reinterpret_cast<uintptr_t>(p)) * 0x100000001b3ull;
    h ^= h >> 29;
  };
  root->walk([&](mlir::Operation *op) {
    mix(op);
    mix(op->getName().getAsOpaquePointer());
    mix(op->getRawDictionaryAttrs().getAsOpaquePointer());
    for (mlir::Value v : op->getOperands())
      mix(v.getAsOpaquePointer());
    for (mlir::Type t : op->getResultTypes())
      mix(t.getAsOpaquePointer());
    mix(reinterpret_cast<const void *>(uintptr_t(op->getNumRegions())));
  });
  return h;
}

// Above this many ops in a function, pattern firings are not recorded (the
// passes that changed it still are): real networks lower to tens of
// thousands of ops, and two hashes per pattern attempt made convert-to-llvm
// take minutes on them.
constexpr size_t kMaxPatternScopeOps = 4096;

// The op whose IR a pattern on `op` may change: its closest ancestor that is
// isolated from above (a function), which outlives the rewrite; the op
// itself when it is the top.
mlir::Operation *scopeOf(mlir::Operation *op) {
  for (mlir::Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (p->hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
      return p;
  return op;
}

} // namespace

// Printed as "`apply-pattern pattern: NAME".
std::string patternName(const mlir::tracing::Action &action) {
  std::string text;
  llvm::raw_string_ostream os(text);
  action.print(os);
  const std::string marker = "pattern: ";
  size_t at = text.find(marker);
  std::string name =
      at == std::string::npos ? text : text.substr(at + marker.size());
  return name.empty() ? "(unnamed pattern)" : name;
}

CoverageRecorder::CoverageRecorder(mlir::MLIRContext &ctx,
                                   mlir::PassManager &pm, PassCoverage *out)
    : ctx(ctx), state(std::make_shared<State>()) {
  state->out = out;
  pm.addInstrumentation(std::make_unique<PassChanges>(state));
  std::shared_ptr<State> s = state;
  ctx.registerActionHandler(
      [s](llvm::function_ref<void()> run, const mlir::tracing::Action &action) {
        auto *apply = llvm::dyn_cast<mlir::ApplyPatternAction>(&action);
        llvm::ArrayRef<mlir::IRUnit> units = action.getContextIRUnits();
        auto *op =
            units.empty()
                ? nullptr
                : llvm::dyn_cast_if_present<mlir::Operation *>(units.front());
        if (!apply || !op) {
          run();
          return;
        }
        mlir::Operation *scope = scopeOf(op);
        auto [size, fresh] = s->scopeSizes.try_emplace(scope, 0);
        if (fresh)
          scope->walk([&](mlir::Operation *) { ++size->second; });
        if (size->second > kMaxPatternScopeOps) { // the pass is still recorded
          run();
          return;
        }
        uint64_t before = irHash(scope);
        run();
        if (irHash(scope) != before)
          (*s->out)[{"pattern", patternName(action)}]++;
      });
}

CoverageRecorder::~CoverageRecorder() {
  ctx.registerActionHandler(nullptr);
  if (state->path.empty())
    return;
  // FNV-1a: the same name in every process (llvm::hash_value may be seeded).
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : state->path)
    h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  (*state->out)[{"path", hex}]++;
}

} // namespace cc::mlirbackend
