// The scf family: scf.for with iter_args, scf.if with results and scf.while
// with a counter, all with trip counts of at most kMaxLoopTrips.
#include "generators/ProgramInternal.h"

namespace cc::prog {

namespace {

// The values an scf op carries: a tensor and/or a scalar in scope.
std::vector<Value> carried(Gen &g) {
  std::vector<Value> vs;
  if (std::optional<Value> t = g.someTensor(); t && g.rng.chance(0.8))
    vs.push_back(*t);
  if (vs.empty() || g.rng.chance(0.4))
    if (std::optional<Value> s = g.dataScalar())
      vs.push_back(*s);
  return vs;
}

// "%v3" or "%v3:2" and the names of the results.
std::pair<std::string, std::vector<Value>>
results(Gen &g, const std::vector<Type> &ts) {
  std::string name = g.freshName();
  std::vector<Value> vs;
  for (size_t i = 0; i < ts.size(); ++i)
    vs.push_back(
        {ts.size() == 1 ? name : name + "#" + std::to_string(i), ts[i]});
  return {ts.size() == 1 ? name : name + ":" + std::to_string(ts.size()), vs};
}

// A value of type t for a terminator: one defined in this region if any,
// else any visible one (an iter_arg at worst).
Value yielded(Gen &g, const Type &t) {
  std::vector<Value> local;
  for (const Value &v : g.local())
    if (v.type == t)
      local.push_back(v);
  if (!local.empty() && g.rng.chance(0.8))
    return g.rng.pick(local);
  return g.operand(t);
}

// What a loop yields for its tensor block argument b: b itself or b
// updated in place by one destination-style op. One-shot bufferization
// requires a loop's yielded tensor to be equivalent to its block argument;
// b is kept out of the pool, so this is its only use and stays in place.
Value updated(Gen &g, const Value &b) {
  const Type &t = b.type;
  switch (g.rng.uniformInt(0, 4)) {
  case 0: { // tensor.insert of a scalar from the body
    Value s = g.operand(scalarT(t.elt));
    std::vector<std::string> idx;
    for (int64_t d : t.shape)
      idx.push_back(g.dynIndex(d).name);
    return g.def(t, "tensor.insert " + g.use(s) + " into " + g.use(b) + "[" +
                        join(idx, ", ") + "] : " + t.str());
  }
  case 1: { // tensor.insert_slice of a fitting tensor
    std::vector<Value> fits = g.visible([&](const Value &v) {
      if (v.type.kind != Kind::Tensor || v.type.elt != t.elt ||
          v.type.rank() != t.rank() || t.rank() == 0)
        return false;
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (v.type.shape[d] > t.shape[d])
          return false;
      // A whole-tensor insert_slice folds to its source (tosa-to-arith in
      // the straight lowering folds it), which is not the block argument.
      return v.type.shape != t.shape;
    });
    if (fits.empty())
      return b;
    Value src = *g.choose(fits);
    std::vector<std::string> off, sz, st;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      off.push_back(g.dynIndex(t.shape[d] - src.type.shape[d] + 1).name);
      sz.push_back(std::to_string(src.type.shape[d]));
      st.push_back("1");
    }
    return g.def(t, "tensor.insert_slice " + g.use(src) + " into " + g.use(b) +
                        "[" + join(off, ", ") + "] [" + join(sz, ", ") + "] [" +
                        join(st, ", ") + "] : " + src.type.str() + " into " +
                        t.str());
  }
  case 2: { // linalg.fill with a scalar from the body
    Value s = g.operand(scalarT(t.elt));
    return g.def(t, "linalg.fill ins(" + g.use(s) + " : " + s.type.str() +
                        ") outs(" + g.use(b) + " : " + t.str() + ") -> " +
                        t.str());
  }
  case 3: { // vector.transfer_write of a visible vector, in bounds
    std::vector<Value> vs = g.visible([&](const Value &v) {
      if (v.type.kind != Kind::Vector || v.type.elt != t.elt ||
          v.type.elt == Elt::i1 || v.type.rank() > t.rank())
        return false;
      for (size_t d = 0; d < v.type.shape.size(); ++d)
        if (v.type.shape[d] > t.shape[t.shape.size() - v.type.shape.size() + d])
          return false;
      // A write of a whole tensor that was read whole folds to the read's
      // source (as the whole insert_slice above).
      return v.type.numElements() < t.numElements();
    });
    if (vs.empty())
      return b;
    Value v = *g.choose(vs);
    const size_t lead = t.shape.size() - v.type.shape.size();
    std::vector<std::string> idx, inb;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      int64_t span = d < lead ? 1 : v.type.shape[d - lead];
      idx.push_back(g.dynIndex(t.shape[d] - span + 1).name);
      if (d >= lead)
        inb.push_back("true");
    }
    return g.def(t, "vector.transfer_write " + g.use(v) + ", " + g.use(b) +
                        "[" + join(idx, ", ") + "] {in_bounds = [" +
                        join(inb, ", ") + "]} : " + v.type.str() + ", " +
                        t.str());
  }
  default:
    return b;
  }
}

// The yield of a loop body for its block arguments `args`.
std::vector<Value> loopYield(Gen &g, const std::vector<Value> &args) {
  std::vector<Value> out;
  for (const Value &a : args)
    out.push_back(a.type.kind == Kind::Tensor ? updated(g, a)
                                              : yielded(g, a.type));
  return out;
}

std::string yieldText(Gen &g, const std::vector<Value> &vs) {
  if (vs.empty())
    return "scf.yield";
  return "scf.yield " + namesText(g, vs) + " : " + typesText(vs);
}

std::vector<Type> typesOf(const std::vector<Value> &vs) {
  std::vector<Type> ts;
  for (const Value &v : vs)
    ts.push_back(v.type);
  return ts;
}

// An upper bound of at most kMaxLoopTrips: static or computed from data.
Value tripBound(Gen &g) {
  if (g.rng.chance(0.5))
    return g.indexConst(g.rng.uniformInt(0, kMaxLoopTrips));
  return g.dynIndex(kMaxLoopTrips + 1, 1.0);
}

bool emitFor(Gen &g) {
  std::vector<Value> init = carried(g);
  if (init.empty())
    return false;
  Value lb = g.indexConst(g.rng.uniformInt(0, 1));
  Value ub = tripBound(g);
  Value step = g.indexConst(g.rng.uniformInt(1, 2));
  auto [head, res] = results(g, typesOf(init));
  g.openRegion(false);
  Value iv = g.blockArg(scalarT(Elt::index));
  std::vector<std::string> iters;
  std::vector<Value> args;
  for (const Value &v : init) {
    args.push_back(g.blockArg(v.type, v.type.kind != Kind::Tensor));
    iters.push_back(args.back().name + " = " + g.use(v));
  }
  g.line(head + " = scf.for " + iv.name + " = " + g.use(lb) + " to " +
             g.use(ub) + " step " + g.use(step) + " iter_args(" +
             join(iters, ", ") + ") -> (" + typesText(init) + ") {",
         1);
  g.emitSome(int(g.rng.uniformInt(1, 3)));
  g.line(yieldText(g, loopYield(g, args)));
  g.closeRegion();
  g.line("}");
  for (const Value &v : res)
    g.addValue(v);
  return true;
}

bool emitIf(Gen &g) {
  Value c = g.condition();
  std::vector<Value> like = carried(g);
  if (like.empty())
    return false;
  auto [head, res] = results(g, typesOf(like));
  g.line(head + " = scf.if " + g.use(c) + " -> (" + typesText(like) + ") {");
  for (int branch = 0; branch < 2; ++branch) {
    g.openRegion(false);
    g.emitSome(int(g.rng.uniformInt(0, 2)));
    std::vector<Value> out;
    for (const Value &v : like)
      out.push_back(yielded(g, v.type));
    g.line(yieldText(g, out));
    g.closeRegion();
    g.line(branch == 0 ? "} else {" : "}");
  }
  for (const Value &v : res)
    g.addValue(v);
  return true;
}

// scf.while (%i = 0, ...) { scf.condition(%i < bound) } do { ...; %i + 1 }:
// the counter strictly increases towards a bound <= kMaxLoopTrips.
bool emitWhile(Gen &g) {
  std::vector<Value> init = carried(g);
  Value bound = tripBound(g);
  Value zero = g.indexConst(0);
  std::vector<Value> all = {zero};
  all.insert(all.end(), init.begin(), init.end());
  auto [head, res] = results(g, typesOf(all));
  g.openRegion(false);
  std::vector<Value> before;
  std::vector<std::string> inits;
  for (const Value &v : all) {
    before.push_back(g.blockArg(v.type, v.type.kind != Kind::Tensor));
    inits.push_back(before.back().name + " = " + g.use(v));
  }
  g.line(head + " = scf.while (" + join(inits, ", ") + ") : (" +
             typesText(all) + ") -> (" + typesText(all) + ") {",
         1);
  Value go = g.def(scalarT(Elt::i1), "arith.cmpi ult, " + g.use(before[0]) +
                                         ", " + g.use(bound) + " : index");
  g.line("scf.condition(" + g.use(go) + ") " + namesText(g, before) + " : " +
         typesText(before));
  g.closeRegion();
  g.line("} do {");
  g.openRegion(false);
  std::vector<Value> after;
  std::vector<std::string> args;
  for (const Value &v : all) {
    after.push_back(g.blockArg(v.type, v.type.kind != Kind::Tensor));
    args.push_back(after.back().name + ": " + v.type.str());
  }
  g.line("^bb0(" + join(args, ", ") + "):", 1);
  g.emitSome(int(g.rng.uniformInt(1, 3)));
  Value one = g.indexConst(1);
  std::vector<Value> out = {
      g.def(scalarT(Elt::index),
            "arith.addi " + g.use(after[0]) + ", " + g.use(one) + " : index")};
  std::vector<Value> rest = loopYield(g, {after.begin() + 1, after.end()});
  out.insert(out.end(), rest.begin(), rest.end());
  g.line(yieldText(g, out));
  g.closeRegion();
  g.line("}");
  for (const Value &v : res)
    g.addValue(v);
  return true;
}

} // namespace

bool emitScfOp(Gen &g) {
  if (g.depth() >= kMaxRegionDepth)
    return false;
  switch (g.rng.weighted({2, 2, 1})) {
  case 0:
    return emitFor(g);
  case 1:
    return emitIf(g);
  default:
    return emitWhile(g);
  }
}

} // namespace cc::prog
