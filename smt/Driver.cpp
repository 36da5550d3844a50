// Drivers of the translation validator: parsing of source/target modules,
// per-pass validation through MLIR's pass instrumentation, and per-rewrite
// validation: canonicalize is stepped one rewrite at a time with a listener
// that names each pattern; every other greedy pattern pass is watched
// through MLIR's action framework, one pattern application at a time.
#include "backends/mlir/Coverage.h"
#include "smt/Internal.h"
#include "smt/OptHook.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>

namespace cc::smt {

using namespace mlir;

const char *verdictName(TvVerdict v) {
  switch (v) {
  case TvVerdict::Correct:
    return "correct";
  case TvVerdict::Incorrect:
    return "incorrect";
  case TvVerdict::Unknown:
    return "unknown";
  case TvVerdict::Timeout:
    return "timeout";
  case TvVerdict::Approximate:
    return "approximate";
  }
  return "unknown";
}

int verdictExitCode(TvVerdict v) {
  switch (v) {
  case TvVerdict::Correct:
    return 0;
  case TvVerdict::Incorrect:
    return 1;
  case TvVerdict::Unknown:
    return 3;
  case TvVerdict::Timeout:
    return 4;
  case TvVerdict::Approximate:
    return 5;
  }
  return 3;
}

TvVerdict worstVerdict(TvVerdict a, TvVerdict b) {
  auto rank = [](TvVerdict v) {
    return v == TvVerdict::Incorrect     ? 4
           : v == TvVerdict::Timeout     ? 3
           : v == TvVerdict::Unknown     ? 2
           : v == TvVerdict::Approximate ? 1
                                         : 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

std::unique_ptr<MLIRContext> makeContext() {
  static const bool passes = [] {
    registerAllPasses();
    return true;
  }();
  (void)passes;
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  auto ctx =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  // What mlir-opt reads with -allow-unregistered-dialect (ops of MLIR's
  // test dialect printed generically, a user's own dialect) is read; its
  // ops are uninterpreted (Encoder::opaqueOp).
  ctx->allowUnregisteredDialects(true);
  return ctx;
}

Expected<OwningOpRef<ModuleOp>> parseModule(MLIRContext &ctx,
                                            const std::string &text,
                                            const std::string &what,
                                            const std::string &file) {
  CC_TRY(checkMlirNesting(text, what));
  std::string diags;
  ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diags);
    if (auto at = dyn_cast<FileLineColLoc>(d.getLocation()))
      os << at.getFilename().getValue() << ":" << at.getLine() << ":"
         << at.getColumn();
    else
      os << d.getLocation();
    os << ": " << d.str() << "\n";
    return success();
  });
  auto m = parseSourceString<ModuleOp>(text, &ctx, file);
  if (!m) {
    while (!diags.empty() && diags.back() == '\n')
      diags.pop_back();
    return makeError(what + " is not valid MLIR: " + diags.substr(0, 2000));
  }
  return m;
}

namespace {

std::string printOp(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

std::map<std::string, func::FuncOp> functions(ModuleOp m) {
  std::map<std::string, func::FuncOp> r;
  m.walk([&](func::FuncOp f) {
    if (!f.isExternal())
      r[f.getSymName().str()] = f;
  });
  return r;
}

// Compares every function of `before` with its namesake in `after`;
// unchanged functions are skipped (cached).
class StepChecker {
public:
  StepChecker(const TvOptions &o, std::function<void(const StepCheck &)> cb)
      : opts(o), onCheck(std::move(cb)) {}

  void compare(ModuleOp before, ModuleOp after, const std::string &pass,
               const std::string &pattern) {
    auto fa = functions(before), fb = functions(after);
    for (auto &[name, f] : fa) {
      if (!opts.function.empty() && name != opts.function)
        continue;
      auto it = fb.find(name);
      if (it == fb.end())
        continue; // removed (inlined or dead): nothing to refine
      std::string ta = printOp(f), tb = printOp(it->second);
      if (ta == tb)
        continue;
      StepCheck s;
      s.pass = pass;
      s.pattern = pattern;
      s.function = name;
      std::string key = ta + "\n//--\n" + tb;
      if (auto c = seen.find(key); c != seen.end()) {
        s = c->second;
        s.pass = pass;
        s.pattern = pattern;
        s.cached = true;
        s.seconds = 0;
        onCheck(s);
        continue;
      }
      std::string mismatch = signatureMismatch(f, it->second);
      if (!mismatch.empty()) {
        s.verdict = TvVerdict::Unknown;
        s.reason = "signature changed: " + mismatch;
      } else {
        FunctionCheck fc = checkFunctionPair(f, it->second, opts);
        s.verdict = fc.verdict;
        s.reason = fc.reason;
        s.seconds = fc.seconds;
        s.counterexample = fc.counterexample;
      }
      if (s.verdict == TvVerdict::Incorrect) {
        s.before = ta;
        s.after = tb;
      }
      seen[key] = s;
      onCheck(s);
    }
  }

private:
  const TvOptions &opts;
  std::function<void(const StepCheck &)> onCheck;
  std::map<std::string, StepCheck> seen;
};

// Records the pattern that was applied (not the last one tried: a pattern
// that fails to match begins too).
struct PatternNamer : public RewriterBase::Listener {
  std::string name;
  void notifyPatternEnd(const Pattern &p, LogicalResult result) override {
    if (failed(result))
      return;
    name = p.getDebugName().str();
    if (name.empty())
      name = "pattern on " + (p.getRootKind()
                                  ? p.getRootKind()->getStringRef().str()
                                  : std::string("any op"));
  }
};

// Steps the canonicalization patterns one rewrite at a time on a copy of
// `module` (restricted to @funcName if given) and checks every step.
void stepCanonicalize(ModuleOp module, const std::string &funcName,
                      StepChecker &checker) {
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  FrozenRewritePatternSet frozen(std::move(patterns));
  FrozenRewritePatternSet none{RewritePatternSet(ctx)};
  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  for (int step = 0; step < 500; ++step) {
    OwningOpRef<ModuleOp> before(cast<ModuleOp>(work->clone()));
    Operation *target = *work;
    if (!funcName.empty())
      if (auto f = work->lookupSymbol<func::FuncOp>(funcName))
        target = f;
    // One pattern rewrite without folding; when no pattern applies, the
    // folders (which do not count as rewrites) run as their own step.
    PatternNamer namer;
    GreedyRewriteConfig cfg;
    cfg.setMaxNumRewrites(1);
    cfg.setListener(&namer);
    cfg.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    cfg.enableFolding(false);
    bool changed = false;
    (void)applyPatternsGreedily(target, frozen, cfg, &changed);
    if (!changed) {
      cfg.enableFolding(true);
      (void)applyPatternsGreedily(target, none, cfg, &changed);
      namer.name = "fold";
    }
    if (!changed)
      break;
    checker.compare(*before, *work, "canonicalize", namer.name);
  }
}

// Validates each pattern application of a greedy pattern pass while it runs.
// Only applications inside a greedy driver iteration are checked: in a
// dialect conversion the IR between two patterns is not a program yet.
class GreedyWatcher {
public:
  GreedyWatcher(MLIRContext *ctx, StepChecker &checker, std::string pass)
      : ctx(ctx) {
    ctx->registerActionHandler([this, &checker,
                                pass](function_ref<void()> run,
                                      const tracing::Action &action) {
      if (action.getTag() == "GreedyPatternRewriteIteration") {
        ++greedyDepth;
        run();
        --greedyDepth;
        return;
      }
      ArrayRef<IRUnit> units = action.getContextIRUnits();
      auto *op = units.empty()
                     ? nullptr
                     : llvm::dyn_cast_if_present<Operation *>(units.front());
      ModuleOp top = op ? topModule(op) : ModuleOp();
      if (!greedyDepth || !top || !isa<ApplyPatternAction>(action)) {
        run();
        return;
      }
      OwningOpRef<ModuleOp> before(cast<ModuleOp>(top->clone()));
      run();
      checker.compare(*before, top, pass, mlirbackend::patternName(action));
    });
  }
  ~GreedyWatcher() { ctx->registerActionHandler(nullptr); }

  static ModuleOp topModule(Operation *op) {
    ModuleOp m = dyn_cast<ModuleOp>(op);
    for (ModuleOp up = op->getParentOfType<ModuleOp>(); up;
         up = up->getParentOfType<ModuleOp>())
      m = up;
    return m;
  }

private:
  MLIRContext *ctx;
  int greedyDepth = 0;
};

class VerifyEach : public PassInstrumentation {
public:
  VerifyEach(const TvOptions &o, bool perRewrite,
             std::function<void(const StepCheck &)> cb)
      : checker(o, std::move(cb)), perRewrite(perRewrite) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    if (isAdaptor(pass))
      return;
    ModuleOp top = topModule(op);
    if (!top)
      return;
    snapshots.emplace_back(cast<ModuleOp>(top->clone()));
    if (!perRewrite)
      return;
    if (pass->getArgument() == "canonicalize") {
      auto f = dyn_cast<func::FuncOp>(op);
      stepCanonicalize(top, f ? f.getSymName().str() : "", checker);
    } else {
      watcher.emplace(op->getContext(), checker, passName(pass));
    }
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    if (isAdaptor(pass) || snapshots.empty())
      return;
    watcher.reset();
    OwningOpRef<ModuleOp> before = std::move(snapshots.back());
    snapshots.pop_back();
    if (ModuleOp top = topModule(op))
      checker.compare(*before, top, passName(pass), "");
  }
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (!isAdaptor(pass) && !snapshots.empty())
      snapshots.pop_back();
    watcher.reset();
  }

private:
  // Pass-manager adaptors (nesting) have no argument; real passes do.
  static bool isAdaptor(Pass *p) { return p->getArgument().empty(); }
  static std::string passName(Pass *p) {
    return p->getArgument().empty() ? p->getName().str()
                                    : p->getArgument().str();
  }
  static ModuleOp topModule(Operation *op) {
    return GreedyWatcher::topModule(op);
  }
  StepChecker checker;
  bool perRewrite;
  std::optional<GreedyWatcher> watcher;
  std::vector<OwningOpRef<ModuleOp>> snapshots;
};

} // namespace

void addVerifyEachInstrumentation(
    PassManager &pm, const TvOptions &o, bool perRewrite,
    std::function<void(const StepCheck &)> onCheck) {
  pm.addInstrumentation(
      std::make_unique<VerifyEach>(o, perRewrite, std::move(onCheck)));
}

Expected<std::vector<FunctionCheck>>
checkRefinement(const std::string &src, const std::string &tgt,
                const TvOptions &options, const RefinementProgress &progress) {
  auto ctx = makeContext();
  CC_ASSIGN(ms, parseModule(*ctx, src, "the source", options.sourceName));
  CC_ASSIGN(mt, parseModule(*ctx, tgt, "the target", options.targetName));
  auto fs = functions(*ms), ft = functions(*mt);
  if (!options.function.empty() && !ft.count(options.function))
    return makeError("the target has no function @" + options.function);
  std::vector<std::pair<std::string, std::pair<func::FuncOp, func::FuncOp>>>
      pairs;
  for (auto &[name, t] : ft) {
    if (!options.function.empty() && name != options.function)
      continue;
    auto it = fs.find(name);
    if (it == fs.end())
      return makeError("the source has no function @" + name +
                       " (the target's functions must be in the source)");
    std::string mismatch = signatureMismatch(it->second, t);
    if (!mismatch.empty())
      return makeError("mismatched signatures: " + mismatch);
    pairs.push_back({name, {it->second, t}});
  }
  if (pairs.empty())
    return makeError("the target has no function with a body");
  if (progress.planned) {
    std::vector<std::string> names;
    for (const auto &p : pairs)
      names.push_back(p.first);
    progress.planned(names);
  }
  std::vector<FunctionCheck> out;
  for (auto &[name, pair] : pairs) {
    out.push_back(checkFunctionPair(pair.first, pair.second, options));
    if (out.back().internalError)
      return makeError("@" + name + ": " + out.back().reason);
    if (progress.checked)
      progress.checked(out.back());
  }
  return out;
}

namespace {
// Parses a textual pipeline, with or without its builtin.module(...).
Error parsePipeline(const std::string &pipeline, PassManager &pm) {
  std::string text = pipeline;
  const std::string wrap = "builtin.module(";
  if (text.rfind(wrap, 0) == 0 && !text.empty() && text.back() == ')')
    text = text.substr(wrap.size(), text.size() - wrap.size() - 1);
  std::string err;
  llvm::raw_string_ostream es(err);
  if (failed(parsePassPipeline(text, pm, es)))
    return makeError("invalid --pass-pipeline '" + pipeline + "': " + err);
  return Error::success();
}

// Tells `onPass` the name of every pass about to run, and "" when it ends.
// Added after VerifyEach, so that its end comes before the pass is checked
// (MLIR runs runAfterPass hooks in reverse order).
struct PassAnnouncer : public PassInstrumentation {
  explicit PassAnnouncer(PassCallback cb) : onPass(std::move(cb)) {}
  void runBeforePass(Pass *pass, Operation *) override {
    if (!pass->getArgument().empty())
      onPass(pass->getArgument().str());
  }
  void runAfterPass(Pass *pass, Operation *) override {
    if (!pass->getArgument().empty())
      onPass("");
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    runAfterPass(pass, op);
  }
  PassCallback onPass;
};
} // namespace

Error checkPipelineInput(const std::string &module, const std::string &pipeline,
                         const TvOptions &options) {
  auto ctx = makeContext();
  if (auto m = parseModule(*ctx, module, "the input", options.sourceName); !m)
    return m.error();
  PassManager pm(ctx.get());
  return parsePipeline(pipeline, pm);
}

Expected<std::vector<StepCheck>>
verifyPipeline(const std::string &module, const std::string &pipeline,
               const TvOptions &options, bool perRewrite,
               const StepCallback &onStep, const PassCallback &onPass) {
  auto ctx = makeContext();
  CC_ASSIGN(m, parseModule(*ctx, module, "the input", options.sourceName));
  PassManager pm(ctx.get());
  CC_TRY(parsePipeline(pipeline, pm));
  std::vector<StepCheck> out;
  addVerifyEachInstrumentation(pm, options, perRewrite,
                               [&](const StepCheck &s) {
                                 out.push_back(s);
                                 if (onStep)
                                   onStep(s);
                               });
  if (onPass)
    pm.addInstrumentation(std::make_unique<PassAnnouncer>(onPass));
  std::string diags;
  ScopedDiagnosticHandler h(ctx.get(), [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diags);
    os << d.str() << "\n";
    return success();
  });
  if (failed(pm.run(*m)))
    return makeError("the pipeline failed: " + diags.substr(0, 2000));
  return out;
}

} // namespace cc::smt
