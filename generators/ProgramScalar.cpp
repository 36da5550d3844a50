// Scalar (and elementwise vector) arith and math ops with their UB guards,
// conversions between element types, and the scalar family: values taken out
// of tensors, computed on and put back.
#include "generators/ProgramInternal.h"

#include <cmath>

namespace cc::prog {

namespace {

enum class OpKind {
  IntBin, // a op b, wraps
  IntDiv, // divisor (and signed overflow) guarded
  Shift,  // amount masked below the width
  IntExt, // two results
  CmpI,
  CmpF,
  Select,
  IntUn, // math.absi/ctlz/cttz/ctpop
  IPowI, // base guarded against 0 ** negative
  FloatBin,
  FloatUn,
  Fma,
  FPowI,
  IsClass, // math.isnan/isfinite
  Cast,
  Bitcast,
  // The index dialect: index operands only, scalars only.
  IndexBin,
  IndexDiv,   // divisor (and signed overflow) guarded
  IndexShift, // amount masked below 32: index may be 32 bits wide
  IndexCmp,
  IndexCast, // index.casts/castu between index and an integer type
  // A rewrite shape (below): a few ops that a folder or pattern matches.
  Shape,
};

struct ScalarOpDef {
  const char *name;
  OpKind kind;
  double weight = 1;
  // The oldest release of those whose syntax crosscheck writes (19, 22)
  // that has the op.
  int since = 19;
};

const std::vector<ScalarOpDef> &scalarOps() {
  static const std::vector<ScalarOpDef> t = [] {
    std::vector<ScalarOpDef> t;
    for (const char *n :
         {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
          "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui",
          "arith.minui"})
      t.push_back({n, OpKind::IntBin});
    for (const char *n :
         {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
          "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"})
      t.push_back({n, OpKind::IntDiv});
    for (const char *n : {"arith.shli", "arith.shrsi", "arith.shrui"})
      t.push_back({n, OpKind::Shift});
    for (const char *n : {"arith.mulsi_extended", "arith.mului_extended",
                          "arith.addui_extended"})
      t.push_back({n, OpKind::IntExt, 0.5});
    t.push_back({"arith.cmpi", OpKind::CmpI, 3});
    t.push_back({"arith.cmpf", OpKind::CmpF, 3});
    t.push_back({"arith.select", OpKind::Select, 2});
    for (const char *n : {"math.absi", "math.ctlz", "math.cttz", "math.ctpop"})
      t.push_back({n, OpKind::IntUn});
    t.push_back({"math.ipowi", OpKind::IPowI});
    for (const char *n :
         {"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
          "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
          "math.copysign", "math.atan2", "math.powf"})
      t.push_back({n, OpKind::FloatBin});
    for (const char *n :
         {"arith.negf", "math.absf",      "math.ceil",  "math.floor",
          "math.round", "math.roundeven", "math.trunc", "math.sqrt",
          "math.rsqrt", "math.cbrt",      "math.exp",   "math.exp2",
          "math.expm1", "math.log",       "math.log2",  "math.log10",
          "math.log1p", "math.sin",       "math.cos",   "math.tan",
          "math.tanh",  "math.sinh",      "math.cosh",  "math.asin",
          "math.acos",  "math.atan",      "math.asinh", "math.acosh",
          "math.atanh", "math.erf"})
      t.push_back({n, OpKind::FloatUn, 0.4});
    t.push_back({"math.erfc", OpKind::FloatUn, 0.4, 22});
    t.push_back({"math.fma", OpKind::Fma});
    t.push_back({"math.fpowi", OpKind::FPowI});
    for (const char *n : {"math.isnan", "math.isfinite"}) // no isinf lowering
      t.push_back({n, OpKind::IsClass, 0.5, 22});
    t.push_back({"cast", OpKind::Cast, 4});
    t.push_back({"arith.bitcast", OpKind::Bitcast});
    for (const char *n :
         {"index.add", "index.sub", "index.mul", "index.and", "index.or",
          "index.xor", "index.maxs", "index.mins", "index.maxu", "index.minu"})
      t.push_back({n, OpKind::IndexBin, 0.3});
    for (const char *n :
         {"index.divs", "index.divu", "index.rems", "index.remu",
          "index.ceildivs", "index.ceildivu", "index.floordivs"})
      t.push_back({n, OpKind::IndexDiv, 0.3});
    for (const char *n : {"index.shl", "index.shrs", "index.shru"})
      t.push_back({n, OpKind::IndexShift, 0.3});
    t.push_back({"index.cmp", OpKind::IndexCmp, 1});
    for (const char *n : {"index.casts", "index.castu"})
      t.push_back({n, OpKind::IndexCast, 0.5});
    for (const char *n :
         {"shape.round-trip", "shape.constant-operand", "shape.select-constant",
          "shape.negate-compare", "shape.repeat", "shape.mul-high"})
      t.push_back({n, OpKind::Shape, 1});
    return t;
  }();
  return t;
}

bool floatOp(OpKind k) {
  return k == OpKind::CmpF || k == OpKind::FloatBin || k == OpKind::FloatUn ||
         k == OpKind::Fma || k == OpKind::FPowI || k == OpKind::IsClass;
}
bool anyEltOp(OpKind k) {
  return k == OpKind::Select || k == OpKind::Cast || k == OpKind::Bitcast ||
         k == OpKind::Shape;
}
bool indexOp(OpKind k) {
  return k == OpKind::IndexBin || k == OpKind::IndexDiv ||
         k == OpKind::IndexShift || k == OpKind::IndexCmp ||
         k == OpKind::IndexCast;
}

// Ops the straight lowering cannot lower on n-D vectors (docs/PROGRAMS.md).
bool needsRank1(const std::string &name) {
  return name == "math.absi" || name == "math.cttz" || name == "math.isnan" ||
         name == "math.isfinite" || name == "arith.mulsi_extended" ||
         name == "arith.mului_extended" || name == "arith.addui_extended";
}

// Ops without a lowering for index operands.
bool noIndex(const std::string &name) {
  return name == "math.ipowi" || name == "arith.addui_extended";
}

} // namespace

const char *const kCmpI[10] = {"eq",  "ne",  "slt", "sle", "sgt",
                               "sge", "ult", "ule", "ugt", "uge"};
const char *const kCmpF[16] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                               "one",   "ord", "ueq", "ugt", "uge", "ult",
                               "ule",   "une", "uno", "true"};

int64_t signedMin(Elt e) {
  int w = widthOf(e);
  return w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
}

// a == b as an i1 container.
Value cmpi(Gen &g, const char *pred, const Value &a, const Value &b) {
  return g.def(a.type.with(Elt::i1), "arith.cmpi " + std::string(pred) + ", " +
                                         g.use(a) + ", " + g.use(b) + " : " +
                                         a.type.str());
}

Value cmpf(Gen &g, const char *pred, const Value &a, const Value &b) {
  return g.def(a.type.with(Elt::i1), "arith.cmpf " + std::string(pred) + ", " +
                                         g.use(a) + ", " + g.use(b) + " : " +
                                         a.type.str());
}

Value select(Gen &g, const Value &c, const Value &a, const Value &b) {
  std::string types = a.type.kind == Kind::Scalar
                          ? a.type.str()
                          : c.type.str() + ", " + a.type.str();
  return g.def(a.type, "arith.select " + g.use(c) + ", " + g.use(a) + ", " +
                           g.use(b) + " : " + types);
}

Value binary(Gen &g, const std::string &op, const Value &a, const Value &b) {
  return g.def(a.type,
               op + " " + g.use(a) + ", " + g.use(b) + " : " + a.type.str());
}

Value indexBinary(Gen &g, const std::string &op, const Value &a,
                  const Value &b) {
  return g.def(a.type, op + " " + g.use(a) + ", " + g.use(b));
}

Value castOp(Gen &g, const std::string &op, const Value &v, Elt to) {
  Type t = v.type.with(to);
  return g.def(t,
               op + " " + g.use(v) + " : " + v.type.str() + " to " + t.str());
}

// fptosi/fptoui of x, whose NaN and out-of-range values are poison: x is
// replaced by 0.0 unless it is ordered and strictly inside the range.
static Value guardedFpToInt(Gen &g, const Value &x, Elt to, bool isSigned) {
  const Elt f = x.type.elt;
  const int w = widthOf(to);
  const double top = std::ldexp(1.0, isSigned ? w - 1 : w);
  const double maxF = maxFinite(*dtypeOf(f));
  // A bound beyond the float's range would round to infinity: every finite
  // value is then in range, and the infinities must still be excluded.
  const bool allFinite = top > maxF;
  Value hi = g.constant(x.type, floatLiteral(f, allFinite ? maxF : top));
  Value lo = g.constant(x.type, floatLiteral(f, !isSigned   ? -1.0
                                                : allFinite ? -maxF
                                                            : -top));
  Value okHi = cmpf(g, allFinite ? "ole" : "olt", x, hi);
  Value okLo = cmpf(g, isSigned ? "oge" : "ogt", x, lo);
  Value ok = binary(g, "arith.andi", okHi, okLo);
  Value safe = select(g, ok, x, g.constant(x.type, floatLiteral(f, 0.0)));
  return castOp(g, isSigned ? "arith.fptosi" : "arith.fptoui", safe, to);
}

Value Gen::convert(const Value &v, Elt to) {
  const Elt from = v.type.elt;
  if (from == to)
    return v;
  const bool sign = rng.chance(0.5);
  if (from == Elt::index || to == Elt::index) {
    Elt other = from == Elt::index ? to : from;
    if (isFloat(other)) // through i64
      return from == Elt::index ? convert(convert(v, Elt::i64), to)
                                : convert(convert(v, Elt::i64), Elt::index);
    return castOp(*this, sign ? "arith.index_cast" : "arith.index_castui", v,
                  to);
  }
  const int wf = widthOf(from), wt = widthOf(to);
  if (isInt(from) && isInt(to))
    return castOp(*this,
                  wf < wt ? (sign ? "arith.extsi" : "arith.extui")
                          : "arith.trunci",
                  v, to);
  if (isInt(from))
    return castOp(*this, sign ? "arith.sitofp" : "arith.uitofp", v, to);
  if (isInt(to))
    return guardedFpToInt(*this, v, to, sign);
  if (wf == wt) // f16 <-> bf16 through f32
    return convert(convert(v, Elt::f32), to);
  return castOp(*this, wf < wt ? "arith.extf" : "arith.truncf", v, to);
}

Value Gen::operand(const Type &t) {
  std::vector<Value> same =
      visible([&](const Value &v) { return v.type == t; });
  if (!same.empty() && rng.chance(0.85))
    return *choose(same);
  std::vector<Value> like = visible([&](const Value &v) {
    return v.type.sameContainer(t) &&
           (t.kind != Kind::Vector || v.type.elt != Elt::index);
  });
  if (!like.empty() && rng.chance(0.6))
    return convert(*choose(like), t.elt);
  return randomConstant(t);
}

// The divisor of a division made non-zero, and a signed division's
// MIN / -1 made 0 / -1: both are undefined behaviour.
static std::pair<Value, Value> guardDivision(Gen &g, const Value &a,
                                             const Value &b, bool isSigned) {
  Value zero = g.intConst(b.type, 0);
  Value b1 = select(g, cmpi(g, "eq", b, zero), g.intConst(b.type, 1), b);
  if (!isSigned)
    return {a, b1};
  Value isMin = cmpi(g, "eq", a, g.intConst(a.type, signedMin(a.type.elt)));
  Value isM1 = cmpi(g, "eq", b1, g.intConst(b.type, -1));
  Value both = binary(g, "arith.andi", isMin, isM1);
  return {select(g, both, g.intConst(a.type, 0), a), b1};
}

namespace {
// Applies the op of `d` to `a` (and further operands of its type), with the
// guards its undefined behaviour needs.
Value applyScalarOp(Gen &g, const ScalarOpDef &d, const Value &a) {
  const Type t = a.type;
  const std::string &name = d.name;
  const bool vec = t.kind == Kind::Vector;
  switch (d.kind) {
  case OpKind::IntBin:
  case OpKind::FloatBin:
    return binary(g, name, a, g.operand(t));
  case OpKind::IntDiv: {
    bool isSigned = name.find("si") != std::string::npos;
    auto [x, y] = guardDivision(g, a, g.operand(t), isSigned);
    return binary(g, name, x, y);
  }
  case OpKind::Shift: {
    Value amount = binary(g, "arith.andi", g.operand(t),
                          g.intConst(t, widthOf(t.elt) - 1));
    return binary(g, name, a, amount);
  }
  case OpKind::IntExt: {
    Value b = g.operand(t);
    bool add = name == "arith.addui_extended";
    std::vector<Value> r =
        g.defN({t, add ? t.with(Elt::i1) : t},
               name + " " + g.use(a) + ", " + g.use(b) + " : " + t.str() +
                   (add ? ", " + t.with(Elt::i1).str() : ""));
    return g.rng.pick(r);
  }
  case OpKind::CmpI:
    return cmpi(g, kCmpI[g.rng.uniformInt(0, 9)], a, g.operand(t));
  case OpKind::CmpF:
    return cmpf(g, kCmpF[g.rng.uniformInt(0, 15)], a, g.operand(t));
  case OpKind::Select:
    return select(g, g.operand(t.with(Elt::i1)), a, g.operand(t));
  case OpKind::IntUn:
  case OpKind::FloatUn:
    return g.def(t, name + " " + g.use(a) + " : " + t.str());
  case OpKind::IPowI: {
    // 0 ** negative divides by zero in the expansion: the base becomes 1.
    Value b = g.operand(t);
    Value zero = g.intConst(t, 0);
    Value both = binary(g, "arith.andi", cmpi(g, "eq", a, zero),
                        cmpi(g, "slt", b, zero));
    return binary(g, name, select(g, both, g.intConst(t, 1), a), b);
  }
  case OpKind::Fma: {
    Value b = g.operand(t), c = g.operand(t);
    return g.def(t, name + " " + g.use(a) + ", " + g.use(b) + ", " + g.use(c) +
                        " : " + t.str());
  }
  case OpKind::FPowI: {
    Elt ie =
        g.rng.pick(std::vector<Elt>{Elt::i8, Elt::i16, Elt::i32, Elt::i64});
    Value n = g.operand(t.with(ie));
    return g.def(t, name + " " + g.use(a) + ", " + g.use(n) + " : " + t.str() +
                        ", " + n.type.str());
  }
  case OpKind::IsClass:
    return g.def(t.with(Elt::i1), name + " " + g.use(a) + " : " + t.str());
  case OpKind::Cast: {
    // To a type of the options (or index) where there is another one.
    std::vector<Elt> to;
    for (Elt e : g.elts)
      if (e != t.elt)
        to.push_back(e);
    if (!vec && t.elt != Elt::index && (to.empty() || g.rng.chance(0.1)))
      to.push_back(Elt::index);
    if (to.empty())
      for (Elt e : {Elt::i1, Elt::i8, Elt::i16, Elt::i32, Elt::i64, Elt::f16,
                    Elt::bf16, Elt::f32, Elt::f64})
        if (e != t.elt)
          to.push_back(e);
    return g.convert(a, g.rng.pick(to));
  }
  case OpKind::Bitcast: {
    std::vector<Elt> same;
    for (Elt e : {Elt::i8, Elt::i16, Elt::i32, Elt::i64, Elt::f16, Elt::bf16,
                  Elt::f32, Elt::f64})
      if (widthOf(e) == widthOf(t.elt) && e != t.elt)
        same.push_back(e);
    return castOp(g, name, a, g.rng.pick(same));
  }
  case OpKind::IndexBin:
    return indexBinary(g, name, a, g.operand(t));
  case OpKind::IndexDiv: {
    bool isSigned = name.back() == 's';
    auto [x, y] = guardDivision(g, a, g.operand(t), isSigned);
    return indexBinary(g, name, x, y);
  }
  case OpKind::IndexShift:
    return indexBinary(
        g, name, a,
        indexBinary(g, "index.and", g.operand(t), g.intConst(t, 31)));
  case OpKind::IndexCmp:
    return g.def(t.with(Elt::i1),
                 "index.cmp " + std::string(kCmpI[g.rng.uniformInt(0, 9)]) +
                     "(" + g.use(a) + ", " + g.use(g.operand(t)) + ")");
  case OpKind::Shape:
    return applyShape(g, name, a);
  case OpKind::IndexCast: {
    if (t.elt != Elt::index)
      return castOp(g, name, a, Elt::index);
    std::vector<Elt> ints;
    for (Elt e : g.elts)
      if (isInt(e) && e != Elt::index)
        ints.push_back(e);
    return castOp(g, name, a, ints.empty() ? Elt::i32 : g.rng.pick(ints));
  }
  }
  return a;
}
} // namespace

Value Gen::scalarOp(const Type &like) {
  const bool vec = like.kind == Kind::Vector;
  std::vector<double> w;
  for (const ScalarOpDef &d : scalarOps()) {
    bool ok = !(vec && like.rank() > 1 && needsRank1(d.name)) &&
              !(vec && indexOp(d.kind)) && d.since <= opt.mlirSyntax;
    w.push_back(ok ? d.weight : 0);
  }
  const ScalarOpDef &d = scalarOps()[rng.weighted(w)];
  const std::string name = d.name;
  // The element type: of a visible value the op accepts, or drawn.
  auto accepts = [&](Elt e) {
    if (vec && e == Elt::index)
      return false;
    if (e == Elt::index && noIndex(name))
      return false;
    if (d.kind == OpKind::Bitcast) // needs another type of its width
      return e != Elt::i1 && e != Elt::i8 && e != Elt::index;
    if (d.kind == OpKind::IndexCast)
      return isInt(e);
    if (indexOp(d.kind))
      return e == Elt::index;
    return anyEltOp(d.kind) || floatOp(d.kind) == isFloat(e);
  };
  std::vector<Value> cands = visible([&](const Value &v) {
    return v.type.sameContainer(like) && accepts(v.type.elt);
  });
  Value a;
  if (!cands.empty() && rng.chance(0.85)) {
    a = *choose(cands);
  } else {
    std::vector<Elt> es;
    for (Elt e : {Elt::i1, Elt::i8, Elt::i16, Elt::i32, Elt::i64, Elt::index,
                  Elt::f16, Elt::bf16, Elt::f32, Elt::f64})
      if (accepts(e) && (e == Elt::index ? !vec : true))
        es.push_back(e);
    a = operand(like.with(rng.pick(es)));
  }
  return applyScalarOp(*this, d, a);
}

Value Gen::scalarChain(const Type &out, int n) {
  std::optional<Value> last;
  for (int i = 0; i < n; ++i)
    last = scalarOp(out);
  std::vector<Value> same =
      visible([&](const Value &v) { return v.type == out; });
  if (!same.empty() && (!last || rng.chance(0.3)))
    return *choose(same);
  return last ? convert(*last, out.elt) : operand(out);
}

std::optional<Value> Gen::storable(const Value &v) {
  if (v.type.elt != Elt::i1 && allowed(v.type.elt))
    return v;
  std::vector<Elt> to;
  for (Elt e : elts)
    if (e != Elt::i1)
      to.push_back(e);
  if (to.empty())
    return std::nullopt;
  return convert(v, rng.pick(to));
}

Value Gen::combine(const Value &acc, const Value &x0) {
  Value x = convert(x0, acc.type.elt);
  static const std::vector<std::string> ints = {
      "arith.addi",  "arith.muli", "arith.maxsi", "arith.minsi", "arith.maxui",
      "arith.minui", "arith.andi", "arith.ori",   "arith.xori"};
  static const std::vector<std::string> floats = {
      "arith.addf",     "arith.mulf",    "arith.maximumf",
      "arith.minimumf", "arith.maxnumf", "arith.minnumf"};
  const std::string &op = rng.pick(isFloat(acc.type.elt) ? floats : ints);
  return rng.chance(0.5) ? binary(*this, op, acc, x)
                         : binary(*this, op, x, acc);
}

Value Gen::extract(const Value &t, double dynamicChance) {
  std::vector<std::string> idx;
  for (int64_t d : t.type.shape)
    idx.push_back(dynIndex(d, dynamicChance).name);
  return def(scalarT(t.type.elt), "tensor.extract " + use(t) + "[" +
                                      join(idx, ", ") + "] : " + t.type.str());
}

std::optional<Value> Gen::dataScalar() {
  std::vector<Value> s =
      visible([](const Value &v) { return v.type.kind == Kind::Scalar; });
  if (!s.empty() && rng.chance(0.7))
    return choose(s);
  std::vector<Value> ts =
      visible([](const Value &v) { return v.type.kind == Kind::Tensor; });
  if (ts.empty())
    return s.empty() ? std::nullopt : choose(s);
  return extract(*choose(ts), 0);
}

Value Gen::dynIndex(int64_t bound, double dynamicChance) {
  if (bound <= 1 || !rng.chance(dynamicChance))
    return indexConst(bound <= 1 ? 0 : rng.uniformInt(0, bound - 1));
  std::optional<Value> s = dataScalar();
  if (!s)
    return indexConst(rng.uniformInt(0, bound - 1));
  Value i = convert(*s, Elt::index);
  return binary(*this, "arith.remui", i, indexConst(bound));
}

Value Gen::condition() {
  std::vector<Value> bs =
      visible([](const Value &v) { return v.type == scalarT(Elt::i1); });
  if (!bs.empty() && rng.chance(0.5))
    return *choose(bs);
  std::optional<Value> s = dataScalar();
  if (!s)
    return constant(scalarT(Elt::i1), rng.chance(0.5) ? "true" : "false");
  Value c = randomConstant(s->type);
  return isFloat(s->type.elt) ? cmpf(*this, kCmpF[rng.uniformInt(0, 15)], *s, c)
                              : cmpi(*this, kCmpI[rng.uniformInt(0, 9)], *s, c);
}

// The scalar family: elements taken out of tensors, computed on, put back.
bool emitScalarOps(Gen &g) {
  std::optional<Value> t = g.someTensor();
  if (!t)
    return false;
  g.extract(*t);
  if (g.rng.chance(0.4))
    if (std::optional<Value> u = g.someTensor())
      g.extract(*u);
  Value r =
      g.scalarChain(scalarT(g.randomScalarElt()), int(g.rng.uniformInt(1, 4)));
  if (!g.allowed(r.type.elt))
    r = g.convert(r, g.randomElt());
  const Elt e = r.type.elt;
  switch (g.rng.uniformInt(0, 3)) {
  case 0: { // tensor.insert into a visible tensor
    std::optional<Value> dest = g.someTensor();
    if (!dest)
      return false;
    Value v = g.convert(r, dest->type.elt);
    std::vector<std::string> idx;
    for (int64_t d : dest->type.shape)
      idx.push_back(g.dynIndex(d).name);
    g.def(dest->type, "tensor.insert " + g.use(v) + " into " + g.use(*dest) +
                          "[" + join(idx, ", ") + "] : " + dest->type.str());
    return true;
  }
  case 1: { // tensor.from_elements of this and other values
    int n = int(g.rng.uniformInt(1, 6));
    std::vector<Value> vs = {r};
    while (int(vs.size()) < n)
      vs.push_back(g.operand(scalarT(e)));
    Shape s = {n};
    if (n == 4 || n == 6)
      s = {2, n / 2};
    if (n == 1 && g.rng.chance(0.5))
      s = {};
    Type tt = tensorT(e, s);
    g.def(tt, "tensor.from_elements " + namesText(g, vs) + " : " + tt.str());
    return true;
  }
  case 2: { // tensor.splat
    Type tt = tensorT(e, g.randomShape(int(g.rng.uniformInt(1, 3))));
    g.def(tt, "tensor.splat " + g.use(r) + " : " + tt.str());
    return true;
  }
  default: { // linalg.fill
    Type tt = tensorT(e, g.randomShape(int(g.rng.uniformInt(0, 3))));
    Value empty = g.def(tt, "tensor.empty() : " + tt.str(), false);
    g.def(tt, "linalg.fill ins(" + g.use(r) + " : " + r.type.str() + ") outs(" +
                  empty.name + " : " + tt.str() + ") -> " + tt.str());
    return true;
  }
  }
}

} // namespace cc::prog
