// Structural edits of MLIR modules on parsed IR: candidates for the
// MLIR-level reducer, their sizes, and a static scan for undefined
// behaviour (loop steps, static indices) that every candidate passes.
#include "reducers/MlirEdit.h"

#include "backends/mlir/MlirSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace cc::reduce {

namespace {

using namespace mlir;

// One context for all edits: the reducer makes candidates on one thread.
MLIRContext &context() {
  static std::unique_ptr<MLIRContext> ctx = mlirbackend::makeContext();
  return *ctx;
}

OwningOpRef<ModuleOp> parse(const std::string &text) {
  mlirbackend::DiagnosticCapture diags(context());
  auto m = mlirbackend::parseModule(context(), diags, text, "candidate");
  if (!m || failed(verify(**m)))
    return {};
  return std::move(*m);
}

std::string print(ModuleOp m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os);
  return s;
}

std::vector<Operation *> opsOf(ModuleOp m) {
  std::vector<Operation *> ops;
  m->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != m.getOperation())
      ops.push_back(op);
  });
  return ops;
}

// ---- Static UB scan ----

struct Range {
  int64_t lo, hi; // inclusive; lo > hi: no value (a loop that never runs)
};

// The values an index may take: a constant, or the induction variable of
// an scf.for with constant bounds and a positive constant step.
std::optional<Range> rangeOf(Value v) {
  if (auto c = getConstantIntValue(v))
    return Range{*c, *c};
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop =
      arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || arg != loop.getInductionVar())
    return std::nullopt;
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return Range{1, 0};
  return Range{*lb, *lb + (*ub - *lb - 1) / *step * *step};
}

void scanAccess(ShapedType type, ValueRange indices, UbScan &scan) {
  for (auto [dim, index] : llvm::enumerate(indices)) {
    auto r = rangeOf(index);
    if (!r || type.isDynamicDim(dim)) {
      ++scan.unknown;
      continue;
    }
    if (r->lo <= r->hi && (r->lo < 0 || r->hi >= type.getDimSize(dim)))
      scan.definite = "an index out of bounds";
  }
}

UbScan scanUb(ModuleOp m) {
  UbScan scan;
  m->walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto step = getConstantIntValue(loop.getStep());
      if (!step)
        ++scan.unknown;
      else if (*step <= 0)
        scan.definite = "a loop whose step is not positive";
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      scanAccess(load.getMemRefType(), load.getIndices(), scan);
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      scanAccess(store.getMemRefType(), store.getIndices(), scan);
    } else if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      scanAccess(extract.getTensor().getType(), extract.getIndices(), scan);
    } else if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
      scanAccess(insert.getDest().getType(), insert.getIndices(), scan);
    } else if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                   arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
                   arith::FloorDivSIOp>(op)) {
      // Generated programs guard their divisors; a reduction that rewires
      // one to a zero constant must not pass for the bug.
      Value divisor = op->getOperand(1);
      if (matchPattern(divisor, m_Zero()))
        scan.definite = "a division by zero";
      else if (!matchPattern(divisor, m_Constant()))
        ++scan.unknown;
    }
    // A poison memref that is accessed is undefined behaviour too.
    for (Value v : op->getOperands())
      if (isa<MemRefType>(v.getType()) && v.getDefiningOp<ub::PoisonOp>() &&
          !isa<func::ReturnOp>(op))
        scan.definite = "a poison memref used";
  });
  return scan;
}

MlirSize sizeOf(ModuleOp m, size_t chars) {
  MlirSize s;
  s.chars = chars;
  m->walk([&](Operation *op) {
    if (op == m.getOperation())
      return;
    ++s.ops;
    s.nonConstant += !op->hasTrait<OpTrait::ConstantLike>();
  });
  return s;
}

// ---- Zero values ----

TypedAttr zeroAttr(Type t) {
  if (isa<IntegerType, IndexType>(t))
    return IntegerAttr::get(t, 0);
  if (auto f = dyn_cast<FloatType>(t))
    return FloatAttr::get(f, 0.0);
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped || !isa<RankedTensorType, VectorType>(t) ||
      !shaped.hasStaticShape())
    return {};
  TypedAttr elem = zeroAttr(shaped.getElementType());
  if (!elem || isa<IndexType>(shaped.getElementType()))
    return {};
  return DenseElementsAttr::get(shaped, elem);
}

// A zero constant of v's type (ub.poison where there is none, never for a
// memref); null when v is a loop step, which must stay positive.
Value zeroFor(OpBuilder &b, Value v) {
  for (OpOperand &use : v.getUses())
    if (auto loop = dyn_cast<scf::ForOp>(use.getOwner()))
      if (&use == &loop.getStepMutable())
        return {};
  Location loc = b.getUnknownLoc();
  if (TypedAttr zero = zeroAttr(v.getType()))
    return arith::ConstantOp::create(b, loc, zero).getResult();
  if (isa<MemRefType>(v.getType()))
    return {};
  return ub::PoisonOp::create(b, loc, v.getType()).getResult();
}

// Replaces the uses of op's results by zeros and erases it.
bool replaceByZeros(Operation *op) {
  OpBuilder b(op);
  for (Value r : op->getResults()) {
    if (r.use_empty())
      continue;
    Value zero = zeroFor(b, r);
    if (!zero)
      return false;
    r.replaceAllUsesWith(zero);
  }
  op->erase();
  return true;
}

// ---- Edits ----

enum class Kind {
  EraseSymbol,
  EraseRegionOp,
  EraseDead,
  FirstIteration,
  DropArg,
  DropResult,
  GlobalToConstant,
  Zero
};

struct Edit {
  Kind kind;
  size_t op;          // index in opsOf()
  unsigned index = 0; // the argument or result
};

// The uses of a function, when all are calls (nullopt otherwise).
std::optional<std::vector<func::CallOp>> callsOf(func::FuncOp f, ModuleOp m) {
  auto uses = SymbolTable::getSymbolUses(f, m);
  if (!uses)
    return std::nullopt;
  std::vector<func::CallOp> calls;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return std::nullopt;
    calls.push_back(call);
  }
  return calls;
}

bool dropArg(func::FuncOp f, unsigned i, ModuleOp m) {
  auto calls = callsOf(f, m);
  if (!calls || f.isExternal() || !f.getArgument(i).use_empty())
    return false;
  for (func::CallOp call : *calls)
    call->eraseOperand(i);
  return succeeded(f.eraseArgument(i));
}

bool dropResult(func::FuncOp f, unsigned i, ModuleOp m) {
  auto calls = callsOf(f, m);
  if (!calls || f.isExternal())
    return false;
  f.walk([&](func::ReturnOp ret) { ret->eraseOperand(i); });
  for (func::CallOp call : *calls) {
    OpBuilder b(call);
    SmallVector<Type> types(call.getResultTypes());
    types.erase(types.begin() + i);
    auto fresh = func::CallOp::create(b, call.getLoc(), call.getCallee(), types,
                                      call.getOperands());
    Value gone = call.getResult(i);
    if (!gone.use_empty()) {
      Value zero = zeroFor(b, gone);
      if (!zero)
        return false;
      gone.replaceAllUsesWith(zero);
    }
    for (unsigned r = 0, k = 0; r < call.getNumResults(); ++r)
      if (r != i)
        call.getResult(r).replaceAllUsesWith(fresh.getResult(k++));
    call->erase();
  }
  return succeeded(f.eraseResult(i));
}

// A tensor read from a constant-initialized global (to_tensor of its
// get_global) becomes a tensor constant of the global's value, so that the
// global and get_global can go.
DenseElementsAttr globalValueOf(Operation *op, ModuleOp m) {
  if (op->getName().getStringRef() != "bufferization.to_tensor" ||
      op->getNumOperands() != 1 || op->getNumResults() != 1)
    return {};
  auto get = op->getOperand(0).getDefiningOp<memref::GetGlobalOp>();
  auto global = get ? m.lookupSymbol<memref::GlobalOp>(get.getName())
                    : memref::GlobalOp();
  auto value =
      global ? dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr())
             : DenseElementsAttr();
  if (!value || value.getType() != op->getResult(0).getType())
    return {};
  return value;
}

bool globalToConstant(Operation *op, ModuleOp m) {
  DenseElementsAttr value = globalValueOf(op, m);
  if (!value)
    return false;
  OpBuilder b(op);
  auto constant = arith::ConstantOp::create(b, op->getLoc(), value);
  op->getResult(0).replaceAllUsesWith(constant.getResult());
  op->erase();
  return true;
}

// An scf.for with constant bounds that runs at least once becomes its
// first iteration: the body inlined before it, the induction variable the
// lower bound, the iteration arguments their initial values, and the
// loop's results what that iteration yields. The iteration ran in the
// original, so its indices are in range; what it prints comes first.
bool runsOnce(scf::ForOp loop) {
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  return lb && ub && step && *step > 0 && *ub > *lb;
}

bool firstIteration(scf::ForOp loop) {
  if (!runsOnce(loop))
    return false;
  OpBuilder b(loop);
  IRMapping map;
  map.map(loop.getInductionVar(), loop.getLowerBound());
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
    map.map(arg, init);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  Operation *yield = loop.getBody()->getTerminator();
  for (auto [result, yielded] :
       llvm::zip(loop.getResults(), yield->getOperands()))
    result.replaceAllUsesWith(map.lookupOrDefault(yielded));
  loop->erase();
  return true;
}

bool unused(Operation *op) {
  return llvm::all_of(op->getResults(), [](Value v) { return v.use_empty(); });
}

// The edits of one op, in the order of `kinds`.
void editsOf(Operation *op, size_t i, ModuleOp m, std::vector<Edit> &out) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return;
  if (isa<SymbolOpInterface>(op)) {
    if (SymbolTable::symbolKnownUseEmpty(op, m))
      out.push_back({Kind::EraseSymbol, i});
    if (auto f = dyn_cast<func::FuncOp>(op)) {
      for (unsigned a = 0; a < f.getNumArguments(); ++a)
        out.push_back({Kind::DropArg, i, a});
      for (unsigned r = 0; r < f.getNumResults(); ++r)
        out.push_back({Kind::DropResult, i, r});
    }
    return;
  }
  if (globalValueOf(op, m))
    out.push_back({Kind::GlobalToConstant, i});
  if (auto loop = dyn_cast<scf::ForOp>(op); loop && runsOnce(loop))
    out.push_back({Kind::FirstIteration, i});
  if (unused(op))
    out.push_back(
        {op->getNumRegions() ? Kind::EraseRegionOp : Kind::EraseDead, i});
  else if (!op->hasTrait<OpTrait::ConstantLike>())
    out.push_back({Kind::Zero, i});
}

bool applyEdit(const Edit &e, ModuleOp m) {
  std::vector<Operation *> ops = opsOf(m);
  if (e.op >= ops.size())
    return false;
  Operation *op = ops[e.op];
  switch (e.kind) {
  case Kind::EraseSymbol:
  case Kind::EraseRegionOp:
  case Kind::EraseDead:
    op->erase();
    return true;
  case Kind::FirstIteration:
    return firstIteration(cast<scf::ForOp>(op));
  case Kind::DropArg:
    return dropArg(cast<func::FuncOp>(op), e.index, m);
  case Kind::DropResult:
    return dropResult(cast<func::FuncOp>(op), e.index, m);
  case Kind::GlobalToConstant:
    return globalToConstant(op, m);
  case Kind::Zero:
    return replaceByZeros(op);
  }
  return false;
}

} // namespace

struct StructuralEdits::Impl {
  OwningOpRef<ModuleOp> module;
  std::vector<Edit> edits;
};

StructuralEdits::StructuralEdits(const std::string &text)
    : impl(std::make_unique<Impl>()) {
  impl->module = parse(text);
  if (!impl->module)
    return;
  std::vector<Edit> all;
  std::vector<Operation *> ops = opsOf(*impl->module);
  for (size_t i = 0; i < ops.size(); ++i)
    editsOf(ops[i], i, *impl->module, all);
  // Biggest changes first: symbols, loop nests, dead ops, loops cut to
  // their first iteration, then signatures and zeros.
  std::stable_sort(all.begin(), all.end(), [](const Edit &a, const Edit &b) {
    return a.kind < b.kind;
  });
  impl->edits = std::move(all);
}

StructuralEdits::~StructuralEdits() = default;

size_t StructuralEdits::size() const { return impl->edits.size(); }

std::optional<std::string> StructuralEdits::apply(size_t i) const {
  if (i >= impl->edits.size())
    return std::nullopt;
  OwningOpRef<ModuleOp> copy(impl->module->clone());
  if (!applyEdit(impl->edits[i], *copy))
    return std::nullopt;
  mlirbackend::DiagnosticCapture diags(context());
  if (failed(verify(*copy)))
    return std::nullopt;
  return print(*copy);
}

// The functions that are called (they may go once inlined).
std::vector<std::string> calledFunctions(ModuleOp m) {
  std::vector<std::string> names;
  for (auto f : m.getOps<func::FuncOp>())
    if (!SymbolTable::symbolKnownUseEmpty(f, m))
      names.push_back(f.getSymName().str());
  return names;
}

namespace {
// Every op without effects whose results are unused, to a fixpoint: dead
// code goes in one step, and nothing is folded (which a canonicalization
// might do to the bug's trigger).
std::optional<std::string> withoutDeadOps(const std::string &text) {
  auto m = parse(text);
  if (!m)
    return std::nullopt;
  for (bool erased = true; erased;) {
    erased = false;
    m->walk([&](Operation *op) { // post-order: erasing `op` is safe
      if (isOpTriviallyDead(op)) {
        op->erase();
        erased = true;
      }
    });
  }
  return print(*m);
}
} // namespace

std::vector<std::string> cleanupCandidates(const std::string &text) {
  std::vector<std::string> out;
  if (auto dce = withoutDeadOps(text); dce && *dce != text)
    out.push_back(std::move(*dce));
  // The inliner canonicalizes by default, which may fold the bug away: the
  // plain inline goes first.
  const std::string inl = "inline{default-pipeline=}";
  for (const std::string &pipeline :
       {inl + ",symbol-dce,canonicalize,cse", inl + ",symbol-dce", inl,
        std::string("symbol-dce"), std::string("canonicalize"),
        std::string("cse")}) {
    auto m = parse(text);
    if (!m)
      return out;
    std::vector<std::string> called = calledFunctions(*m);
    mlirbackend::DiagnosticCapture diags(context());
    PassManager pm(&context(), ModuleOp::getOperationName());
    if (mlirbackend::parsePipelineInto("builtin.module(" + pipeline + ")",
                                       pm) ||
        failed(pm.run(*m)))
      continue;
    // Public functions that were called and are no longer (inlined) go too.
    for (const std::string &name : called)
      if (auto f = m->lookupSymbol<func::FuncOp>(name))
        if (SymbolTable::symbolKnownUseEmpty(f, *m))
          f->erase();
    out.push_back(print(*m));
  }
  return out;
}

std::optional<MlirFacts> mlirFacts(const std::string &text) {
  auto m = parse(text);
  if (!m)
    return std::nullopt;
  return MlirFacts{sizeOf(*m, text.size()), scanUb(*m)};
}

} // namespace cc::reduce
