// What TOSA leaves open about an op's results, read from the op table's
// entry (OpDef::freedoms) and applied to its encoding: undefined elements
// and the sign of zero results.
#include "smt/EncodeTosa.h"

#include "core/OpTable.h"

namespace cc::smt::detail {

namespace tosaops {

using namespace mlir;

namespace {
// ---- what TOSA leaves open (OpDef::freedoms) --------------------------------

// Classes of float values, each with sample values: Freedoms::undefinedAt,
// a predicate on doubles, is lifted to terms class by class.
const std::vector<std::vector<double>> kFloatClasses = {
    {NAN},                                   // NaN
    {-INFINITY},                             // -Inf
    {-1e30, -3, -2.5, -2, -1, -0.5, -1e-30}, // negative finite
    {-0.0},                                  // -0
    {0.0},                                   // +0
    {1e-30, 0.5, 1, 2, 2.5, 3, 1e30},        // positive finite
    {INFINITY}};                             // +Inf

// Whether `x` is in class `k` of kFloatClasses.
z3::expr inFloatClass(Encoder &e, const z3::expr &x, size_t k) {
  z3::context &c = e.c;
  z3::expr nan = e.isNaN(x), inf(c, Z3_mk_fpa_is_infinite(c, x));
  z3::expr zero(c, Z3_mk_fpa_is_zero(c, x));
  z3::expr neg(c, Z3_mk_fpa_is_negative(c, x));
  z3::expr finite = !nan && !inf && !zero;
  const z3::expr kinds[] = {nan,         inf && neg,   finite && neg,
                            zero && neg, zero && !neg, finite && !neg,
                            inf && !neg};
  return kinds[k];
}

// Whether undefinedAt holds for some samples of the classes in `cell`.
bool undefinedInCell(const OpDef &def, const std::vector<size_t> &cell) {
  std::vector<double> x(cell.size());
  std::function<bool(size_t)> some = [&](size_t k) {
    if (k == cell.size())
      return def.freedoms.undefinedAt(x.data());
    for (double d : kFloatClasses[cell[k]]) {
      x[k] = d;
      if (some(k + 1))
        return true;
    }
    return false;
  };
  return some(0);
}

// Where the op is undefined, over operand terms `xs`: the classes of
// operand values (one per operand, fixed so far in `cell`) where it is for
// some samples. Exact for a predicate of the classes alone (pow's);
// otherwise undefined more often than TOSA says, never less: a target is
// never called wrong for what TOSA leaves undefined.
z3::expr undefinedWhere(Encoder &e, const OpDef &def, const Exprs &xs,
                        std::vector<size_t> &cell) {
  if (cell.size() == xs.size())
    return e.c.bool_val(undefinedInCell(def, cell));
  z3::expr_vector any(e.c);
  for (size_t k = 0; k < kFloatClasses.size(); ++k) {
    z3::expr in = inFloatClass(e, xs[cell.size()], k);
    cell.push_back(k);
    z3::expr rest = undefinedWhere(e, def, xs, cell);
    cell.pop_back();
    if (!rest.is_false())
      any.push_back(rest.is_true() ? in : in && rest);
  }
  return z3::mk_or(any).simplify();
}

// Elements that TOSA leaves undefined (any value) are poison, as the
// reference's dependence tracking treats them (Latitude): the target may
// compute anything there and in what depends on them. Abstract floats have
// no classes: there an uninterpreted predicate stands for the condition.
void markUndefined(Tosa &t, const OpDef &def) {
  Encoder &e = t.e;
  SVal &r = e.env[t.op->getResult(0)];
  std::vector<SVal> xs;
  for (const SVal &x : t.ins)
    xs.push_back(e.broadcastTo(x, r.shape));
  // The condition once, over placeholders, then per element substituted.
  z3::expr_vector from(t.c);
  Exprs placeholders;
  for (size_t k = 0; k < xs.size(); ++k) {
    from.push_back(t.c.constant(("operand_" + std::to_string(k)).c_str(),
                                xs[k].v[0].get_sort()));
    placeholders.push_back(from.back());
  }
  std::vector<size_t> cell;
  z3::expr where =
      e.mode == FMode::Abstract
          ? e.uf("undefined_" + def.name, placeholders, t.c.bool_sort())
          : undefinedWhere(e, def, placeholders, cell);
  for (int64_t i = 0; i < r.size(); ++i) {
    z3::expr_vector to(t.c);
    for (const SVal &x : xs)
      to.push_back(x.v[size_t(i)]);
    z3::expr w = where;
    r.p[size_t(i)] = r.p[size_t(i)] || w.substitute(from, to);
  }
}

// A zero result of the source whose sign TOSA leaves open takes the sign a
// fresh choice picks (Encoder::choices); only IEEE floats have signs.
void openZeroSigns(Tosa &t) {
  Encoder &e = t.e;
  for (Value res : t.op->getResults()) {
    if (!Encoder::isFloat(res.getType()))
      continue;
    for (z3::expr &v : e.env[res].v) {
      z3::expr flip = e.choose("the zero signs TOSA leaves open");
      v = z3::ite(flip && z3::expr(t.c, Z3_mk_fpa_is_zero(t.c, v)), e.fneg(v),
                  v);
    }
  }
}

// The op table's entry of a TOSA op: the table names ops as TOSA does (its
// emission writes "tosa." and the name).
const OpDef *tableEntry(Operation *op) {
  return findOp(op->getName().stripDialect().str());
}

} // namespace

void encodeFreedoms(Tosa &t) {
  const OpDef *def = tableEntry(t.op);
  if (!def || !t.rt || !t.e.env.count(t.op->getResult(0)) ||
      !t.e.env[t.op->getResult(0)].size())
    return;
  if (def->freedoms.undefinedAt && t.fl && Encoder::isFloat(t.rt))
    markUndefined(t, *def);
  if (def->freedoms.zeroSign && t.e.openChoices && t.e.mode == FMode::Ieee)
    openZeroSigns(t);
}

} // namespace tosaops

bool tosaElementwise(mlir::Operation *op) {
  if (op->getName().getDialectNamespace() != "tosa")
    return false;
  const OpDef *def = tosaops::tableEntry(op);
  return def && def->elementwise;
}

} // namespace cc::smt::detail
