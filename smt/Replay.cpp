// The replay of a counterexample through the JIT: both functions are
// copied into modules of their own, given the static shapes of the
// counterexample, wrapped into @cc_replay_main (tensors in, tensors out),
// lowered by direct conversions only (cc::straightLowering) and run.
#include "smt/Replay.h"

#include "smt/Internal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <map>
#include <sstream>

namespace cc::smt::detail {

using namespace mlir;

std::optional<DType> dtypeOf(Type t) {
  t = getElementTypeOrSelf(t);
  if (t.isF32())
    return DType::f32;
  if (t.isF16())
    return DType::f16;
  if (t.isBF16())
    return DType::bf16;
  if (t.isF64())
    return DType::f64;
  if (auto it = dyn_cast<IntegerType>(t))
    return parseDType("i" + std::to_string(it.getWidth()));
  return std::nullopt;
}

namespace {

// Gives a function with dynamic tensor arguments and results the static
// shapes of a counterexample (tensor.cast at the boundary), so the JIT can
// run it.
void specialize(func::FuncOp f, const std::vector<std::vector<int64_t>> &args,
                const std::vector<std::vector<int64_t>> &results) {
  Block &entry = f.getBody().front();
  OpBuilder b(f.getContext());
  b.setInsertionPointToStart(&entry);
  std::vector<Type> ins, outs;
  for (auto [arg, shape] : llvm::zip(entry.getArguments(), args)) {
    auto rt = dyn_cast<RankedTensorType>(arg.getType());
    if (!rt || rt.hasStaticShape()) {
      ins.push_back(arg.getType());
      continue;
    }
    auto st = RankedTensorType::get(shape, rt.getElementType());
    auto cst = tensor::CastOp::create(b, f.getLoc(), rt, arg);
    arg.replaceAllUsesExcept(cst, cst);
    arg.setType(st);
    ins.push_back(st);
  }
  Operation *ret = entry.getTerminator();
  b.setInsertionPoint(ret);
  for (auto [i, shape] : llvm::enumerate(results)) {
    Value v = ret->getOperand(i);
    auto rt = dyn_cast<RankedTensorType>(v.getType());
    if (rt && !rt.hasStaticShape()) {
      auto st = RankedTensorType::get(shape, rt.getElementType());
      ret->setOperand(i, tensor::CastOp::create(b, f.getLoc(), st, v));
    }
    outs.push_back(ret->getOperand(i).getType());
  }
  f.setType(FunctionType::get(f.getContext(), ins, outs));
}

// Whether a float constant may become an argument for this use: an
// elementwise operand (not tosa.mul's shift).
bool elementwiseUse(OpOperand &use) {
  Operation *u = use.getOwner();
  if (isa<tosa::MulOp>(u))
    return use.getOperandNumber() <= 1;
  return isa<tosa::AddOp, tosa::SubOp, tosa::MaximumOp, tosa::MinimumOp,
             tosa::PowOp, tosa::EqualOp, tosa::GreaterOp, tosa::GreaterEqualOp,
             tosa::SelectOp, arith::AddFOp, arith::SubFOp, arith::MulFOp,
             arith::DivFOp>(u);
}

// The float constants of `f` (top level) that feed only elementwise ops.
std::vector<Operation *> liftableConstants(func::FuncOp f) {
  std::vector<Operation *> consts;
  f.walk([&](Operation *op) {
    if (op->getParentOp() != f.getOperation() || op->getNumResults() != 1)
      return;
    if (!isa<tosa::ConstOp, arith::ConstantOp>(op))
      return;
    auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!rt || !rt.hasStaticShape() || !isa<FloatType>(rt.getElementType()) ||
        !dtypeOf(rt))
      return;
    if (llvm::all_of(op->getResult(0).getUses(), elementwiseUse))
      consts.push_back(op);
  });
  return consts;
}

// Turns the float tensor constants that feed only elementwise ops into
// arguments (their values appended to `extra`): the lowering pipeline that
// replays a counterexample must not fold them (its folders may be the bug).
void liftConstants(func::FuncOp f, Inputs &extra) {
  for (Operation *op : liftableConstants(f)) {
    auto rt = cast<RankedTensorType>(op->getResult(0).getType());
    auto cst = dyn_cast<tosa::ConstOp>(op);
    auto dense = dyn_cast_or_null<DenseElementsAttr>(
        cst ? cst.getValues() : cast<arith::ConstantOp>(op).getValue());
    if (!dense)
      continue;
    Tensor t(*dtypeOf(rt), Shape(rt.getShape().begin(), rt.getShape().end()));
    int64_t k = 0;
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      t.setF(k++, v.convertToDouble());
    }
    unsigned idx = f.getNumArguments();
    if (failed(f.insertArgument(idx, rt, DictionaryAttr(), op->getLoc())))
      continue;
    op->getResult(0).replaceAllUsesWith(f.getArgument(idx));
    op->erase();
    extra.push_back(std::move(t));
  }
}

// One-Shot Bufferize accepts only `restrict` to_tensor ops: the replay
// marks those that are the only to_tensor of their buffer (a snapshot of
// it, as the encoding reads them).
void restrictToTensors(func::FuncOp f) {
  f.walk([](bufferization::ToTensorOp t) {
    if (llvm::count_if(t.getBuffer().getUsers(), [](Operation *u) {
          return isa<bufferization::ToTensorOp>(u);
        }) == 1)
      t.setRestrict(true);
  });
}

// A memref of static type `t` whose pointer is the unmapped address 16:
// any access faults. It stands for an argument that a counterexample
// makes non-dereferenceable.
Value unmappedMemref(OpBuilder &b, Location loc, MemRefType t) {
  MLIRContext *ctx = b.getContext();
  auto i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto dims = LLVM::LLVMArrayType::get(i64, unsigned(t.getRank()));
  std::vector<Type> fields{ptr, ptr, i64};
  if (t.getRank())
    fields.insert(fields.end(), {dims, dims});
  auto desc = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto k = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value p = LLVM::IntToPtrOp::create(b, loc, ptr, k(16).getResult());
  Value d = LLVM::PoisonOp::create(b, loc, desc);
  d = LLVM::InsertValueOp::create(b, loc, d, p, ArrayRef<int64_t>{0});
  d = LLVM::InsertValueOp::create(b, loc, d, p, ArrayRef<int64_t>{1});
  d = LLVM::InsertValueOp::create(b, loc, d, k(0), ArrayRef<int64_t>{2});
  int64_t stride = 1;
  for (int64_t i = t.getRank() - 1; i >= 0; --i) {
    d = LLVM::InsertValueOp::create(b, loc, d, k(t.getDimSize(i)),
                                    ArrayRef<int64_t>{3, i});
    d = LLVM::InsertValueOp::create(b, loc, d, k(stride),
                                    ArrayRef<int64_t>{4, i});
    stride *= t.getDimSize(i);
  }
  return UnrealizedConversionCastOp::create(b, loc, TypeRange{t}, d)
      .getResult(0);
}

// index elements travel as i64.
Type widened(MLIRContext *ctx, Type elt) {
  return isa<IndexType>(elt) ? IntegerType::get(ctx, 64) : elt;
}

SmallVector<Value> zeroIndices(OpBuilder &b, Location loc, int64_t rank) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return SmallVector<Value>(size_t(rank), zero);
}

// A vector argument from its tensor (a whole, in-bounds transfer).
Value tensorToVector(OpBuilder &b, Location loc, Value t, VectorType vt) {
  auto tt = cast<RankedTensorType>(t.getType());
  auto read = VectorType::get(vt.getShape(), tt.getElementType());
  Value pad =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(tt.getElementType()));
  SmallVector<bool> inBounds(size_t(vt.getRank()), true);
  Value v = vector::TransferReadOp::create(
      b, loc, read, t, zeroIndices(b, loc, vt.getRank()),
      std::optional<Value>(pad), std::optional<ArrayRef<bool>>(inBounds));
  return read == vt ? v : arith::IndexCastOp::create(b, loc, vt, v);
}

// A vector result as a tensor of type `tt`.
Value vectorToTensor(OpBuilder &b, Location loc, Value v, RankedTensorType tt) {
  auto vt = cast<VectorType>(v.getType());
  auto written = VectorType::get(vt.getShape(), tt.getElementType());
  if (written != vt)
    v = arith::IndexCastOp::create(b, loc, written, v);
  Value empty =
      tensor::EmptyOp::create(b, loc, tt.getShape(), tt.getElementType());
  SmallVector<bool> inBounds(size_t(vt.getRank()), true);
  return vector::TransferWriteOp::create(
             b, loc, v, empty, zeroIndices(b, loc, vt.getRank()),
             std::optional<ArrayRef<bool>>(inBounds))
      .getResult();
}

// The JIT runs functions of tensors only. replayMain wraps `f` into
// @cc_replay_main, whose arguments and results are tensors: a scalar
// travels as a 0-d tensor (index as i64), a memref argument as a tensor
// that is copied into a fresh buffer, and the final contents of those
// buffers follow the function's results. `argShapes` are the static shapes
// of the memref arguments (others are ignored).
func::FuncOp replayMain(func::FuncOp f,
                        const std::vector<std::vector<int64_t>> &argShapes,
                        const ArgMemory &memory) {
  MLIRContext *ctx = f.getContext();
  Location loc = f.getLoc();
  auto boundary = [&](Type t, const std::vector<int64_t> &shape) -> Type {
    if (auto mt = dyn_cast<MemRefType>(t))
      return RankedTensorType::get(shape, mt.getElementType());
    if (auto vt = dyn_cast<VectorType>(t))
      return RankedTensorType::get(vt.getShape(),
                                   widened(ctx, vt.getElementType()));
    if (isa<IndexType>(t))
      return RankedTensorType::get({}, IntegerType::get(ctx, 64));
    if (isa<IntegerType, FloatType>(t))
      return RankedTensorType::get({}, t);
    return t;
  };
  std::vector<Type> ins, outs;
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes()))
    ins.push_back(boundary(t, i < argShapes.size() ? argShapes[i]
                                                   : std::vector<int64_t>{}));
  for (Type t : f.getResultTypes()) {
    auto mt = dyn_cast<MemRefType>(t);
    outs.push_back(boundary(t, mt ? std::vector<int64_t>(mt.getShape())
                                  : std::vector<int64_t>{}));
  }
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes()))
    if (isa<MemRefType>(t))
      outs.push_back(ins[i]);
  OpBuilder b(ctx);
  b.setInsertionPointAfter(f);
  auto main = func::FuncOp::create(b, loc, "cc_replay_main",
                                   FunctionType::get(ctx, ins, outs));
  Block *entry = main.addEntryBlock();
  b.setInsertionPointToStart(entry);
  std::vector<Value> callArgs, buffers;
  std::map<unsigned, Value> bufferOf; // memref argument -> its buffer
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    Value a = entry->getArgument(unsigned(i));
    if (auto mt = dyn_cast<MemRefType>(t)) {
      auto staticType = MemRefType::get(
          cast<RankedTensorType>(a.getType()).getShape(), mt.getElementType());
      if (memory.isUnmapped(i)) {
        Value m = unmappedMemref(b, loc, staticType);
        callArgs.push_back(
            staticType == mt
                ? m
                : memref::CastOp::create(b, loc, mt, m).getResult());
        buffers.push_back(a); // its contents cannot change
        continue;
      }
      Value buf;
      if (int same = memory.alias(i); same >= 0) {
        buf = bufferOf.at(unsigned(same)); // its contents are the same
      } else {
        buf = memref::AllocOp::create(b, loc, staticType);
        auto copy =
            bufferization::MaterializeInDestinationOp::create(b, loc, a, buf);
        copy.setWritable(true);
        copy.setRestrict(true);
      }
      bufferOf[unsigned(i)] = buf;
      buffers.push_back(buf);
      callArgs.push_back(
          staticType == mt
              ? buf
              : memref::CastOp::create(b, loc, mt, buf).getResult());
    } else if (auto vt = dyn_cast<VectorType>(t)) {
      callArgs.push_back(tensorToVector(b, loc, a, vt));
    } else if (t != a.getType()) {
      Value x = tensor::ExtractOp::create(b, loc, a, ValueRange{});
      if (isa<IndexType>(t))
        x = arith::IndexCastOp::create(b, loc, t, x);
      callArgs.push_back(x);
    } else {
      callArgs.push_back(a);
    }
  }
  auto call = func::CallOp::create(b, loc, f, callArgs);
  std::vector<Value> results;
  for (auto [r, t] : llvm::zip(call.getResults(), outs)) {
    Value x = r;
    if (auto mt = dyn_cast<MemRefType>(x.getType())) {
      // A memref result: its contents, from a copy (it may be an argument's
      // buffer, read again below).
      auto flat = MemRefType::get(mt.getShape(), mt.getElementType());
      Value copy = memref::AllocOp::create(b, loc, flat);
      memref::CopyOp::create(b, loc, x, copy);
      auto snap = bufferization::ToTensorOp::create(
          b, loc, cast<RankedTensorType>(t), copy);
      snap.setRestrict(true);
      x = snap;
    } else if (isa<VectorType>(x.getType())) {
      x = vectorToTensor(b, loc, x, cast<RankedTensorType>(t));
    } else if (x.getType() != t) {
      if (isa<IndexType>(x.getType()))
        x = arith::IndexCastOp::create(b, loc, IntegerType::get(ctx, 64), x);
      x = tensor::FromElementsOp::create(b, loc, t, ValueRange{x});
    }
    results.push_back(x);
  }
  // An aliased argument's contents are read from a copy of its buffer: a
  // second `restrict` tensor of one buffer would be undefined, and one
  // buffer returned twice crashes buffer-results-to-out-params with
  // hoist-static-allocs (known upstream: #219492, fixed after MLIR 22).
  llvm::DenseSet<Value> read;
  for (Value buf : buffers) {
    if (isa<mlir::TensorType>(buf.getType())) {
      results.push_back(buf);
      continue;
    }
    auto mt = cast<MemRefType>(buf.getType());
    if (!read.insert(buf).second) {
      Value copy = memref::AllocOp::create(b, loc, mt);
      memref::CopyOp::create(b, loc, buf, copy);
      buf = copy;
    }
    auto tt = RankedTensorType::get(mt.getShape(), mt.getElementType());
    auto t = bufferization::ToTensorOp::create(b, loc, tt, buf);
    t.setRestrict(true);
    results.push_back(t);
  }
  func::ReturnOp::create(b, loc, results);
  return main;
}

// Declared (body-less) functions of scalars of one type get a stand-in
// body, the same on both sides: x0*2 + x1*3 + ... + k+1 for result k (a
// rewrite must be right for every function, so a difference with this
// one shows a wrong rewrite). Others stay declarations: not replayable.
void defineDeclarations(ModuleOp m) {
  for (auto f : llvm::make_early_inc_range(m.getOps<func::FuncOp>())) {
    if (!f.isExternal() || f.getNumResults() == 0)
      continue;
    Type t = f.getResultTypes()[0];
    auto same = [&](Type u) { return u == t; };
    if (!isa<IntegerType, FloatType>(t) ||
        !llvm::all_of(f.getArgumentTypes(), same) ||
        !llvm::all_of(f.getResultTypes(), same))
      continue;
    f.setPrivate();
    Block *entry = f.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    Location loc = f.getLoc();
    bool fl = isa<FloatType>(t);
    auto k = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          b, loc, t,
          fl ? TypedAttr(b.getFloatAttr(t, double(v)))
             : TypedAttr(b.getIntegerAttr(t, v)));
    };
    auto add = [&](Value x, Value y) -> Value {
      return fl ? arith::AddFOp::create(b, loc, x, y).getResult()
                : arith::AddIOp::create(b, loc, x, y).getResult();
    };
    auto mul = [&](Value x, Value y) -> Value {
      return fl ? arith::MulFOp::create(b, loc, x, y).getResult()
                : arith::MulIOp::create(b, loc, x, y).getResult();
    };
    std::vector<Value> outs;
    for (unsigned r = 0; r < f.getNumResults(); ++r) {
      Value acc = k(r + 1);
      for (auto [i, a] : llvm::enumerate(entry->getArguments()))
        acc = add(acc, mul(a, k(int64_t(i) + 2)));
      outs.push_back(acc);
    }
    func::ReturnOp::create(b, loc, outs);
  }
}

// `f`'s module, printed, ready for the JIT: `f` takes the static shapes of
// the counterexample, its lifted constants are appended to `ins`, and
// @cc_replay_main runs it; `results` receives main's result types.
// Removes the functions `g` does not reach through symbol uses: another
// function of the module may hold what the JIT cannot run (an op of a
// dialect crosscheck does not link).
void keepReachable(ModuleOp m, func::FuncOp g) {
  llvm::StringSet<> reached{g.getSymName()};
  std::vector<Operation *> work{g};
  while (!work.empty()) {
    Operation *op = work.back();
    work.pop_back();
    auto uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &u : *uses) {
      StringRef name = u.getSymbolRef().getRootReference().getValue();
      if (reached.insert(name).second)
        if (Operation *def = m.lookupSymbol(name))
          work.push_back(def);
    }
  }
  for (auto h : llvm::make_early_inc_range(m.getOps<func::FuncOp>()))
    if (!reached.contains(h.getSymName()))
      h.erase();
}

// `f` as @cc_replay_main of a module of its own, printed; the values of
// its lifted constants, the inputs that follow the arguments, in `extra`.
std::string replayModule(func::FuncOp f, const Shapes &argShapes,
                         const Shapes &resShapes, const ArgMemory &memory,
                         Inputs &extra, std::vector<Type> &results) {
  OwningOpRef<ModuleOp> m(
      cast<ModuleOp>(f->getParentOfType<ModuleOp>()->clone()));
  auto g = m->lookupSymbol<func::FuncOp>(f.getSymName());
  keepReachable(*m, g);
  defineDeclarations(*m);
  specialize(g, argShapes, resShapes);
  liftConstants(g, extra);
  restrictToTensors(g);
  Shapes shapes = argShapes;
  for (const Tensor &t : extra)
    shapes.push_back(t.shape());
  func::FuncOp main = replayMain(g, shapes, memory);
  results.assign(main.getResultTypes().begin(), main.getResultTypes().end());
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os);
  return s;
}

// Both sides as the JIT runs them (source first): the replay modules, the
// inputs each appends, the outputs' types; or why they cannot run.
struct Prepared {
  std::string text[2];
  Inputs extra[2];
  std::vector<TensorType> outTypes;
  std::string notRun;
};

Prepared prepare(func::FuncOp src, func::FuncOp tgt, const Shapes &argShapes,
                 const Shapes &outShapes, const ArgMemory &memory) {
  size_t numResults = src.getNumResults();
  Shapes resShapes(outShapes.begin(), outShapes.begin() + long(numResults));
  Prepared p;
  func::FuncOp sides[2] = {src, tgt};
  for (int k = 0; k < 2; ++k) {
    std::vector<Type> results;
    p.text[k] = replayModule(sides[k], argShapes, resShapes, memory, p.extra[k],
                             results);
    p.outTypes.clear();
    for (auto [t, shape] : llvm::zip(results, outShapes)) {
      if (auto dt = dtypeOf(t))
        p.outTypes.push_back(TensorType{*dt, Shape(shape)});
      else
        p.notRun = "an output of type " + str(t);
    }
  }
  return p;
}

Inputs withExtra(const Inputs &inputs, const Inputs &extra) {
  Inputs all = inputs;
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

// Whether `b` computes what `a` does where `mask` says so (everywhere when
// it is empty), within `tolerance` of `a`'s largest finite magnitude.
bool agree(const Tensor &a, const Tensor &b, const std::vector<bool> &mask,
           double tolerance) {
  // Integers are exact.
  bool rounds = tolerance > 0 && isFloat(a.dtype());
  double scale = 1;
  for (int64_t i = 0; i < a.size(); ++i)
    if (std::isfinite(a.asDouble(i)))
      scale = std::max(scale, std::abs(a.asDouble(i)));
  for (int64_t i = 0; i < a.size(); ++i) {
    if (size_t(i) < mask.size() && !mask[i])
      continue;
    double x = a.asDouble(i), y = b.asDouble(i);
    bool same =
        sameValue(x, y) || (rounds && std::abs(x - y) <= tolerance * scale);
    if (!same)
      return false;
  }
  return true;
}

} // namespace

std::string fmtValue(double d) {
  std::ostringstream os;
  os.precision(d == std::floor(d) && std::abs(d) < 1e15 ? 20 : 9);
  os << d;
  return os.str();
}

double roundingTolerance(func::FuncOp src) {
  double tolerance = 1e-3;
  for (Type t : src.getResultTypes())
    if (isa<FloatType>(getElementTypeOrSelf(t)))
      if (std::optional<DType> dt = dtypeOf(t))
        tolerance = std::max(tolerance, 16 * epsilon(*dt));
  return tolerance;
}

Replay replay(func::FuncOp src, func::FuncOp tgt, const Inputs &inputs,
              const Shapes &outShapes, const Mask &mask, double tolerance,
              const ArgMemory &memory) {
  Shapes argShapes;
  for (const Tensor &t : inputs)
    argShapes.push_back(t.shape());
  Prepared p = prepare(src, tgt, argShapes, outShapes, memory);
  if (!p.notRun.empty())
    return Replay{Replay::NotRun, p.notRun};
  Inputs srcIns = withExtra(inputs, p.extra[0]);
  Inputs tgtIns = withExtra(inputs, p.extra[1]);
  NamedPipeline pl = straightLowering();
  RunOptions ro;
  ro.limits.timeoutSeconds = 20;
  auto a = runMlirModule(p.text[0], "cc_replay_main", p.outTypes, srcIns,
                         pl.pipeline, pl.llvmOptLevel, ro);
  auto b = runMlirModule(p.text[1], "cc_replay_main", p.outTypes, tgtIns,
                         pl.pipeline, pl.llvmOptLevel, ro);
  std::string srcWhy =
      a ? "" : "source did not run: " + a.error().message().substr(0, 300);
  if (!b) {
    ErrorCode code = b.error().code();
    bool failed =
        code == ErrorCode::CompilerFailure || code == ErrorCode::Timeout;
    std::string msg = b.error().message();
    std::string why = "target did not run: " +
                      msg.substr(0, std::min(msg.find('\n'), size_t(300)));
    if (!a)
      return {Replay::NotRun, srcWhy + "; " + why};
    return {failed ? Replay::TargetFailed : Replay::NotRun, why};
  }
  // The target's outputs can still be judged against the source's
  // encoding.
  if (!a)
    return {Replay::SourceFailed, srcWhy, std::move(*b)};
  auto agreeWithin = [&](double tol) {
    for (size_t r = 0; r < a->size(); ++r)
      if (!agree((*a)[r], (*b)[r],
                 r < mask.size() ? mask[r] : std::vector<bool>{}, tol))
        return false;
    return true;
  };
  if (agreeWithin(tolerance))
    return {Replay::Agree, "", std::move(*b)};
  bool rounding = agreeWithin(std::max(tolerance, roundingTolerance(src)));
  return {Replay::Differ, "", std::move(*b), rounding};
}

Expected<std::vector<std::pair<Outputs, Outputs>>>
replaySets(func::FuncOp src, func::FuncOp tgt, const std::vector<Inputs> &sets,
           const Shapes &outShapes, const ArgMemory &memory) {
  if (sets.empty())
    return std::vector<std::pair<Outputs, Outputs>>{};
  Shapes argShapes;
  for (const Tensor &t : sets.front())
    argShapes.push_back(t.shape());
  Prepared p = prepare(src, tgt, argShapes, outShapes, memory);
  if (!p.notRun.empty())
    return Error::failure("cannot replay " + p.notRun);
  StraightInserts libm;
  libm.beforeLlvm = kLibmPass;
  NamedPipeline pl = straightLowering(libm);
  RunOptions ro;
  ro.limits.timeoutSeconds = 60;
  std::vector<Expected<Outputs>> runs[2];
  for (int k = 0; k < 2; ++k) {
    std::vector<Inputs> all;
    for (const Inputs &in : sets)
      all.push_back(withExtra(in, p.extra[k]));
    InputSets ptrs;
    for (const Inputs &in : all)
      ptrs.push_back(&in);
    runs[k] = runMlirModuleSets(p.text[k], "cc_replay_main", p.outTypes, ptrs,
                                pl.pipeline, pl.llvmOptLevel, ro);
  }
  std::vector<std::pair<Outputs, Outputs>> out;
  for (size_t i = 0; i < sets.size(); ++i) {
    for (int k = 0; k < 2; ++k)
      if (!runs[k][i])
        return Error::failure(
            std::string(k ? "target" : "source") +
            " did not run: " + runs[k][i].error().message().substr(0, 300));
    out.emplace_back(std::move(*runs[0][i]), std::move(*runs[1][i]));
  }
  return out;
}

} // namespace cc::smt::detail
