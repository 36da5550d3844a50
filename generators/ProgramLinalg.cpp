// The linalg family: linalg.generic with random indexing maps and iterator
// types, and the named ops, on tensors. Init tensors that an op reads are
// tensor.empty + linalg.fill; only ops that overwrite every element of
// their init (transpose, broadcast) take a bare tensor.empty.
#include "generators/ProgramInternal.h"

#include <algorithm>
#include <numeric>

namespace cc::prog {

std::optional<Value> Gen::someTensor(int minRank, int maxRank, bool noI1) {
  return choose(visible([&](const Value &v) {
    return v.type.kind == Kind::Tensor && v.type.rank() >= minRank &&
           v.type.rank() <= maxRank && !(noI1 && v.type.elt == Elt::i1);
  }));
}

Value Gen::filled(const Type &t, bool pool) {
  Value x = operand(scalarT(t.elt));
  Value empty = def(t, "tensor.empty() : " + t.str(), false);
  return def(t,
             "linalg.fill ins(" + use(x) + " : " + x.type.str() + ") outs(" +
                 empty.name + " : " + t.str() + ") -> " + t.str(),
             pool);
}

namespace {

// A region's block arguments, printed as "(%b1: f32, %b2: i8)" or for a
// block header "^bb0(...):".
std::vector<Value> blockArgs(Gen &g, const std::vector<Type> &ts,
                             std::string &text) {
  std::vector<Value> vs;
  std::vector<std::string> parts;
  for (const Type &t : ts) {
    vs.push_back(g.blockArg(t));
    parts.push_back(vs.back().name + ": " + t.str());
  }
  text = "(" + join(parts, ", ") + ")";
  return vs;
}

// tensor of t's shape in element type e, elementwise converted by
// linalg.map.
Value mapConvert(Gen &g, const Value &v, Elt e) {
  Type out = v.type.with(e);
  Value init = g.filled(out);
  std::string name = g.freshName();
  g.line(name + " = linalg.map ins(" + g.use(v) + " : " + v.type.str() +
         ") outs(" + g.use(init) + " : " + out.str() + ")");
  g.openRegion(true);
  std::string args;
  std::vector<Value> bs = blockArgs(g, {scalarT(v.type.elt), scalarT(e)}, args);
  g.line(args + " {");
  Value r = g.convert(bs[0], e);
  g.line("  linalg.yield " + g.use(r) + " : " + eltName(e));
  g.closeRegion();
  g.line("}");
  Value res{name, out};
  g.addValue(res);
  return res;
}

std::string mapText(int loops, const std::vector<int> &dims) {
  std::vector<std::string> ds, rs;
  for (int i = 0; i < loops; ++i)
    ds.push_back("d" + std::to_string(i));
  for (int d : dims)
    rs.push_back("d" + std::to_string(d));
  return "affine_map<(" + join(ds, ", ") + ") -> (" + join(rs, ", ") + ")>";
}

std::vector<int> shuffled(Gen &g, std::vector<int> v) {
  for (size_t i = v.size(); i > 1; --i)
    std::swap(v[i - 1], v[size_t(g.rng.uniformInt(0, int64_t(i) - 1))]);
  return v;
}

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

std::string intList(const std::vector<int> &v) {
  std::vector<std::string> s;
  for (int x : v)
    s.push_back(std::to_string(x));
  return "[" + join(s, ", ") + "]";
}

bool emitGeneric(Gen &g) {
  std::optional<Value> in0 = g.someTensor(0, kMaxRank);
  if (!in0)
    return false;
  const int r = int(in0->type.rank());
  const int extra = (r == 0 || (r < kMaxRank && g.rng.chance(0.3))) ? 1 : 0;
  const int n = r + extra;
  std::vector<int> perm = shuffled(g, iota(n));
  Shape loop(size_t(n), 0);
  for (int k = 0; k < r; ++k)
    loop[size_t(perm[size_t(k)])] = in0->type.shape[size_t(k)];
  for (int k = r; k < n; ++k)
    loop[size_t(perm[size_t(k)])] = g.rng.uniformInt(1, 4);
  std::vector<Value> ins = {*in0};
  std::vector<std::string> maps = {
      mapText(n, std::vector<int>(perm.begin(), perm.begin() + r))};
  if (g.rng.chance(0.5)) { // a second input on a projection of the loops
    std::vector<int> dims;
    for (int d : shuffled(g, iota(n)))
      if (g.rng.chance(0.6))
        dims.push_back(d);
    Shape s;
    for (int d : dims)
      s.push_back(loop[size_t(d)]);
    ins.push_back(g.needTensor(tensorT(g.randomElt(), s)));
    maps.push_back(mapText(n, dims));
  }
  std::vector<bool> red(static_cast<size_t>(n));
  std::vector<int> outDims;
  std::vector<std::string> iters;
  for (int d = 0; d < n; ++d) {
    // Loops only the first input does not index stay parallel, so that the
    // output indexes them (every loop must be in some map).
    const bool inIn0 =
        std::find(perm.begin(), perm.begin() + r, d) != perm.begin() + r;
    red[size_t(d)] = inIn0 && g.rng.chance(0.3);
    iters.push_back(red[size_t(d)] ? "\"reduction\"" : "\"parallel\"");
    if (!red[size_t(d)])
      outDims.push_back(d);
  }
  if (g.rng.chance(0.3))
    outDims = shuffled(g, outDims);
  Shape os;
  for (int d : outDims)
    os.push_back(loop[size_t(d)]);
  if (numElements(loop) > 4 * kMaxElements)
    return false;
  const bool reduces = outDims.size() < size_t(n);
  Value init = g.filled(tensorT(g.randomElt(), os));
  maps.push_back(mapText(n, outDims));
  std::string name = g.freshName();
  g.line(name + " = linalg.generic {indexing_maps = [" + join(maps, ", ") +
         "], iterator_types = [" + join(iters, ", ") + "]} ins(" +
         namesText(g, ins) + " : " + typesText(ins) + ") outs(" + g.use(init) +
         " : " + init.type.str() + ") {");
  g.openRegion(true);
  std::vector<Type> argTypes;
  for (const Value &v : ins)
    argTypes.push_back(scalarT(v.type.elt));
  argTypes.push_back(scalarT(init.type.elt));
  std::string args;
  std::vector<Value> bs = blockArgs(g, argTypes, args);
  g.line("^bb0" + args + ":");
  if (g.rng.chance(0.3)) // the iteration index as data
    g.def(scalarT(Elt::index), "linalg.index " +
                                   std::to_string(g.rng.uniformInt(0, n - 1)) +
                                   " : index");
  Value x = g.scalarChain(scalarT(init.type.elt), int(g.rng.uniformInt(1, 4)));
  if (reduces)
    x = g.combine(bs.back(), x);
  g.line("linalg.yield " + g.use(x) + " : " + x.type.str());
  g.closeRegion();
  g.line("} -> " + init.type.str());
  g.addValue({name, init.type});
  return true;
}

bool emitMatmul(Gen &g, bool batch) {
  const int rank = batch ? 3 : 2;
  std::optional<Value> a = g.someTensor(rank, rank, true);
  if (!a) {
    Elt e;
    do
      e = g.randomElt();
    while (e == Elt::i1);
    a = g.needTensor(tensorT(e, g.randomShape(rank)));
  }
  const Shape &s = a->type.shape;
  const int64_t k = s.back(), m = s[s.size() - 2], nn = g.rng.uniformInt(1, 5);
  Shape bs = {k, nn}, cs = {m, nn};
  if (batch) {
    bs.insert(bs.begin(), s[0]);
    cs.insert(cs.begin(), s[0]);
  }
  Value b = g.needTensor(tensorT(a->type.elt, bs));
  Value c = g.filled(tensorT(a->type.elt, cs));
  g.def(c.type, std::string(batch ? "linalg.batch_matmul" : "linalg.matmul") +
                    " ins(" + g.use(*a) + ", " + g.use(b) + " : " +
                    a->type.str() + ", " + b.type.str() + ") outs(" + g.use(c) +
                    " : " + c.type.str() + ") -> " + c.type.str());
  return true;
}

// conv_2d_nhwc_hwcf, pooling_nhwc_sum and pooling_nhwc_max: strides and
// dilations of 1 or 2 that leave at least one output position.
bool emitWindowed(Gen &g, const std::string &op) {
  std::optional<Value> in = g.someTensor(4, 4, true);
  if (!in) {
    Elt e;
    do
      e = g.randomElt();
    while (e == Elt::i1);
    in = g.needTensor(
        tensorT(e, {g.rng.uniformInt(1, 2), g.rng.uniformInt(2, 5),
                    g.rng.uniformInt(2, 5), g.rng.uniformInt(1, 3)}));
  }
  const Shape &s = in->type.shape;
  int64_t win[2], stride[2], dil[2], out[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t h = s[size_t(1 + i)];
    win[i] = g.rng.uniformInt(1, std::min<int64_t>(h, 3));
    dil[i] = (win[i] - 1) * 2 + 1 <= h && g.rng.chance(0.3) ? 2 : 1;
    stride[i] = g.rng.chance(0.3) ? 2 : 1;
    out[i] = (h - (win[i] - 1) * dil[i] - 1) / stride[i] + 1;
  }
  const bool conv = op == "linalg.conv_2d_nhwc_hwcf";
  const int64_t f = conv ? g.rng.uniformInt(1, 4) : s[3];
  Value w = conv
                ? g.needTensor(tensorT(in->type.elt, {win[0], win[1], s[3], f}))
                : g.def(tensorT(in->type.elt, {win[0], win[1]}),
                        "tensor.empty() : " +
                            tensorT(in->type.elt, {win[0], win[1]}).str(),
                        false);
  Value o = g.filled(tensorT(in->type.elt, {s[0], out[0], out[1], f}));
  auto pair = [](const int64_t *v) {
    return "dense<[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) +
           "]> : tensor<2xi64>";
  };
  g.def(o.type, op + " {dilations = " + pair(dil) + ", strides = " +
                    pair(stride) + "} ins(" + g.use(*in) + ", " + g.use(w) +
                    " : " + in->type.str() + ", " + w.type.str() + ") outs(" +
                    g.use(o) + " : " + o.type.str() + ") -> " + o.type.str());
  return true;
}

bool emitTranspose(Gen &g) {
  std::optional<Value> x = g.someTensor(2, kMaxRank);
  if (!x)
    return false;
  std::vector<int> perm = shuffled(g, iota(int(x->type.rank())));
  Shape s;
  for (int p : perm)
    s.push_back(x->type.shape[size_t(p)]);
  Type t = tensorT(x->type.elt, s);
  Value e = g.def(t, "tensor.empty() : " + t.str(), false);
  g.def(t, "linalg.transpose ins(" + g.use(*x) + " : " + x->type.str() +
               ") outs(" + e.name + " : " + t.str() +
               ") permutation = " + intList(perm));
  return true;
}

bool emitBroadcast(Gen &g) {
  std::optional<Value> x = g.someTensor(0, kMaxRank - 1);
  if (!x)
    return false;
  const int r = int(x->type.rank());
  const int n = r + int(g.rng.uniformInt(1, kMaxRank - r));
  std::vector<int> added = shuffled(g, iota(n));
  added.resize(size_t(n - r));
  std::sort(added.begin(), added.end());
  Shape s;
  for (int d = 0, k = 0; d < n; ++d)
    s.push_back(std::count(added.begin(), added.end(), d)
                    ? g.rng.uniformInt(1, 4)
                    : x->type.shape[size_t(k++)]);
  if (numElements(s) > kMaxElements)
    return false;
  Type t = tensorT(x->type.elt, s);
  Value e = g.def(t, "tensor.empty() : " + t.str(), false);
  g.def(t, "linalg.broadcast ins(" + g.use(*x) + " : " + x->type.str() +
               ") outs(" + e.name + " : " + t.str() +
               ") dimensions = " + intList(added));
  return true;
}

bool emitReduce(Gen &g) {
  std::optional<Value> x = g.someTensor(1, kMaxRank);
  if (!x)
    return false;
  const int r = int(x->type.rank());
  std::vector<int> dims = shuffled(g, iota(r));
  dims.resize(size_t(g.rng.uniformInt(1, r)));
  std::sort(dims.begin(), dims.end());
  Shape s;
  for (int d = 0; d < r; ++d)
    if (!std::count(dims.begin(), dims.end(), d))
      s.push_back(x->type.shape[size_t(d)]);
  Value init = g.filled(tensorT(x->type.elt, s));
  std::string name = g.freshName();
  g.line(name + " = linalg.reduce ins(" + g.use(*x) + " : " + x->type.str() +
         ") outs(" + g.use(init) + " : " + init.type.str() +
         ") dimensions = " + intList(dims));
  g.openRegion(true);
  std::string args;
  const Type e = scalarT(x->type.elt);
  std::vector<Value> bs = blockArgs(g, {e, e}, args);
  g.line(args + " {");
  Value v =
      g.rng.chance(0.5) ? g.scalarChain(e, int(g.rng.uniformInt(1, 2))) : bs[0];
  Value acc = g.combine(bs[1], v);
  g.line("  linalg.yield " + g.use(acc) + " : " + e.str());
  g.closeRegion();
  g.line("}");
  g.addValue({name, init.type});
  return true;
}

bool emitMap(Gen &g) {
  std::optional<Value> x = g.someTensor(0, kMaxRank);
  if (!x)
    return false;
  std::vector<Value> ins = {*x};
  if (g.rng.chance(0.5))
    ins.push_back(g.needTensor(x->type.with(g.randomElt())));
  Value init = g.filled(x->type.with(g.randomElt()));
  std::string name = g.freshName();
  g.line(name + " = linalg.map ins(" + namesText(g, ins) + " : " +
         typesText(ins) + ") outs(" + g.use(init) + " : " + init.type.str() +
         ")");
  g.openRegion(true);
  std::vector<Type> ts;
  for (const Value &v : ins)
    ts.push_back(scalarT(v.type.elt));
  std::string args;
  blockArgs(g, ts, args);
  // The payload never reads the init's element: whether linalg.map may is
  // open upstream (#196959), and one-shot-bufferize assumes it does not
  // (#213241), so a read would be of uninitialized memory.
  Value initArg = g.blockArg(scalarT(init.type.elt), false);
  args.insert(args.size() - 1, ", " + initArg.name + ": " + initArg.type.str());
  g.line(args + " {");
  Value y = g.scalarChain(scalarT(init.type.elt), int(g.rng.uniformInt(1, 4)));
  g.line("  linalg.yield " + g.use(y) + " : " + y.type.str());
  g.closeRegion();
  g.line("}");
  g.addValue({name, init.type});
  return true;
}

bool emitFill(Gen &g) {
  g.filled(tensorT(g.randomElt(), g.randomShape(int(g.rng.uniformInt(0, 3)))));
  return true;
}

} // namespace

Value Gen::needTensor(const Type &t) {
  std::vector<Value> same =
      visible([&](const Value &v) { return v.type == t; });
  if (!same.empty() && rng.chance(0.8))
    return *choose(same);
  if (argCount() < kMaxArgs && rng.chance(0.5))
    return newArg(t.elt, t.shape);
  std::vector<Value> shaped = visible([&](const Value &v) {
    return v.type.kind == Kind::Tensor && v.type.shape == t.shape;
  });
  if (!shaped.empty() && rng.chance(0.5))
    return mapConvert(*this, *choose(shaped), t.elt);
  return filled(t);
}

bool emitLinalgOp(Gen &g) {
  switch (g.rng.weighted({5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2})) {
  case 0:
    return emitGeneric(g);
  case 1:
    return emitMatmul(g, false);
  case 2:
    return emitMatmul(g, true);
  case 3:
    return emitWindowed(g, "linalg.conv_2d_nhwc_hwcf");
  case 4:
    return emitWindowed(g, "linalg.pooling_nhwc_sum");
  case 5:
    return emitWindowed(g, "linalg.pooling_nhwc_max");
  case 6:
    return emitFill(g);
  case 7:
    return emitTranspose(g);
  case 8:
    return emitBroadcast(g);
  case 9:
    return emitReduce(g);
  default:
    return emitMap(g);
  }
}

} // namespace cc::prog
