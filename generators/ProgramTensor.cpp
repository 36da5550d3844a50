// The tensor family: slices with static and data-dependent (always in
// bounds) offsets, pad, reshapes, concat, splat, generate, from_elements.
#include "generators/ProgramInternal.h"

#include <algorithm>

namespace cc::prog {

namespace {

// An offset in [0, bound): a static literal or an SSA index from data.
std::string offsetText(Gen &g, int64_t bound) {
  if (g.rng.chance(0.5) || bound <= 1)
    return std::to_string(bound <= 1 ? 0 : g.rng.uniformInt(0, bound - 1));
  return g.dynIndex(bound, 1.0).name;
}

struct Slice {
  std::vector<std::string> offsets;
  Shape sizes;
  std::vector<int64_t> strides;
  std::string text() const { // "[o0, %x] [2, 3] [1, 2]"
    std::vector<std::string> sz, st;
    for (int64_t s : sizes)
      sz.push_back(std::to_string(s));
    for (int64_t s : strides)
      st.push_back(std::to_string(s));
    return "[" + join(offsets, ", ") + "] [" + join(sz, ", ") + "] [" +
           join(st, ", ") + "]";
  }
};

// A slice of `sizes` (drawn when empty) in a tensor of `shape`: every
// element it touches, offset + (size - 1) * stride, is in bounds.
Slice slice(Gen &g, const Shape &shape, Shape sizes = {}) {
  Slice s;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t dim = shape[d];
    const int64_t size = sizes.empty() ? g.rng.uniformInt(1, dim) : sizes[d];
    const int64_t stride =
        (size - 1) * 2 + 1 <= dim && g.rng.chance(0.3) ? 2 : 1;
    const int64_t span = (size - 1) * stride + 1;
    s.offsets.push_back(offsetText(g, dim - span + 1));
    s.sizes.push_back(size);
    s.strides.push_back(stride);
  }
  return s;
}

bool emitExtractSlice(Gen &g) {
  std::optional<Value> t = g.someTensor(1, kMaxRank);
  if (!t)
    return false;
  Slice s = slice(g, t->type.shape);
  Shape result = s.sizes;
  if (g.rng.chance(0.2)) // rank-reducing: unit dims dropped
    result.erase(std::remove(result.begin(), result.end(), 1), result.end());
  Type rt = tensorT(t->type.elt, result);
  g.def(rt, "tensor.extract_slice " + g.use(*t) + s.text() + " : " +
                t->type.str() + " to " + rt.str());
  return true;
}

bool emitInsertSlice(Gen &g) {
  std::optional<Value> dest = g.someTensor(1, kMaxRank);
  if (!dest)
    return false;
  const Shape &ds = dest->type.shape;
  std::vector<Value> fits = g.visible([&](const Value &v) {
    if (v.type.kind != Kind::Tensor || v.type.elt != dest->type.elt ||
        v.type.rank() != dest->type.rank() || v.name == dest->name)
      return false;
    for (size_t d = 0; d < ds.size(); ++d)
      if (v.type.shape[d] > ds[d])
        return false;
    return true;
  });
  Value src;
  if (!fits.empty() && g.rng.chance(0.7)) {
    src = *g.choose(fits);
  } else {
    Shape s;
    for (int64_t d : ds)
      s.push_back(g.rng.uniformInt(1, d));
    src = g.needTensor(tensorT(dest->type.elt, s));
  }
  Slice s = slice(g, ds, src.type.shape);
  g.def(dest->type, "tensor.insert_slice " + g.use(src) + " into " +
                        g.use(*dest) + s.text() + " : " + src.type.str() +
                        " into " + dest->type.str());
  return true;
}

bool emitPad(Gen &g) {
  std::optional<Value> t = g.someTensor(1, kMaxRank);
  if (!t)
    return false;
  Shape lo, hi, out;
  for (int64_t d : t->type.shape) {
    lo.push_back(g.rng.uniformInt(0, 2));
    hi.push_back(g.rng.uniformInt(0, 2));
    out.push_back(d + lo.back() + hi.back());
  }
  if (numElements(out) > kMaxElements)
    return false;
  const Type e = scalarT(t->type.elt);
  Value pad = g.operand(e);
  Type rt = tensorT(t->type.elt, out);
  std::string name = g.freshName();
  g.line(name + " = tensor.pad " + g.use(*t) + " low[" + shapeText(lo) +
         "] high[" + shapeText(hi) + "] {");
  g.openRegion(true);
  std::vector<std::string> args;
  for (size_t i = 0; i < lo.size(); ++i)
    args.push_back(g.blockArg(scalarT(Elt::index)).name + ": index");
  g.line("^bb0(" + join(args, ", ") + "):");
  g.line("tensor.yield " + g.use(pad) + " : " + e.str());
  g.closeRegion();
  g.line("} : " + t->type.str() + " to " + rt.str());
  g.addValue({name, rt});
  return true;
}

std::string groupsText(const std::vector<std::vector<int>> &groups) {
  std::vector<std::string> gs;
  for (const auto &grp : groups) {
    std::vector<std::string> ds;
    for (int d : grp)
      ds.push_back(std::to_string(d));
    gs.push_back("[" + join(ds, ", ") + "]");
  }
  return "[" + join(gs, ", ") + "]";
}

bool emitExpand(Gen &g) {
  std::optional<Value> t = g.someTensor(1, kMaxRank - 1);
  if (!t)
    return false;
  const Shape &s = t->type.shape;
  const int split = int(g.rng.uniformInt(0, int64_t(s.size()) - 1));
  std::vector<int64_t> factors;
  for (int64_t f = 1; f <= s[size_t(split)]; ++f)
    if (s[size_t(split)] % f == 0)
      factors.push_back(f);
  const int64_t a = g.rng.pick(factors);
  Shape out;
  std::vector<std::vector<int>> groups;
  for (size_t d = 0; d < s.size(); ++d) {
    int at = int(out.size());
    if (int(d) == split) {
      out.insert(out.end(), {a, s[d] / a});
      groups.push_back({at, at + 1});
    } else {
      out.push_back(s[d]);
      groups.push_back({at});
    }
  }
  Type rt = tensorT(t->type.elt, out);
  g.def(rt, "tensor.expand_shape " + g.use(*t) + " " + groupsText(groups) +
                " output_shape [" + shapeText(out) + "] : " + t->type.str() +
                " into " + rt.str());
  return true;
}

bool emitCollapse(Gen &g) {
  std::optional<Value> t = g.someTensor(2, kMaxRank);
  if (!t)
    return false;
  const Shape &s = t->type.shape;
  const int r = int(s.size());
  const int first = int(g.rng.uniformInt(0, r - 2));
  const int last = int(g.rng.uniformInt(first + 1, r - 1));
  Shape out;
  std::vector<std::vector<int>> groups;
  for (int d = 0; d < r; ++d) {
    if (d > first && d <= last) {
      out.back() *= s[size_t(d)];
      groups.back().push_back(d);
    } else {
      out.push_back(s[size_t(d)]);
      groups.push_back({d});
    }
  }
  Type rt = tensorT(t->type.elt, out);
  g.def(rt, "tensor.collapse_shape " + g.use(*t) + " " + groupsText(groups) +
                " : " + t->type.str() + " into " + rt.str());
  return true;
}

bool emitConcat(Gen &g) {
  std::optional<Value> a = g.someTensor(1, kMaxRank);
  if (!a)
    return false;
  const int dim = int(g.rng.uniformInt(0, a->type.rank() - 1));
  Shape bs = a->type.shape;
  bs[size_t(dim)] = g.rng.uniformInt(1, 4);
  Value b = g.rng.chance(0.3) ? *a : g.needTensor(tensorT(a->type.elt, bs));
  Shape out = a->type.shape;
  out[size_t(dim)] += b.type.shape[size_t(dim)];
  if (numElements(out) > kMaxElements)
    return false;
  Type rt = tensorT(a->type.elt, out);
  g.def(rt, "tensor.concat dim(" + std::to_string(dim) + ") " + g.use(*a) +
                ", " + g.use(b) + " : (" + a->type.str() + ", " + b.type.str() +
                ") -> " + rt.str());
  return true;
}

bool emitSplat(Gen &g) {
  Type rt = tensorT(g.randomElt(), g.randomShape(int(g.rng.uniformInt(1, 3))));
  Value x = g.operand(scalarT(rt.elt));
  g.def(rt, "tensor.splat " + g.use(x) + " : " + rt.str());
  return true;
}

bool emitFromElements(Gen &g) {
  const Elt e = g.randomElt();
  Shape s = g.randomShape(int(g.rng.uniformInt(0, 2)));
  if (numElements(s) > 8)
    s = {int64_t(g.rng.uniformInt(1, 8))};
  std::vector<Value> vs;
  for (int64_t i = 0; i < numElements(s); ++i)
    vs.push_back(g.operand(scalarT(e)));
  Type rt = tensorT(e, s);
  g.def(rt, "tensor.from_elements " + namesText(g, vs) + " : " + rt.str());
  return true;
}

// tensor.generate: the body computes from its indices and may read another
// tensor at those indices wrapped into its bounds.
bool emitGenerate(Gen &g) {
  Type rt = tensorT(g.randomElt(), g.randomShape(int(g.rng.uniformInt(1, 3))));
  std::optional<Value> src = g.someTensor(1, kMaxRank);
  std::string name = g.freshName();
  g.line(name + " = tensor.generate {");
  g.openRegion(true);
  std::vector<Value> idx;
  std::vector<std::string> args;
  for (int64_t i = 0; i < rt.rank(); ++i) {
    idx.push_back(g.blockArg(scalarT(Elt::index)));
    args.push_back(idx.back().name + ": index");
  }
  g.line("^bb0(" + join(args, ", ") + "):");
  if (src && g.rng.chance(0.6)) {
    std::vector<std::string> at;
    for (int64_t d : src->type.shape) {
      Value i = g.rng.pick(idx);
      at.push_back(g.def(i.type, "arith.remui " + g.use(i) + ", " +
                                     g.indexConst(d).name + " : index")
                       .name);
    }
    g.def(scalarT(src->type.elt), "tensor.extract " + g.use(*src) + "[" +
                                      join(at, ", ") +
                                      "] : " + src->type.str());
  }
  Value y = g.scalarChain(scalarT(rt.elt), int(g.rng.uniformInt(1, 3)));
  g.line("tensor.yield " + g.use(y) + " : " + y.type.str());
  g.closeRegion();
  g.line("} : " + rt.str());
  g.addValue({name, rt});
  return true;
}

} // namespace

bool emitTensorOp(Gen &g) {
  switch (g.rng.weighted({2, 2, 1, 1, 1, 1, 1, 1, 1})) {
  case 0:
    return emitExtractSlice(g);
  case 1:
    return emitInsertSlice(g);
  case 2:
    return emitPad(g);
  case 3:
    return emitExpand(g);
  case 4:
    return emitCollapse(g);
  case 5:
    return emitConcat(g);
  case 6:
    return emitSplat(g);
  case 7:
    return emitFromElements(g);
  default:
    return emitGenerate(g);
  }
}

} // namespace cc::prog
