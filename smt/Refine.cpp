// The refinement check of a function pair: the query, the solver, the disk
// cache, counterexamples and their replay through the JIT.
#include "smt/Encoder.h"

#include "core/DType.h"
#include "core/Rng.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace cc::smt {

using namespace mlir;
using namespace detail;

namespace {

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

// The concrete value of a model term, as a double (floats) or integer;
// nothing where the term is not concrete (a probe's inputs leave an
// uninterpreted function open).
using Eval = std::function<z3::expr(const z3::expr &)>;
std::optional<double> modelValue(const Eval &eval, const z3::expr &e, Type elt,
                                 z3::context &c) {
  if (e.get_sort().is_fpa()) {
    z3::expr bits = eval(z3::expr(c, Z3_mk_fpa_to_ieee_bv(c, e)));
    z3::expr nan = eval(z3::expr(c, Z3_mk_fpa_is_nan(c, e)));
    if (nan.is_true())
      return std::nan("");
    uint64_t b;
    if (!bits.is_numeral_u64(b))
      return std::nullopt;
    if (elt.isF16())
      return f16BitsToF64(uint16_t(b));
    if (elt.isBF16())
      return bf16BitsToF64(uint16_t(b));
    if (elt.isF32()) {
      uint32_t u = uint32_t(b);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  }
  z3::expr v = eval(e);
  uint64_t u = 0;
  if (!v.is_numeral_u64(u))
    return std::nullopt;
  unsigned w = e.get_sort().bv_size();
  if (w == 1)
    return double(u);
  int64_t s = w == 64 ? int64_t(u) : int64_t(u << (64 - w)) >> (64 - w);
  return double(s);
}

std::string fmtValue(double d) {
  std::ostringstream os;
  os.precision(d == std::floor(d) && std::abs(d) < 1e19 ? 20 : 9);
  os << d;
  return os.str();
}

// ---- disk cache ----------------------------------------------------------------
std::string cachePath(const TvOptions &o, const std::string &query) {
  if (o.cacheDir.empty())
    return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zx", std::hash<std::string>{}(query));
  return o.cacheDir + "/" + buf + ".unsat";
}

struct Attempt {
  Attempt(TvVerdict v, std::string r, std::string cex = "")
      : verdict(v), reason(std::move(r)), counterexample(std::move(cex)) {}
  TvVerdict verdict;
  std::string reason, counterexample;
  bool needsRefinement = false;
  bool vacuous = false; // the source is always undefined
};

// Concrete inputs for `args`: substitutes for the argument terms.
struct Assignment {
  z3::expr_vector vars, vals;
};

// A few simple concrete inputs (small integers, ±0, ±1, Inf, NaN mixed
// over the elements; then all -Inf, all +Inf, all NaN, and -Inf beside the
// lowest finite value, where the initial values of maxima and argmax
// matter): a concrete formula is solved by propagation, so an obvious
// counterexample costs milliseconds instead of a search. Returns the first
// input that makes `bad` true.
std::optional<Assignment> probe(z3::context &c, const std::vector<SVal> &args,
                                const z3::expr &bad) {
  static const int64_t kInts[] = {1, 2, 3, 0, -1, 7, -3, 100};
  static const double kFloats[] = {1.5, 2.5, -2.0, 0.0, -0.0, 0.5,
                                   INFINITY, -1.0, NAN, 1e30};
  for (int t = 0; t < 12; ++t) {
    Assignment as{z3::expr_vector(c), z3::expr_vector(c)};
    int64_t i = 0;
    auto valueOf = [&](const z3::sort &so) -> std::optional<z3::expr> {
      if (so.is_bv())
        return c.bv_val(uint64_t(t < 8 ? kInts[t < 3 ? t : (i * 3 + t) % 8] : 1),
                        so.bv_size());
      if (!so.is_fpa())
        return std::nullopt;
      // The first tries use one small value everywhere (shift amounts and
      // divisors stay defined), later ones mix edge values.
      double lowest = -std::ldexp(2 - std::ldexp(1, 1 - int(so.fpa_sbits())),
                                  (1 << (so.fpa_ebits() - 1)) - 1);
      double d = t < 8    ? kFloats[t < 3 ? t : (i * 3 + t) % 10]
                 : t == 8 ? -INFINITY
                 : t == 9 ? INFINITY
                 : t == 10 ? NAN
                           : (i % 2 ? -INFINITY : lowest);
      return z3::expr(c, Z3_mk_fpa_numeral_double(c, d, so));
    };
    bool ok = true;
    for (const SVal &a : args) {
      // A memref argument is an array: it is substituted by a concrete one.
      std::optional<z3::expr> arr;
      if (a.array) {
        auto fill = valueOf(a.array->get_sort().array_range());
        if (!fill)
          return std::nullopt;
        arr = z3::const_array(c.bv_sort(64), *fill);
      }
      for (int64_t k = 0; k < a.size() && ok; ++k) {
        ++i;
        auto y = valueOf(a.v[size_t(k)].get_sort());
        ok = y.has_value();
        if (!ok)
          break;
        if (arr) {
          arr = z3::store(*arr, c.bv_val(uint64_t(k), 64), *y);
        } else {
          as.vars.push_back(a.v[size_t(k)]);
          as.vals.push_back(*y);
        }
      }
      if (arr) {
        as.vars.push_back(*a.array);
        as.vals.push_back(*arr);
      }
    }
    if (!ok)
      return std::nullopt;
    z3::expr e = bad;
    if (e.substitute(as.vars, as.vals).simplify().is_true())
      return as;
  }
  return std::nullopt;
}

// Checks `pre && d` for each disjunct d within `totalMs`; leaves the solver
// holding the satisfiable one (for its model).
z3::check_result decompose(z3::solver &s, const z3::expr &pre,
                           const std::vector<z3::expr> &disj, unsigned totalMs,
                           std::string &unknownWhy) {
  auto t0 = std::chrono::steady_clock::now();
  z3::check_result res = z3::unsat;
  for (const z3::expr &d : disj) {
    if (d.simplify().is_false())
      continue;
    double used = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    if (used >= totalMs) {
      unknownWhy = "timeout";
      return z3::unknown;
    }
    z3::params prm(s.ctx());
    prm.set("timeout", unsigned(totalMs - used));
    s.set(prm);
    s.push();
    s.add(pre && d);
    z3::check_result r = s.check();
    if (r == z3::sat)
      return r;
    if (r == z3::unknown) {
      res = z3::unknown;
      unknownWhy = s.reason_unknown();
    }
    s.pop();
  }
  return res;
}

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

// Turns the float tensor constants that feed only elementwise ops into
// arguments (their values appended to `extra`): the lowering pipeline that
// replays a counterexample must not fold them (its folders may be the bug).
void liftConstants(func::FuncOp f, Inputs &extra) {
  static const llvm::StringSet<> kElementwise = {
      "tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum", "tosa.minimum",
      "tosa.pow", "tosa.equal", "tosa.greater", "tosa.greater_equal",
      "tosa.select", "arith.addf", "arith.subf", "arith.mulf", "arith.divf"};
  std::vector<Operation *> consts;
  f.walk([&](Operation *op) {
    if (op->getParentOp() != f.getOperation() || op->getNumResults() != 1)
      return;
    StringRef n = op->getName().getStringRef();
    if (n != "tosa.const" && n != "arith.constant")
      return;
    auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!rt || !rt.hasStaticShape() || !isa<FloatType>(rt.getElementType()) ||
        !dtypeOf(rt))
      return;
    for (OpOperand &use : op->getResult(0).getUses()) {
      StringRef u = use.getOwner()->getName().getStringRef();
      if (!kElementwise.contains(u) || (u == "tosa.mul" && use.getOperandNumber() > 1))
        return;
    }
    consts.push_back(op);
  });
  for (Operation *op : consts) {
    auto rt = cast<RankedTensorType>(op->getResult(0).getType());
    auto dense = dyn_cast_or_null<DenseElementsAttr>(
        op->getAttr(op->getName().getStringRef() == "tosa.const" ? "values" : "value"));
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

// The JIT runs functions of tensors only. replayMain wraps `f` into
// @cc_replay_main, whose arguments and results are tensors: a scalar
// travels as a 0-d tensor (index as i64), a memref argument as a tensor
// that is copied into a fresh buffer, and the final contents of those
// buffers follow the function's results. `argShapes` are the static shapes
// of the memref arguments (others are ignored).
func::FuncOp replayMain(func::FuncOp f,
                        const std::vector<std::vector<int64_t>> &argShapes) {
  MLIRContext *ctx = f.getContext();
  Location loc = f.getLoc();
  auto boundary = [&](Type t, const std::vector<int64_t> &shape) -> Type {
    if (auto mt = dyn_cast<MemRefType>(t))
      return RankedTensorType::get(shape, mt.getElementType());
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
  for (Type t : f.getResultTypes())
    outs.push_back(boundary(t, {}));
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
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    Value a = entry->getArgument(unsigned(i));
    if (auto mt = dyn_cast<MemRefType>(t)) {
      auto staticType = MemRefType::get(
          cast<RankedTensorType>(a.getType()).getShape(), mt.getElementType());
      Value buf = memref::AllocOp::create(b, loc, staticType);
      auto copy = bufferization::MaterializeInDestinationOp::create(b, loc, a, buf);
      copy.setWritable(true);
      copy.setRestrict(true);
      buffers.push_back(buf);
      callArgs.push_back(staticType == mt ? buf
                                          : memref::CastOp::create(b, loc, mt, buf).getResult());
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
    if (x.getType() != t) {
      if (isa<IndexType>(x.getType()))
        x = arith::IndexCastOp::create(b, loc, IntegerType::get(ctx, 64), x);
      x = tensor::FromElementsOp::create(b, loc, t, ValueRange{x});
    }
    results.push_back(x);
  }
  for (Value buf : buffers) {
    auto tt = RankedTensorType::get(cast<MemRefType>(buf.getType()).getShape(),
                                    cast<MemRefType>(buf.getType()).getElementType());
    auto t = bufferization::ToTensorOp::create(b, loc, tt, buf);
    t.setRestrict(true);
    results.push_back(t);
  }
  func::ReturnOp::create(b, loc, results);
  return main;
}

// How a replay ended.
struct Replay {
  enum Kind { Differ, Agree, TargetFailed, NotRun } kind;
  std::string why;
  Outputs target = {}; // the target's outputs, where it ran
};

// Equal as the JIT computes them: NaNs alike, zeros by sign.
bool sameValue(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) ||
         (x == y && std::signbit(x) == std::signbit(y));
}

// Replays the counterexample `inputs` (one per argument; memref arguments
// as tensors of their contents) through the JIT and compares both sides'
// outputs (results, then the final contents of memref arguments) where
// `mask` says the source's element is defined.
Replay replay(func::FuncOp src, func::FuncOp tgt, const Inputs &inputs,
              const std::vector<std::vector<int64_t>> &outShapes,
              const std::vector<std::vector<bool>> &mask,
              double tolerance = 0) {
  std::vector<std::vector<int64_t>> argShapes, resShapes;
  for (const Tensor &t : inputs)
    argShapes.push_back(t.shape());
  size_t numResults = src.getNumResults();
  resShapes.assign(outShapes.begin(), outShapes.begin() + long(numResults));
  std::vector<TensorType> outTypes;
  std::optional<Replay> bad;
  auto printModule = [&](func::FuncOp f, Inputs &ins) {
    OwningOpRef<ModuleOp> m(
        cast<ModuleOp>(f->getParentOfType<ModuleOp>()->clone()));
    auto g = m->lookupSymbol<func::FuncOp>(f.getSymName());
    specialize(g, argShapes, resShapes);
    liftConstants(g, ins);
    restrictToTensors(g);
    std::vector<std::vector<int64_t>> shapes = argShapes;
    for (size_t k = argShapes.size(); k < ins.size(); ++k)
      shapes.push_back(ins[k].shape());
    func::FuncOp main = replayMain(g, shapes);
    outTypes.clear();
    for (auto [t, shape] : llvm::zip(main.getResultTypes(), outShapes)) {
      auto dt = dtypeOf(t);
      if (!dt)
        bad = Replay{Replay::NotRun, "an output of type " + str(t)};
      else
        outTypes.push_back(TensorType{*dt, Shape(shape)});
    }
    std::string s;
    llvm::raw_string_ostream os(s);
    m->print(os);
    return s;
  };
  Inputs srcIns = inputs, tgtIns = inputs;
  std::string srcText = printModule(src, srcIns),
              tgtText = printModule(tgt, tgtIns);
  if (bad)
    return *bad;
  Expected<NamedPipeline> pl = replayPipeline();
  if (!pl)
    return {Replay::NotRun, pl.error().message()};
  RunOptions ro;
  ro.timeoutSeconds = 20;
  auto a = runMlirModule(srcText, "cc_replay_main", outTypes, srcIns,
                         pl->pipeline, pl->llvmOptLevel, ro);
  if (!a)
    return {Replay::NotRun,
            "source did not run: " + a.error().message().substr(0, 300)};
  auto b = runMlirModule(tgtText, "cc_replay_main", outTypes, tgtIns,
                         pl->pipeline, pl->llvmOptLevel, ro);
  if (!b) {
    const std::string &code = b.error().code();
    bool failed = code == ErrorCode::CompilerFailure || code == ErrorCode::Timeout;
    return {failed ? Replay::TargetFailed : Replay::NotRun,
            "target did not run: " + b.error().message().substr(0, 300)};
  }
  for (size_t r = 0; r < a->size(); ++r) {
    // With a tolerance, differences within it (of the output's largest
    // magnitude) are rounding, not a difference.
    double scale = 1;
    for (int64_t i = 0; i < (*a)[r].size(); ++i)
      if (std::isfinite((*a)[r].asDouble(i)))
        scale = std::max(scale, std::abs((*a)[r].asDouble(i)));
    for (int64_t i = 0; i < (*a)[r].size(); ++i) {
      if (r < mask.size() && size_t(i) < mask[r].size() && !mask[r][i])
        continue;
      double x = (*a)[r].asDouble(i), y = (*b)[r].asDouble(i);
      bool same = sameValue(x, y) ||
                  (tolerance > 0 && std::abs(x - y) <= tolerance * scale);
      if (!same)
        return {Replay::Differ, "", std::move(*b)};
    }
  }
  return {Replay::Agree, "", std::move(*b)};
}

// For programs too large to refine an abstract counterexample: runs both
// sides on a few seeded random inputs (small integers, so that short sums
// are exact whatever their order) and compares their outputs within a few
// rounding errors of the outputs' type (at least 1e-3) of their magnitude. Only for a total source (no undefined behaviour or
// poison in its encoding): then any difference is a miscompile. Returns the
// differing inputs, formatted, or nothing.
std::optional<std::string>
randomExecution(func::FuncOp src, func::FuncOp tgt,
                const std::vector<SVal> &args, const std::vector<SVal> &outs) {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<bool>> mask;
  for (const SVal &o : outs) {
    shapes.push_back(o.shape);
    mask.emplace_back(size_t(o.size()), true);
  }
  Rng rng(0x7e57);
  for (int trial = 0; trial < 3; ++trial) {
    Inputs inputs;
    std::ostringstream shown;
    for (auto [i, t] : llvm::enumerate(src.getArgumentTypes())) {
      auto dt = dtypeOf(t);
      if (!dt || isa<IndexType>(getElementTypeOrSelf(t)))
        return std::nullopt;
      Tensor x(*dt, Shape(args[i].shape));
      shown << "  %arg" << i << " = [";
      for (int64_t k = 0; k < x.size(); ++k) {
        int64_t v = *dt == DType::i1 ? rng.uniformInt(0, 1) : rng.uniformInt(-2, 2);
        isFloat(*dt) ? x.setF(k, double(v)) : x.setI(k, v);
        if (k < 16)
          shown << (k ? ", " : "") << v;
      }
      shown << (x.size() > 16 ? ", ...]\n" : "]\n");
      inputs.push_back(std::move(x));
    }
    // 16 ulps of the coarsest float result (bf16: 0.125), at least 1e-3.
    double tolerance = 1e-3;
    for (Type t : src.getResultTypes())
      if (auto ft = dyn_cast<FloatType>(getElementTypeOrSelf(t)))
        tolerance = std::max(tolerance, std::ldexp(16.0, 1 - int(ft.getFPMantissaWidth())));
    Replay r = replay(src, tgt, inputs, shapes, mask, tolerance);
    if (r.kind == Replay::Differ)
      return shown.str();
    if (r.kind != Replay::Agree)
      return std::nullopt;
  }
  return std::nullopt;
}

// Checks a few disjuncts alone, briefly: when a large function is wrong,
// most of its outputs usually are, and one of them is a fast query where
// the whole disjunction is not. Leaves the solver holding the model.
bool sampleDisjuncts(z3::solver &s, const z3::expr &pre,
                     const std::vector<z3::expr> &disj) {
  for (size_t k : {size_t(0), disj.size() / 2, disj.size() - 1}) {
    z3::params prm(s.ctx());
    prm.set("timeout", 200u);
    s.set(prm);
    s.push();
    s.add(pre && disj[k]);
    if (s.check() == z3::sat)
      return true;
    s.pop();
  }
  return false;
}

Attempt attempt(func::FuncOp src, func::FuncOp tgt, FMode mode,
                const TvOptions &o) {
  z3::context c;
  Encoder es(c, mode, o), et(c, mode, o);
  std::vector<SVal> args;
  auto argTypes = src.getFunctionType().getInputs();
  for (size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(es.fresh("arg" + std::to_string(i), argTypes[i]));
  std::vector<SVal> os, ot;
  try {
    os = es.encodeCall(src, args, 0);
  } catch (const EncodeFailure &f) {
    return {TvVerdict::Unknown, "unsupported in source: " + f.reason};
  }
  try {
    ot = et.encodeCall(tgt, args, 0);
  } catch (const EncodeFailure &f) {
    return {TvVerdict::Unknown, "unsupported in target: " + f.reason};
  }
  // Memref arguments are outputs too: their final contents follow the
  // results.
  size_t numResults = os.size();
  std::vector<unsigned> memArgs;
  for (auto [i, blk] : es.argBlocks) {
    memArgs.push_back(i);
    SVal sm, tm;
    sm.shape = tm.shape = args[i].shape;
    for (int64_t k = 0; k < args[i].size(); ++k) {
      z3::expr at = c.bv_val(uint64_t(k), 64);
      for (auto [e, out] : {std::pair{&es, &sm}, std::pair{&et, &tm}}) {
        const MemBlock &mb = e->mem[size_t(e->argBlocks.at(i))];
        out->v.push_back(z3::select(mb.v, at).simplify());
        out->p.push_back(z3::select(mb.p, at).simplify());
      }
    }
    os.push_back(std::move(sm));
    ot.push_back(std::move(tm));
  }
  auto outName = [&](size_t r) {
    return r < numResults ? "result " + std::to_string(r)
                          : "memory %arg" + std::to_string(memArgs[r - numResults]);
  };
  // A counterexample: the source is defined, and the target is undefined or
  // differs at an element where the source is not poison.
  std::vector<z3::expr> disj{et.ub};
  std::string shapeNote;
  for (size_t r = 0; r < os.size(); ++r) {
    if (os[r].shape != ot[r].shape) {
      disj.push_back(c.bool_val(true));
      shapeNote = outName(r) + " has a different shape";
      continue;
    }
    // Elements that are the same term on both sides (Z3 shares equal
    // terms) cannot differ: a pass usually leaves most of a graph alone.
    // Integer terms are compared after Z3's normalization (sums and
    // products flattened and sorted), which meets reordered integer sums.
    for (int64_t i = 0; i < os[r].size(); ++i) {
      z3::expr sv = os[r].v[i], tv = ot[r].v[i];
      if (sv.get_sort().is_bv() && !z3::eq(sv, tv)) {
        sv = sv.simplify();
        tv = tv.simplify();
      }
      if (!z3::eq(sv, tv) || !z3::eq(os[r].p[i], ot[r].p[i]))
        disj.push_back(!os[r].p[i] && (ot[r].p[i] || sv != tv));
    }
  }
  // One flat disjunction: a nested chain of 2-ary ors costs Z3 quadratic
  // time on large outputs.
  z3::expr_vector dv(c);
  for (const z3::expr &d : disj)
    dv.push_back(d);
  z3::expr bad = z3::mk_or(dv);
  z3::solver s(c);
  z3::params prm(c);
  prm.set("timeout", o.timeoutMs);
  s.set(prm);
  s.add(!es.ub && bad);
  // Printing the query is costly on large functions: only for the cache.
  std::string key =
      o.cacheDir.empty()
          ? ""
          : cachePath(o, std::string(mode == FMode::Abstract ? "A" : "I") +
                             s.to_smt2());
  std::vector<std::string> notes;
  if (es.usedDynamic || et.usedDynamic) {
    std::string sz;
    for (int64_t d : o.dynamicSizes)
      sz += (sz.empty() ? "" : ",") + std::to_string(d);
    notes.push_back("dynamic dimensions instantiated with sizes " + sz);
  }
  if (es.usedReassoc || et.usedReassoc)
    notes.push_back("correct up to reassociation of float sums");
  if (es.usedUf || et.usedUf)
    notes.push_back("math functions uninterpreted");
  std::set<std::string> opaque = es.opaqueOps;
  opaque.insert(et.opaqueOps.begin(), et.opaqueOps.end());
  if (!opaque.empty()) {
    std::string names;
    for (const std::string &n : opaque)
      names += (names.empty() ? "" : ", ") + n;
    notes.push_back("uninterpreted ops: " + names);
  }
  auto joined = [&] {
    std::string r;
    for (auto &x : notes)
      r += (r.empty() ? "" : "; ") + x;
    return r;
  };
  z3::check_result res;
  std::string unknownWhy;
  z3::expr_vector probeVars(c), probeVals(c);
  bool probed = false;
  if (mode == FMode::Ieee) {
    std::optional<Assignment> hit = probe(c, args, !es.ub && bad);
    if (hit) {
      probed = true;
      probeVars = hit->vars;
      probeVals = hit->vals;
    }
  }
  if (probed) {
    res = z3::sat; // a probe input is a counterexample: no search needed
  } else if (!key.empty() && std::filesystem::exists(key)) {
    res = z3::unsat;
    notes.push_back("cached");
  } else if (mode == FMode::Ieee && disj.size() <= 1024) {
    // IEEE queries are much faster one output element at a time: the
    // disjunction is unsatisfiable iff each disjunct is.
    res = decompose(s, !es.ub, disj, o.timeoutMs, unknownWhy);
  } else if (disj.size() > 1024 && sampleDisjuncts(s, !es.ub, disj)) {
    res = z3::sat;
  } else {
    s.set(prm);
    res = s.check();
    if (res == z3::unknown)
      unknownWhy = s.reason_unknown();
  }
  if (res == z3::unsat) {
    if (!z3::expr(es.ub).simplify().is_false()) {
      z3::solver v(c);
      v.set(prm);
      v.add(!es.ub);
      if (v.check() == z3::unsat) {
        Attempt a{TvVerdict::Unknown,
                  "vacuous: the source is undefined for every input"};
        a.vacuous = true;
        return a;
      }
    }
    if (!key.empty())
      std::ofstream(key) << "unsat\n";
    return {TvVerdict::Correct, joined()};
  }
  if (res == z3::unknown) {
    std::string why = unknownWhy;
    if (why.find("timeout") != std::string::npos ||
        why.find("canceled") != std::string::npos)
      return {TvVerdict::Timeout, "solver timeout after " +
                                      std::to_string(o.timeoutMs) + " ms"};
    return {TvVerdict::Unknown, "solver: " + why};
  }
  unsigned fops = es.floatOps + et.floatOps;
  if (mode == FMode::Abstract) {
    if (fops > 2 * o.maxFpOps) {
      std::string why = "abstract floats found a counterexample; too many "
                        "float operations (" + std::to_string(fops) +
                        ") to refine";
      bool total = z3::expr(es.ub).simplify().is_false();
      for (const SVal &x : os)
        for (const z3::expr &p : x.p)
          total = total && p.simplify().is_false();
      if (!total || !o.confirm)
        return {TvVerdict::Unknown, why};
      if (auto cex = randomExecution(src, tgt, args, os))
        return {TvVerdict::Incorrect,
                "counterexample confirmed by execution (seeded random "
                "inputs; the symbolic one was too large to refine)",
                *cex};
      return {TvVerdict::Unknown, why + "; 3 random inputs agree"};
    }
    Attempt a{TvVerdict::Unknown, "abstract counterexample"};
    a.needsRefinement = true;
    return a;
  }
  // A concrete counterexample.
  Eval eval;
  std::optional<z3::model> model;
  if (probed) {
    eval = [&](const z3::expr &e) {
      z3::expr x = e;
      return x.substitute(probeVars, probeVals).simplify();
    };
  } else {
    model = s.get_model();
    eval = [&](const z3::expr &e) { return model->eval(e, true); };
  }
  std::ostringstream cex;
  Inputs inputs;
  std::string notReplayable;
  for (size_t i = 0; i < args.size(); ++i) {
    Type t = argTypes[i];
    // Index scalars travel as i64 (replayMain).
    auto dt = isa<IndexType>(t) ? std::optional(DType::i64) : dtypeOf(t);
    if (!dt)
      notReplayable = "an argument of type " + str(t);
    cex << "  %arg" << i << " = [";
    Tensor tensor(dt.value_or(DType::f32), Shape(args[i].shape));
    for (int64_t k = 0; k < args[i].size(); ++k) {
      double d =
          modelValue(eval, args[i].v[k], getElementTypeOrSelf(t), c).value_or(0);
      cex << (k ? ", " : "") << fmtValue(d);
      if (dt)
        isFloat(*dt) ? tensor.setF(k, d) : tensor.setI(k, int64_t(d));
    }
    cex << "]\n";
    inputs.push_back(std::move(tensor));
  }
  std::vector<std::vector<bool>> mask;
  // The source's outputs (nothing where the model leaves them open).
  std::vector<std::vector<std::optional<double>>> expected;
  for (size_t r = 0; r < os.size(); ++r) {
    Type elt = getElementTypeOrSelf(
        r < numResults ? src.getFunctionType().getResult(r)
                       : argTypes[memArgs[r - numResults]]);
    mask.emplace_back();
    expected.emplace_back();
    auto show = [&](const SVal &x, bool isSource) {
      std::string out;
      for (int64_t i = 0; i < x.size(); ++i) {
        bool poison = eval(x.p[i]).is_true();
        std::optional<double> d =
            poison ? std::nullopt : modelValue(eval, x.v[i], elt, c);
        if (isSource) {
          mask.back().push_back(!poison);
          expected.back().push_back(d);
        }
        out += (i ? ", " : "") + (poison ? std::string("poison")
                                  : d    ? fmtValue(*d)
                                         : std::string("?"));
      }
      return out;
    };
    cex << "  source " << outName(r) << " = [" << show(os[r], true) << "]\n";
    cex << "  target " << outName(r) << " = [" << show(ot[r], false) << "]\n";
  }
  bool targetUb = eval(et.ub).is_true();
  if (targetUb)
    cex << "  the target has undefined behaviour\n";
  if (!shapeNote.empty())
    cex << "  " << shapeNote << "\n";
  if (!o.confirm)
    return {TvVerdict::Incorrect, "counterexample not replayed (--no-confirm)",
            cex.str()};
  if (!notReplayable.empty())
    return {TvVerdict::Unknown,
            "counterexample not confirmed: " + notReplayable + " cannot be replayed",
            cex.str()};
  std::vector<std::vector<int64_t>> shapes;
  for (const SVal &r : os)
    shapes.push_back(r.shape);
  Replay rp = replay(src, tgt, inputs, shapes, mask);
  if (rp.kind == Replay::Differ)
    return {TvVerdict::Incorrect, "counterexample confirmed by execution",
            cex.str()};
  // Undefined behaviour has no defined outcome to compare; a target that
  // fails to compile or run where the source runs confirms it.
  if (rp.kind == Replay::TargetFailed && targetUb)
    return {TvVerdict::Incorrect,
            "counterexample confirmed: the target has undefined behaviour on "
            "these inputs and fails where the source runs (" + rp.why + ")",
            cex.str()};
  if (rp.kind == Replay::Agree && targetUb)
    return {TvVerdict::Unknown,
            "counterexample not confirmed: the target has undefined behaviour "
            "on these inputs, but its compiled code computes what the source "
            "does",
            cex.str()};
  // A TOSA source runs through the same lowering as the target, so a bug
  // in that lowering makes both agree. Where the source's encoding is exact
  // (no uninterpreted function, no sum whose order the encoding leaves
  // open), its value on the inputs is TOSA's
  // semantics (the encoding agrees with the reference interpreter op by op):
  // the target's compiled code is compared with that.
  bool tosaSource = false;
  src.walk([&](Operation *op) {
    tosaSource |= op->getName().getDialectNamespace() == "tosa";
  });
  if (rp.kind == Replay::Agree && tosaSource && !es.usedUf &&
      !es.usedReassoc && es.opaqueOps.empty())
    for (size_t r = 0; r < rp.target.size() && r < expected.size(); ++r)
      for (int64_t i = 0; i < rp.target[r].size(); ++i)
        if (std::optional<double> want = expected[r][size_t(i)];
            mask[r][size_t(i)] && want &&
            !sameValue(*want, rp.target[r].asDouble(i)) &&
            // The sign of a zero maximum or minimum depends on order in
            // the reference; not a difference here.
            !(*want == 0 && rp.target[r].asDouble(i) == 0))
          return {TvVerdict::Incorrect,
                  "counterexample confirmed by execution against TOSA's "
                  "semantics: the target's compiled code gives " +
                      fmtValue(rp.target[r].asDouble(i)) + " at " +
                      outName(r) + "[" + std::to_string(i) +
                      "], TOSA gives " + fmtValue(*expected[r][size_t(i)]) +
                      " (the source, lowered the same way, agrees with the "
                      "target: the shared lowering is wrong)",
                  cex.str()};
  std::string note = opaque.empty() ? "" : " (" + notes.back() + ")";
  if (rp.kind == Replay::Agree)
    return {TvVerdict::Unknown,
            "spurious counterexample (both sides agree when executed)" + note,
            cex.str()};
  return {TvVerdict::Unknown, "counterexample not confirmed: " + rp.why + note,
          cex.str()};
}

// A copy of `f` in its own module (with the functions it may call) whose
// named linalg ops are generalized: their generic form is their definition.
OwningOpRef<ModuleOp> generalizedCopy(func::FuncOp f) {
  ModuleOp parent = f->getParentOfType<ModuleOp>();
  OwningOpRef<ModuleOp> m(cast<ModuleOp>(parent->clone()));
  IRRewriter rewriter(f.getContext());
  m->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op.getOperation()))
      return;
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  });
  return m;
}

} // namespace

std::string signatureMismatch(func::FuncOp src, func::FuncOp tgt) {
  if (src.getFunctionType() == tgt.getFunctionType())
    return "";
  std::string a, b;
  llvm::raw_string_ostream as(a), bs(b);
  as << src.getFunctionType();
  bs << tgt.getFunctionType();
  return "@" + src.getSymName().str() + " has type " + a +
         " in the source but " + b + " in the target";
}

FunctionCheck checkFunctionPair(func::FuncOp src, func::FuncOp tgt,
                                const TvOptions &o) {
  auto t0 = std::chrono::steady_clock::now();
  FunctionCheck r;
  r.function = src.getSymName().str();
  auto finish = [&](Attempt a) {
    r.verdict = a.verdict;
    r.reason = a.reason;
    r.counterexample = a.counterexample;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                    .count();
    return r;
  };
  // Structurally identical functions (up to value names and locations)
  // need no query.
  llvm::DenseMap<Value, Value> same;
  if (OperationEquivalence::isEquivalentTo(
          src, tgt,
          [&](Value a, Value b) { return success(same.lookup(a) == b); },
          [&](Value a, Value b) { same[a] = b; },
          OperationEquivalence::IgnoreLocations))
    return finish({TvVerdict::Correct, "identical"});
  auto gs = generalizedCopy(src), gt = generalizedCopy(tgt);
  auto fs = gs->lookupSymbol<func::FuncOp>(src.getSymName());
  auto ft = gt->lookupSymbol<func::FuncOp>(tgt.getSymName());
  bool hasFloat = false;
  for (func::FuncOp f : {fs, ft})
    f.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        hasFloat |= Encoder::isFloat(t);
      for (Type t : op->getOperandTypes())
        hasFloat |= Encoder::isFloat(t);
    });
  try {
    // Dynamic sizes that make the source undefined everywhere (a dimension
    // that must be 1) are retried with unit sizes.
    // Larger sizes last: a subview or slice of a fixed size may need them.
    TvOptions square = o, unit = o, four = o;
    square.dynamicSizes = {2};
    unit.dynamicSizes = {1};
    four.dynamicSizes = {4};
    std::vector<const TvOptions *> tries{&o, &square, &unit, &four};
    for (const TvOptions *opts : tries) {
      if (hasFloat) {
        Attempt a = attempt(fs, ft, FMode::Abstract, *opts);
        if (a.vacuous && opts != tries.back())
          continue;
        if (!a.needsRefinement)
          return finish(a);
      }
      // Replay runs the generalized copies: same semantics as the originals.
      Attempt a = attempt(fs, ft, FMode::Ieee, *opts);
      if (a.vacuous && opts != tries.back())
        continue;
      return finish(a);
    }
    return finish({TvVerdict::Unknown, "vacuous"});
  } catch (const EncodeFailure &f) {
    return finish({TvVerdict::Unknown, "unsupported: " + f.reason});
  } catch (const z3::exception &e) {
    return finish({TvVerdict::Unknown, std::string("z3: ") + e.msg()});
  }
}

} // namespace cc::smt
