// The memref family: a buffer (memref.alloc) filled by an affine loop nest
// from a tensor's elements, then read back through affine maps (a reversed
// and shifted copy, or a reduction of the innermost dimension with
// iter_args) and returned to tensors by bufferization.to_tensor ...
// restrict. Every element of a buffer is stored before any load, loads
// index with (d + c) mod size, so every access is in bounds, and no buffer
// is written after it became a tensor.
#include "generators/ProgramInternal.h"

namespace cc::prog {

namespace {

std::string memrefText(Elt e, const Shape &s) {
  std::string t = "memref<";
  for (int64_t d : s)
    t += std::to_string(d) + "x";
  return t + eltName(e) + ">";
}

// Opens `affine.for` loops over `shape` (one region each, scalars only from
// outside) and returns their induction variables.
std::vector<std::string> openNest(Gen &g, const Shape &shape) {
  std::vector<std::string> ivs;
  for (int64_t d : shape) {
    g.openRegion(true);
    Value iv = g.blockArg(scalarT(Elt::index), false);
    g.line("affine.for " + iv.name + " = 0 to " + std::to_string(d) + " {", 1);
    ivs.push_back(iv.name);
  }
  return ivs;
}

void closeNest(Gen &g, size_t depth) {
  for (size_t i = 0; i < depth; ++i) {
    g.closeRegion();
    g.line("}");
  }
}

// `iv`, or (iv + c) mod dim: a rotation that stays in bounds.
std::string rotated(Gen &g, const std::string &iv, int64_t dim) {
  if (dim == 1 || !g.rng.chance(0.4))
    return iv;
  return "(" + iv + " + " + std::to_string(g.rng.uniformInt(1, dim - 1)) +
         ") mod " + std::to_string(dim);
}

// A buffer of element type e and shape s, every element stored by a loop
// nest from `src` (same shape), through a scalar op or two.
std::string fill(Gen &g, const Value &src, Elt e) {
  const Shape &s = src.type.shape;
  std::string m = g.freshName();
  const std::string mt = memrefText(e, s);
  g.line(m + " = memref.alloc() : " + mt);
  std::vector<std::string> ivs = openNest(g, s);
  Value x = g.def(scalarT(src.type.elt), "tensor.extract " + g.use(src) + "[" +
                                             join(ivs, ", ") +
                                             "] : " + src.type.str());
  Value y = g.convert(x, e);
  if (g.rng.chance(0.6))
    y = g.combine(y, g.operand(scalarT(e)));
  g.line("affine.store " + g.use(y) + ", " + m + "[" + join(ivs, ", ") +
         "] : " + mt);
  closeNest(g, s.size());
  return m;
}

// A copy with the dimensions reversed, each maybe rotated.
std::pair<std::string, Shape> reversedCopy(Gen &g, const std::string &m, Elt e,
                                           const Shape &s) {
  Shape r(s.rbegin(), s.rend());
  std::string out = g.freshName();
  g.line(out + " = memref.alloc() : " + memrefText(e, r));
  std::vector<std::string> ivs = openNest(g, r);
  std::vector<std::string> at;
  for (size_t d = 0; d < s.size(); ++d)
    at.push_back(rotated(g, ivs[s.size() - 1 - d], s[d]));
  Value v = g.def(scalarT(e), "affine.load " + m + "[" + join(at, ", ") +
                                  "] : " + memrefText(e, s));
  g.line("affine.store " + g.use(v) + ", " + out + "[" + join(ivs, ", ") +
         "] : " + memrefText(e, r));
  closeNest(g, r.size());
  return {out, r};
}

// The innermost dimension reduced by an affine.for with iter_args.
std::pair<std::string, Shape> reduced(Gen &g, const std::string &m, Elt e,
                                      const Shape &s) {
  Shape r(s.begin(), s.end() - 1);
  std::string out = g.freshName();
  g.line(out + " = memref.alloc() : " + memrefText(e, r));
  std::vector<std::string> ivs = openNest(g, r);
  Value init = g.operand(scalarT(e));
  std::string acc = g.freshName();
  g.openRegion(true);
  Value k = g.blockArg(scalarT(Elt::index), false);
  Value a = g.blockArg(scalarT(e), false);
  g.line(acc + " = affine.for " + k.name + " = 0 to " +
             std::to_string(s.back()) + " iter_args(" + a.name + " = " +
             g.use(init) + ") -> (" + eltName(e) + ") {",
         1);
  std::vector<std::string> at = ivs;
  at.push_back(rotated(g, k.name, s.back()));
  Value v = g.def(scalarT(e), "affine.load " + m + "[" + join(at, ", ") +
                                  "] : " + memrefText(e, s));
  Value n = g.combine(a, v);
  g.line("affine.yield " + g.use(n) + " : " + eltName(e));
  g.closeRegion();
  g.line("}");
  g.line("affine.store " + acc + ", " + out + "[" + join(ivs, ", ") +
         "] : " + memrefText(e, r));
  closeNest(g, r.size());
  return {out, r};
}

void toTensor(Gen &g, const std::string &m, Elt e, const Shape &s) {
  Type t = tensorT(e, s);
  g.def(t, "bufferization.to_tensor " + m +
               " restrict writable : " + memrefText(e, s) + " to " + t.str());
}

} // namespace

bool emitMemrefOps(Gen &g) {
  std::optional<Value> src = g.someTensor(1, 3);
  if (!src)
    return false;
  const Elt e = g.randomElt();
  const Shape &s = src->type.shape;
  std::string m = fill(g, *src, e);
  switch (g.rng.uniformInt(0, 2)) {
  case 0: {
    auto [copy, shape] = reversedCopy(g, m, e, s);
    toTensor(g, copy, e, shape);
    break;
  }
  case 1: {
    auto [sums, shape] = reduced(g, m, e, s);
    toTensor(g, sums, e, shape);
    break;
  }
  default:
    break;
  }
  toTensor(g, m, e, s);
  return true;
}

} // namespace cc::prog
