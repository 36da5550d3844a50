// The vector family: vectors read from tensors (transfer_read, in bounds or
// padded, maybe masked; never of i1: see Gen::storable), computed on
// (elementwise arith and math,
// broadcast, shape_cast, contract, reduction, multi_reduction, extract,
// insert) and
// written back (transfer_write).
#include "generators/ProgramInternal.h"

#include <algorithm>

namespace cc::prog {

namespace {

constexpr int64_t kMaxVectorElements = 64;

// The indices and in_bounds flags of a transfer of `vshape` at the minor
// dims of a tensor of `tshape`: an in-bounds dim fits whole, an
// out-of-bounds one starts inside the tensor (the rest is padding or
// dropped).
struct Transfer {
  std::vector<std::string> indices;
  std::vector<std::string> inBounds;
  std::string attr() const {
    return " {in_bounds = [" + join(inBounds, ", ") + "]}";
  }
};

Transfer transfer(Gen &g, const Shape &tshape, const Shape &vshape) {
  Transfer t;
  const size_t lead = tshape.size() - vshape.size();
  for (size_t d = 0; d < tshape.size(); ++d) {
    const int64_t dim = tshape[d];
    if (d < lead) {
      t.indices.push_back(g.dynIndex(dim).name);
      continue;
    }
    const int64_t vs = vshape[d - lead];
    const bool inb = vs <= dim && g.rng.chance(0.6);
    t.inBounds.push_back(inb ? "true" : "false");
    t.indices.push_back(g.dynIndex(inb ? dim - vs + 1 : dim).name);
  }
  return t;
}

// A mask of the vector's shape: create_mask from data or constant_mask.
std::optional<Value> mask(Gen &g, const Shape &vshape) {
  if (!g.rng.chance(0.3))
    return std::nullopt;
  Type mt = vectorT(Elt::i1, vshape);
  std::vector<std::string> sizes;
  if (g.rng.chance(0.5)) {
    for (int64_t s : vshape)
      sizes.push_back(g.dynIndex(s + 1).name);
    return g.def(mt,
                 "vector.create_mask " + join(sizes, ", ") + " : " + mt.str());
  }
  // A zero size anywhere must be zero everywhere (the verifier's rule).
  const bool empty = g.rng.chance(0.1);
  for (int64_t s : vshape)
    sizes.push_back(std::to_string(empty ? 0 : g.rng.uniformInt(1, s)));
  return g.def(mt, "vector.constant_mask [" + join(sizes, ", ") +
                       "] : " + mt.str());
}

std::optional<Value> transferRead(Gen &g) {
  std::optional<Value> t = g.someTensor(1, kMaxRank, /*noI1=*/true);
  if (!t)
    return std::nullopt;
  const Shape &ts = t->type.shape;
  const int vrank =
      int(std::min<int64_t>(t->type.rank(), g.rng.uniformInt(1, 2)));
  Shape vs;
  for (int i = 0; i < vrank; ++i)
    vs.push_back(g.rng.uniformInt(1, ts[ts.size() - size_t(vrank) + size_t(i)] +
                                         (g.rng.chance(0.3) ? 2 : 0)));
  if (numElements(vs) > kMaxVectorElements)
    return std::nullopt;
  Type vt = vectorT(t->type.elt, vs);
  Transfer tr = transfer(g, ts, vs);
  Value pad = g.operand(scalarT(t->type.elt));
  std::optional<Value> m = mask(g, vs);
  return g.def(vt, "vector.transfer_read " + g.use(*t) + "[" +
                       join(tr.indices, ", ") + "], " + g.use(pad) +
                       (m ? ", " + g.use(*m) : "") + tr.attr() + " : " +
                       t->type.str() + ", " + vt.str());
}

bool transferWrite(Gen &g, const Value &v0) {
  std::optional<Value> stored = g.storable(v0);
  if (!stored)
    return false;
  const Value v = *stored;
  std::vector<Value> dests = g.visible([&](const Value &t) {
    return t.type.kind == Kind::Tensor && t.type.elt == v.type.elt &&
           t.type.rank() >= v.type.rank();
  });
  Value dest = !dests.empty() && g.rng.chance(0.8)
                   ? *g.choose(dests)
                   : g.needTensor(tensorT(v.type.elt, v.type.shape));
  std::optional<Value> m = mask(g, v.type.shape);
  // A write that may leave elements alone goes into a new tensor that
  // nothing else uses: out of place, one-shot-bufferize does not copy the
  // destination first (upstream bug, docs/PROGRAMS.md).
  if (m || v.type.shape != dest.type.shape)
    dest = g.filled(dest.type, false);
  Transfer tr = transfer(g, dest.type.shape, v.type.shape);
  g.def(dest.type, "vector.transfer_write " + g.use(v) + ", " + g.use(dest) +
                       "[" + join(tr.indices, ", ") + "]" +
                       (m ? ", " + g.use(*m) : "") + tr.attr() + " : " +
                       v.type.str() + ", " + dest.type.str());
  return true;
}

std::optional<Value> someVector(Gen &g, int rank = 0) {
  return g.choose(g.visible([&](const Value &v) {
    return v.type.kind == Kind::Vector && v.type.elt != Elt::i1 &&
           (rank == 0 || v.type.rank() == rank);
  }));
}

bool emitBroadcast(Gen &g, const Value &v) {
  if (v.type.rank() >= 2 || v.type.numElements() * 4 > kMaxVectorElements)
    return false;
  Type rt;
  Value src = v;
  if (g.rng.chance(0.3)) { // a scalar to the vector's shape
    src = g.operand(scalarT(v.type.elt));
    rt = v.type;
  } else {
    Shape s = v.type.shape;
    s.insert(s.begin(), g.rng.uniformInt(1, 4));
    rt = vectorT(v.type.elt, s);
  }
  g.def(rt, "vector.broadcast " + g.use(src) + " : " + src.type.str() + " to " +
                rt.str());
  return true;
}

bool emitShapeCast(Gen &g, const Value &v) {
  Shape s;
  if (v.type.rank() == 2) {
    s = {v.type.numElements()};
  } else {
    const int64_t n = v.type.shape[0];
    std::vector<int64_t> fs;
    for (int64_t f = 1; f <= n; ++f)
      if (n % f == 0)
        fs.push_back(f);
    const int64_t a = g.rng.pick(fs);
    s = {a, n / a};
  }
  Type rt = vectorT(v.type.elt, s);
  g.def(rt, "vector.shape_cast " + g.use(v) + " : " + v.type.str() + " to " +
                rt.str());
  return true;
}

bool emitContract(Gen &g) {
  std::optional<Value> a = someVector(g, 2);
  if (!a)
    return false;
  const int64_t m = a->type.shape[0], k = a->type.shape[1];
  const int64_t n = g.rng.uniformInt(1, 4);
  const Elt e = a->type.elt;
  Value b = g.operand(vectorT(e, {k, n}));
  Value acc = g.operand(vectorT(e, {m, n}));
  // Only <add> is lowered by the straight lowering (docs/PROGRAMS.md).
  const std::string kind = "add";
  g.def(acc.type,
        "vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, "
        "affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], "
        "iterator_types = [\"parallel\", \"parallel\", \"reduction\"], kind = "
        "#vector.kind<" +
            kind + ">} " + g.use(*a) + ", " + g.use(b) + ", " + g.use(acc) +
            " : " + a->type.str() + ", " + b.type.str() + " into " +
            acc.type.str());
  return true;
}

std::string reductionKind(Gen &g, Elt e) {
  return isFloat(e)
             ? g.rng.pick(std::vector<std::string>{
                   "add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"})
             : g.rng.pick(std::vector<std::string>{"add", "mul", "minsi",
                                                   "maxsi", "minui", "maxui",
                                                   "and", "or", "xor"});
}

// vector.multi_reduction of a 2-D vector over one dimension or both, into
// an accumulator of the result's type.
bool emitMultiReduction(Gen &g, const Value &v) {
  if (v.type.rank() != 2)
    return false;
  const int which = int(g.rng.uniformInt(0, 2)); // dim 0, dim 1, both
  Type rt = which == 2 ? scalarT(v.type.elt)
                       : vectorT(v.type.elt, {v.type.shape[1 - which]});
  Value acc = g.operand(rt);
  g.def(rt, "vector.multi_reduction <" + reductionKind(g, v.type.elt) + ">, " +
                g.use(v) + ", " + g.use(acc) + " [" +
                (which == 2 ? std::string("0, 1") : std::to_string(which)) +
                "] : " + v.type.str() + " to " + rt.str());
  return true;
}

// vector.reduction of a 1-D vector to a scalar, with or without an
// accumulator; multi_reduction for 2-D vectors.
bool emitReduction(Gen &g, const Value &v) {
  if (v.type.rank() == 2)
    return emitMultiReduction(g, v);
  if (v.type.rank() != 1)
    return false;
  const Elt e = v.type.elt;
  const std::string kind = reductionKind(g, e);
  std::string acc;
  if (g.rng.chance(0.5))
    acc = ", " + g.use(g.operand(scalarT(e)));
  g.def(scalarT(e), "vector.reduction <" + kind + ">, " + g.use(v) + acc +
                        " : " + v.type.str() + " into " + eltName(e));
  return true;
}

// Positions of an element: static, or (1-D vectors only: the straight
// lowering cannot lower dynamic positions of n-D vectors) computed from
// data, in bounds.
std::vector<std::string> positions(Gen &g, const Shape &shape) {
  std::vector<std::string> pos;
  for (int64_t d : shape)
    pos.push_back(shape.size() > 1 || g.rng.chance(0.5)
                      ? std::to_string(g.rng.uniformInt(0, d - 1))
                      : g.dynIndex(d, 1.0).name);
  return pos;
}

bool emitExtract(Gen &g, const Value &v) {
  if (v.type.rank() == 2 && g.rng.chance(0.5)) {
    Type rt = vectorT(v.type.elt, {v.type.shape[1]});
    g.def(rt, "vector.extract " + g.use(v) + "[" +
                  std::to_string(g.rng.uniformInt(0, v.type.shape[0] - 1)) +
                  "] : " + rt.str() + " from " + v.type.str());
    return true;
  }
  std::vector<std::string> pos = positions(g, v.type.shape);
  g.def(scalarT(v.type.elt),
        "vector.extract " + g.use(v) + "[" + join(pos, ", ") +
            "] : " + eltName(v.type.elt) + " from " + v.type.str());
  return true;
}

bool emitInsert(Gen &g, const Value &v) {
  Value s = g.operand(scalarT(v.type.elt));
  std::vector<std::string> pos = positions(g, v.type.shape);
  g.def(v.type, "vector.insert " + g.use(s) + ", " + g.use(v) + " [" +
                    join(pos, ", ") + "] : " + eltName(v.type.elt) + " into " +
                    v.type.str());
  return true;
}

} // namespace

bool emitVectorOps(Gen &g) {
  std::optional<Value> v = someVector(g);
  if (!v || g.rng.chance(0.4))
    v = transferRead(g);
  if (!v)
    return false;
  for (int i = 0, n = int(g.rng.uniformInt(1, 3)); i < n; ++i) {
    std::optional<Value> x = someVector(g);
    if (!x)
      break;
    switch (g.rng.weighted({3, 1, 1, 1, 1, 1, 1})) {
    case 0:
      g.scalarOp(x->type);
      break;
    case 1:
      emitBroadcast(g, *x);
      break;
    case 2:
      emitShapeCast(g, *x);
      break;
    case 3:
      emitContract(g);
      break;
    case 4:
      emitReduction(g, *x);
      break;
    case 5:
      emitExtract(g, *x);
      break;
    default:
      emitInsert(g, *x);
      break;
    }
  }
  if (std::optional<Value> x = someVector(g); x && g.rng.chance(0.6))
    transferWrite(g, *x);
  return true;
}

} // namespace cc::prog
