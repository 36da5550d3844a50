// Oracle (b) of programs: the encoder of translation validation run on
// constants. The arguments are numerals, so every term Z3's simplifier
// reduces to a numeral is the program's value there; a term that stays
// symbolic depends on an uninterpreted function or op and is left open.
#include "smt/Evaluate.h"

#include "smt/Refine.h"

#include "mlir/IR/TypeUtilities.h"

#include <cstring>

namespace cc::smt {

using namespace mlir;
using namespace detail;

namespace {

// The evaluation of a program needs no solver: loops run as far as their
// inputs take them. The bound is twice the generator's largest trip count;
// a loop whose condition depends on an uninterpreted value runs to it.
TvOptions evaluationOptions() {
  TvOptions o;
  o.loopBound = 16;
  return o;
}

// A float's IEEE bits (Z3's numerals from doubles lose the denormals of
// the narrow formats).
uint64_t bitsOf(double d, FloatType ft) {
  if (ft.isF16())
    return f64ToF16Bits(d);
  if (ft.isBF16())
    return f64ToBF16Bits(d);
  if (ft.isF32()) {
    float f = float(d);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

SVal argumentValue(Encoder &e, const Tensor &t, Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt || !rt.hasStaticShape())
    unsupported("an argument of type " + str(type) +
                " (programs take static tensors)");
  if (t.size() != rt.getNumElements())
    unsupported("an input of " + std::to_string(t.size()) +
                " elements for an argument of type " + str(type));
  SVal v;
  v.shape.assign(rt.getShape().begin(), rt.getShape().end());
  z3::sort s = e.sortOf(rt.getElementType());
  auto ft = dyn_cast<FloatType>(rt.getElementType());
  for (int64_t i = 0; i < t.size(); ++i) {
    v.v.push_back(ft ? e.floatBits(bitsOf(t.getF(i), ft), ft)
                     : e.c.bv_val(uint64_t(t.getI(i)), s.bv_size()));
    v.p.push_back(e.c.bool_val(false));
  }
  return v;
}

// One result's elements: computed where the terms reduce to numerals.
void readResult(Encoder &e, const SVal &v, Type type, size_t r,
                Evaluation &out) {
  Type elt = getElementTypeOrSelf(type);
  auto dt = dtypeOf(elt);
  if (!dt)
    unsupported("a result of type " + str(type));
  Tensor t(*dt, Shape(v.shape));
  std::vector<bool> known(size_t(v.size()), false);
  Eval simplify = [](const z3::expr &x) { return x.simplify(); };
  for (int64_t i = 0; i < v.size(); ++i) {
    z3::expr p = v.p[size_t(i)].simplify();
    if (p.is_true() && out.undefined.empty())
      out.undefined = "result " + std::to_string(r) + " element " +
                      std::to_string(i) + " is poison";
    if (!p.is_false())
      continue;
    auto n = modelValue(simplify, v.v[size_t(i)], elt, e.c);
    if (!n)
      continue;
    isFloat(*dt) ? t.setF(i, n->d) : t.setI(i, n->i.value_or(0));
    known[size_t(i)] = true;
  }
  out.outputs.push_back(std::move(t));
  out.known.push_back(std::move(known));
}

std::string openNote(const Encoder &e) {
  std::string why = e.usedUf ? "math functions uninterpreted" : "";
  for (const std::string &op : e.opaqueOps)
    why += (why.empty() ? "uninterpreted ops: " : ", ") + op;
  return why;
}

Evaluation evaluateOnce(func::FuncOp f, const Inputs &inputs) {
  TvOptions o = evaluationOptions();
  z3::context c;
  Encoder e(c, FMode::Ieee, o);
  auto types = f.getFunctionType().getInputs();
  if (inputs.size() != types.size())
    unsupported(std::to_string(inputs.size()) + " inputs for " +
                std::to_string(types.size()) + " arguments");
  std::vector<SVal> args;
  for (size_t i = 0; i < types.size(); ++i)
    args.push_back(argumentValue(e, inputs[i], types[i]));
  std::vector<SVal> outs = e.encodeCall(f, args, 0);
  Evaluation r;
  if (e.ub.simplify().is_true())
    r.undefined = "undefined behaviour on these inputs";
  if (!e.pastBound.simplify().is_false())
    unsupported("a loop that runs past " + std::to_string(o.loopBound) +
                " iterations");
  auto results = f.getFunctionType().getResults();
  for (size_t k = 0; k < outs.size(); ++k)
    readResult(e, outs[k], results[k], k, r);
  r.open = openNote(e);
  return r;
}

Expected<Evaluation> evaluateGuarded(func::FuncOp f, const Inputs &inputs) {
  try {
    return evaluateOnce(f, inputs);
  } catch (const EncodeFailure &x) {
    return Error::failure("the encoding does not cover " + x.reason,
                          ErrorCode::Unsupported);
  } catch (const EncodeBug &x) {
    return makeError("evaluating the encoding: " + x.message);
  } catch (const z3::exception &x) {
    return makeError(std::string("evaluating the encoding: z3: ") + x.msg());
  }
}

} // namespace

std::vector<Expected<Evaluation>> evaluateProgram(const MlirProgram &program,
                                                  const InputSets &sets) {
  using Results = std::vector<Expected<Evaluation>>;
  auto ctx = makeContext();
  auto m = parseModule(*ctx, program.mlir, "the program", "program.mlir");
  if (!m)
    return Results(sets.size(), m.error());
  auto f = (*m)->lookupSymbol<func::FuncOp>(program.name);
  if (!f)
    return Results(sets.size(),
                   makeError("the program has no function @" + program.name));
  auto general = generalizedCopy(f);
  auto g = general->lookupSymbol<func::FuncOp>(program.name);
  Results out;
  for (const Inputs *in : sets)
    out.push_back(evaluateGuarded(g, *in));
  return out;
}

} // namespace cc::smt
