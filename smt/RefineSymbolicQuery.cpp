// Symbolic sizes (RefineSymbolic.cpp): the query. The arguments at
// symbolic sizes, shared by both sides; the violation at one free point
// per output; a proof, or the sizes of a small counterexample for the
// instantiated check.
#include "smt/RefineSymbolic.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace cc::smt::detail {

using namespace mlir;

namespace {

bool dynamic(Type t) {
  auto st = dyn_cast<ShapedType>(t);
  return st && st.hasRank() && !st.hasStaticShape();
}

// Values of dynamic size inside (a slice of a size given by an argument).
bool dynamicInside(func::FuncOp f) {
  return f
      .walk([](Operation *op) {
        return llvm::any_of(op->getResultTypes(), dynamic)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

// An argument's sizes: an input per dynamic dimension. `fits`: each
// dynamic size times the static ones is an index (below 2^63), as for any
// tensor in memory (the whole product would be a nonlinear fact, costly
// to decide).
Exprs argDims(z3::context &c, ShapedType t, const std::string &name,
              SymbolicArgs &a) {
  Exprs dims;
  uint64_t fixed = 1;
  for (int64_t d : t.getShape())
    if (!ShapedType::isDynamic(d) && d > 0)
      fixed *= uint64_t(d);
  for (int64_t k = 0; k < t.getRank(); ++k) {
    int64_t d = t.getDimSize(k);
    if (!ShapedType::isDynamic(d)) {
      dims.push_back(c.bv_val(uint64_t(d), 64));
      continue;
    }
    a.sizes.push_back(
        c.bv_const((name + "_dim" + std::to_string(k)).c_str(), 64));
    dims.push_back(a.sizes.back());
    a.fits = a.fits && z3::ult(z3::zext(dims.back(), 64) * c.bv_val(fixed, 128),
                               c.bv_val(uint64_t(1) << 63, 128));
  }
  return dims;
}

// An argument's elements: an array from its indices (rank 0: one, 0) to
// elements of sort `elt`, never poison.
Lazy argRule(z3::context &c, const std::string &name, Exprs dims,
             z3::sort elt) {
  if (dims.empty())
    dims.push_back(c.bv_val(1, 64));
  z3::sort_vector dom(c);
  for (size_t k = 0; k < dims.size(); ++k)
    dom.push_back(c.bv_sort(64));
  z3::expr arr = c.constant(name.c_str(), c.array_sort(dom, elt));
  return Lazy{std::move(dims), [arr](const Exprs &q) {
                z3::expr_vector is(arr.ctx());
                for (const z3::expr &x : q)
                  is.push_back(x);
                if (is.empty())
                  is.push_back(arr.ctx().bv_val(0, 64));
                return Elem{z3::select(arr, is), arr.ctx().bool_val(false)};
              }};
}

// A memref argument of identity layout: a writable block of its sizes, or
// the block of the argument `aliasOf` names.
void memrefArg(Encoder &e, unsigned i, MemRefType t, int aliasOf,
               SymbolicArgs &a) {
  z3::context &c = e.c;
  if (!t.getLayout().isIdentity())
    unsupported("argument type " + str(t));
  if (aliasOf >= 0) {
    a.blockOf[i] = a.blockOf.at(unsigned(aliasOf));
    return;
  }
  std::string name = "arg" + std::to_string(i);
  Lazy data =
      argRule(c, name, argDims(c, t, name, a), e.sortOf(t.getElementType()));
  SymBlock b{std::move(data), true, true, false,
             c.bool_const(("deref_arg" + std::to_string(i)).c_str())};
  a.blockOf[i] = int(a.blocks.size());
  a.blocks.push_back(std::move(b));
}

// The arguments: a tensor is an array from its indices to its elements,
// with a size per dimension; a memref a block (memrefArg).
SymbolicArgs makeArgs(func::FuncOp f, Encoder &e,
                      const std::vector<int> &aliasOf) {
  z3::context &c = e.c;
  SymbolicArgs a{{}, {}, {}, {}, {}, c.bool_val(true)};
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    a.tensors.push_back({});
    a.scalars.push_back({});
    if (auto mt = dyn_cast<MemRefType>(t)) {
      memrefArg(e, unsigned(i), mt, i < aliasOf.size() ? aliasOf[i] : -1, a);
      continue;
    }
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt) {
      if (isa<ShapedType>(t))
        unsupported("argument type " + str(t));
      a.scalars.back() =
          e.scalar(c.constant(name.c_str(), e.sortOf(t)), c.bool_val(false));
      continue;
    }
    Lazy &l = a.tensors.back();
    l = argRule(c, name, argDims(c, rt, name, a),
                e.sortOf(rt.getElementType()));
    if (rt.getRank() == 0)
      l.dims.clear();
  }
  return a;
}

// One float mode: the violation at one free point per output, under
// sizes an index may hold.
class SymbolicQuery {
public:
  SymbolicQuery(func::FuncOp src, func::FuncOp tgt, FMode mode,
                const TvOptions &o, std::vector<int> aliasOf)
      : src(src), tgt(tgt), o(o), aliasOf(std::move(aliasOf)), es(c, mode, o),
        et(c, mode, o), ps(es, args, "src"), pt(et, args, "tgt") {}
  SymbolicCheck run();

private:
  void violation();
  SymbolicCheck proof();
  SymbolicCheck smallCounterexample(const Limits &lim);

  func::FuncOp src, tgt;
  const TvOptions &o;
  std::vector<int> aliasOf;
  z3::context c;
  Encoder es, et;
  SymbolicArgs args{{}, {}, {}, {}, {}, c.bool_val(true)};
  // The outputs' rules read the encodings: they live as long as the query.
  Points ps, pt;
  std::vector<Lazy> os, ot;
  z3::expr defined = c.bool_val(true);
  z3::expr_vector bad{c};
};

SymbolicCheck SymbolicQuery::run() {
  try {
    args = makeArgs(src, es, aliasOf);
    os = ps.run(src);
    ot = pt.run(tgt);
    violation();
  } catch (const EncodeFailure &f) {
    return {std::nullopt, {}, f.reason};
  }
  if (!(es.pastBound || et.pastBound).simplify().is_false())
    return {std::nullopt, {}, "a loop of unknown trip count"};
  Limits lim{o.timeoutMs / 2, o.rlimit / 2};
  std::optional<z3::model> model;
  std::string why;
  if (checkAlone(c, defined, lim, model, why) == z3::unsat)
    return {std::nullopt, {}, "the source is undefined at every size"};
  switch (checkAlone(c, defined && z3::mk_or(bad), lim, model, why)) {
  case z3::unsat:
    return proof();
  case z3::unknown:
    return {
        std::nullopt, {}, "no proof within the limit (" + why + ")", {}, true};
  case z3::sat:
    break;
  }
  if (es.mode == FMode::Abstract)
    return {std::nullopt,
            {},
            "a counterexample with floats uninterpreted",
            {},
            true};
  return smallCounterexample(lim);
}

// `bad`: the target undefined at a point of its own, or an output of
// another size or another element at a free point. `defined`: the source
// defined at those points.
void SymbolicQuery::violation() {
  bad.push_back(et.ub);
  std::vector<Exprs> witnesses;
  for (const Points::PointUb &u : pt.pointUbs) {
    bad.push_back(u.holdsAt(u.q));
    witnesses.push_back(u.q);
  }
  for (size_t r = 0; r < os.size(); ++r) {
    z3::expr differ = c.bool_val(false);
    for (auto [a, b] : llvm::zip(os[r].dims, ot[r].dims))
      differ = differ || a != b;
    Exprs q;
    for (size_t k = 0; k < os[r].dims.size(); ++k)
      q.push_back(c.bv_const(
          ("out" + std::to_string(r) + "_at" + std::to_string(k)).c_str(), 64));
    z3::expr before = es.ub;
    Elem s = os[r].at(q);
    Elem t = ot[r].at(q);
    es.ub = before;
    bad.push_back(differ || (below(c, q, os[r].dims) && !s.second &&
                             (t.second || s.first != t.first)));
    witnesses.push_back(q);
  }
  // The memref arguments' final contents, at a free index of each block.
  for (size_t b = 0; b < args.blocks.size(); ++b) {
    const Exprs &dims = args.blocks[b].data.dims;
    Exprs q;
    for (size_t k = 0; k < dims.size(); ++k)
      q.push_back(c.bv_const(
          ("mem" + std::to_string(b) + "_at" + std::to_string(k)).c_str(), 64));
    Elem s = ps.read(ps.blocks[b], q), t = pt.read(pt.blocks[b], q);
    bad.push_back(below(c, q, dims) && !s.second &&
                  (t.second || s.first != t.first));
    witnesses.push_back(q);
  }
  defined = args.fits && !es.ub;
  for (const Points::PointUb &u : ps.pointUbs)
    for (const Exprs &w : witnesses)
      if (w.size() == u.q.size())
        defined = defined && !u.holdsAt(w);
}

SymbolicCheck SymbolicQuery::proof() {
  std::vector<std::string> notes;
  if (!args.sizes.empty())
    notes.push_back("at every size of the dynamic dimensions");
  for (std::string &n : encodingNotes(es, et))
    notes.push_back(std::move(n));
  if (std::string opaque = opaqueNote(es, et); !opaque.empty())
    notes.push_back(opaque);
  return {Attempt{TvVerdict::Correct, joinNotes(notes)}, {}, ""};
}

// Small sizes of a counterexample, to replay it: no size 0 first (an
// empty tensor shows no value).
SymbolicCheck SymbolicQuery::smallCounterexample(const Limits &lim) {
  SymbolicCheck r{
      std::nullopt, {}, "a counterexample only at sizes above 64", {}, true};
  for (auto [lo, cap] : {std::pair{1, 2}, {1, 4}, {0, 4}, {1, 16}, {0, 64}}) {
    z3::expr small = c.bool_val(true);
    for (const z3::expr &s : args.sizes)
      small = small && z3::ule(s, c.bv_val(uint64_t(cap), 64)) &&
              z3::uge(s, c.bv_val(uint64_t(lo), 64));
    std::optional<z3::model> m;
    std::string why;
    if (checkAlone(c, defined && small && z3::mk_or(bad), lim, m, why) !=
        z3::sat)
      continue;
    std::string at;
    for (const z3::expr &s : args.sizes) {
      r.sizes.push_back(m->eval(s, true).get_numeral_int64());
      at += (at.empty() ? "" : ",") + std::to_string(r.sizes.back());
    }
    for (auto [i, t] : llvm::enumerate(src.getArgumentTypes()))
      if (t.isIndex())
        r.indexArgs[unsigned(i)] =
            m->eval(args.scalars[i].v[0], true).get_numeral_int64();
    r.why = "a counterexample at sizes " + at;
    r.counterexample = true;
    return r;
  }
  return r;
}

// IEEE first: at one point a query is small, and Z3 bit-blasts it at
// once (with abstract floats it searches, slowly, over index arithmetic).
// Abstract floats then where a float sum's order or a math function may
// be what differs.
SymbolicCheck checkModes(func::FuncOp src, func::FuncOp tgt, const TvOptions &o,
                         const std::vector<int> &aliasOf) {
  try {
    SymbolicCheck r = SymbolicQuery(src, tgt, FMode::Ieee, o, aliasOf).run();
    if (r.proved || !r.posed || !hasFloats(src, tgt))
      return r;
    SymbolicCheck a =
        SymbolicQuery(src, tgt, FMode::Abstract, o, aliasOf).run();
    return a.proved ? a : r;
  } catch (const z3::exception &x) {
    return {std::nullopt, {}, std::string("not encoded (") + x.msg() + ")"};
  }
}

// Distinct buffers, then each way memref arguments may share one.
SymbolicCheck checkEverySize(func::FuncOp src, func::FuncOp tgt,
                             const TvOptions &o) {
  SymbolicCheck r = checkModes(src, tgt, o, {});
  if (!r.proved)
    return r;
  for (const std::vector<int> &aliasOf : aliasings(src, true)) {
    SymbolicCheck a = checkModes(src, tgt, o, aliasOf);
    if (!a.proved) {
      a.why = "with " + describeAliasing(aliasOf) + ": " + a.why;
      a.aliasOf = aliasOf;
      return a;
    }
  }
  if (llvm::count_if(src.getArgumentTypes(), llvm::IsaPred<MemRefType>) > 1)
    r.proved->reason = joinNotes({r.proved->reason, aliasNote()});
  return r;
}

} // namespace

SymbolicCheck checkSymbolic(func::FuncOp src, func::FuncOp tgt,
                            const TvOptions &o) {
  bool args = llvm::any_of(src.getArgumentTypes(), dynamic);
  if (!args && !dynamicInside(src) && !dynamicInside(tgt))
    return {std::nullopt, {}, ""};
  SymbolicCheck r = checkEverySize(src, tgt, o);
  // Arguments of static size: the instantiated check is not bounded, and
  // a failure here needs no note.
  if (!args && !r.counterexample)
    r.why = "";
  return r;
}

} // namespace cc::smt::detail
