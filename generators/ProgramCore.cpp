// The program generator's core: types, the emitter, the driver and inputs.
#include "generators/Edges.h"
#include "generators/ProgramInternal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cc {
namespace prog {

bool isFloat(Elt e) {
  return e == Elt::f16 || e == Elt::bf16 || e == Elt::f32 || e == Elt::f64;
}

int widthOf(Elt e) {
  switch (e) {
  case Elt::i1:
    return 1;
  case Elt::i8:
    return 8;
  case Elt::i16:
  case Elt::f16:
  case Elt::bf16:
    return 16;
  case Elt::i32:
  case Elt::f32:
    return 32;
  default:
    return 64;
  }
}

std::string eltName(Elt e) {
  if (e == Elt::index)
    return "index";
  return std::string(dtypeName(*dtypeOf(e)));
}

Elt eltOf(DType d) {
  static const Elt map[] = {Elt::i1,  Elt::i8,   Elt::i16, Elt::i32, Elt::i64,
                            Elt::f16, Elt::bf16, Elt::f32, Elt::f64};
  return map[size_t(d)];
}

std::optional<DType> dtypeOf(Elt e) {
  static const DType map[] = {DType::i1,  DType::i8,  DType::i16, DType::i32,
                              DType::i64, DType::i64, DType::f16, DType::bf16,
                              DType::f32, DType::f64};
  if (e == Elt::index)
    return std::nullopt;
  return map[size_t(e)];
}

std::string shapeText(const Shape &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s[i]);
  return out;
}

std::string Type::str() const {
  if (kind == Kind::Scalar)
    return eltName(elt);
  std::string dims;
  for (int64_t d : shape)
    dims += std::to_string(d) + "x";
  return (kind == Kind::Vector ? "vector<" : "tensor<") + dims + eltName(elt) +
         ">";
}

std::string join(const std::vector<std::string> &xs, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? sep : "") + xs[i];
  return out;
}

std::string typesText(const std::vector<Value> &vs) {
  std::vector<std::string> ts;
  for (const Value &v : vs)
    ts.push_back(v.type.str());
  return join(ts, ", ");
}

std::string namesText(Gen &g, const std::vector<Value> &vs) {
  std::vector<std::string> ns;
  for (const Value &v : vs)
    ns.push_back(g.use(v));
  return join(ns, ", ");
}

bool countedOp(const std::string &name) {
  static const char *const kNotCounted[] = {
      "arith.constant", "tensor.empty", "tensor.yield",
      "linalg.yield",   "linalg.index", "scf.yield",
      "scf.condition",  "vector.yield", "affine.yield"};
  for (const char *n : kNotCounted)
    if (name == n)
      return false;
  static const char *const kDialects[] = {
      "arith.",  "math.",   "tensor.", "linalg.",        "scf.",
      "vector.", "memref.", "affine.", "bufferization.", "index."};
  for (const char *d : kDialects)
    if (name.rfind(d, 0) == 0 && name.size() > strlen(d))
      return true;
  return false;
}

bool opChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}
bool wordChar(char c) {
  return opChar(c) || (c >= 'A' && c <= 'Z') || c == '#' || c == '%' ||
         c == '@' || c == '<';
}

// The op name a line of text starts with, after its results.
std::string opOfLine(const std::string &text) {
  size_t at = text.find_first_not_of(' ');
  if (at != std::string::npos && text[at] == '%') {
    size_t eq = text.find(" = ");
    if (eq == std::string::npos)
      return "";
    at = eq + 3;
  }
  size_t end = at;
  while (end < text.size() && opChar(text[end]))
    ++end;
  return text.substr(at, end - at);
}

// --- Gen
// ----------------------------------------------------------------------

Gen::Gen(const ProgramOptions &options, uint64_t seed)
    : rng(Rng::forStream(seed, 0x9e0)), opt(options) {
  for (DType d : options.dtypes)
    elts.push_back(eltOf(d));
  if (elts.empty())
    for (DType d : kAllDTypes)
      elts.push_back(eltOf(d));
  scopes.emplace_back();
}

std::string Gen::indentText() const {
  return std::string(4 + 2 * (scopes.size() - 1), ' ');
}

std::string Gen::freshName() { return "%v" + std::to_string(next++); }

void Gen::line(const std::string &text, int dedent) {
  if (countedOp(opOfLine(text)))
    ++counted;
  lines.push_back(indentText().substr(size_t(2 * dedent)) + text);
}

Value Gen::def(const Type &t, const std::string &rhs, bool pool) {
  Value v{freshName(), t};
  line(v.name + " = " + rhs);
  if (pool)
    addValue(v);
  return v;
}

std::vector<Value> Gen::defN(const std::vector<Type> &ts,
                             const std::string &rhs) {
  std::string name = freshName();
  line(name + ":" + std::to_string(ts.size()) + " = " + rhs);
  std::vector<Value> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    out.push_back({name + "#" + std::to_string(i), ts[i]});
    addValue(out.back());
  }
  return out;
}

Value Gen::blockArg(const Type &t, bool pool) {
  Value v{"%b" + std::to_string(next++), t};
  if (pool)
    addValue(v);
  return v;
}

std::string Gen::use(const Value &v) {
  usedNames.insert(v.name);
  return v.name;
}

bool Gen::unused(const Value &v) const { return !usedNames.count(v.name); }

void Gen::openRegion(bool scalarsOnly) {
  scopes.emplace_back();
  scopes.back().scalarsOnly = scalarsOnly;
}

void Gen::closeRegion() { scopes.pop_back(); }

std::optional<Value> Gen::choose(const std::vector<Value> &vs) {
  if (vs.empty())
    return std::nullopt;
  std::vector<Value> fresh;
  for (const Value &v : vs)
    if (unused(v))
      fresh.push_back(v);
  if (!fresh.empty() && rng.chance(0.7))
    return rng.pick(fresh);
  return rng.pick(vs);
}

Elt Gen::randomElt() { return rng.pick(elts); }

bool Gen::allowed(Elt e) const {
  return std::find(elts.begin(), elts.end(), e) != elts.end();
}

Elt Gen::randomScalarElt() {
  return rng.chance(0.1) ? Elt::index : randomElt();
}

Shape Gen::randomShape(int rank) {
  Shape s;
  for (int i = 0; i < rank; ++i)
    s.push_back(rng.uniformInt(1, rng.chance(0.3) ? kMaxDim : 4));
  // Shrink the largest dims until the tensor is small enough.
  while (numElements(s) > kMaxElements)
    --*std::max_element(s.begin(), s.end());
  return s;
}

namespace {
std::string hexBits(uint64_t bits, int digits) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%0*llX", digits, (unsigned long long)bits);
  return buf;
}
} // namespace

std::string floatLiteral(Elt e, double v) {
  switch (e) {
  case Elt::f16:
    return hexBits(f64ToF16Bits(v), 4);
  case Elt::bf16:
    return hexBits(f64ToBF16Bits(v), 4);
  case Elt::f32: {
    float f = f64ToF32(v);
    uint32_t b;
    memcpy(&b, &f, 4);
    return hexBits(b, 8);
  }
  default: {
    uint64_t b;
    memcpy(&b, &v, 8);
    return hexBits(b, 16);
  }
  }
}

std::string intLiteral(Elt e, int64_t v) {
  if (e == Elt::i1)
    return (v & 1) ? "true" : "false";
  return std::to_string(v);
}

std::string Gen::constantText(Elt e, bool edge) {
  DType d = dtypeOf(e).value_or(DType::i64);
  if (isFloat(e)) {
    double v;
    if (edge && rng.chance(0.3))
      v = rng.pick(floatSpecials(d, EdgeUse::Input));
    else if (edge)
      v = rng.pick(floatEdges(d, EdgeUse::Input));
    else
      v = std::round(rng.uniform(-8, 8) * 4) / 4;
    return floatLiteral(e, v);
  }
  int64_t v =
      edge ? rng.pick(intEdges(d, EdgeUse::Input)) : rng.uniformInt(-9, 9);
  return intLiteral(e, wrapInt(d, v));
}

Value Gen::constant(const Type &t, const std::string &literal) {
  std::string text =
      t.kind == Kind::Scalar ? literal : "dense<" + literal + ">";
  if (t.elt == Elt::i1 && t.kind == Kind::Scalar)
    return def(t, "arith.constant " + literal, false);
  return def(t, "arith.constant " + text + " : " + t.str(), false);
}

Value Gen::randomConstant(const Type &t) {
  return constant(t, constantText(t.elt, rng.chance(0.4)));
}

Value Gen::intConst(const Type &t, int64_t v) {
  DType d = dtypeOf(t.elt).value_or(DType::i64);
  return constant(t, intLiteral(t.elt, wrapInt(d, v)));
}

Value Gen::indexConst(int64_t v) { return intConst(scalarT(Elt::index), v); }

Value Gen::newArg(Elt e, const Shape &shape) {
  Value v{"%a" + std::to_string(argTypes.size()), tensorT(e, shape)};
  argTypes.push_back(TensorType{*dtypeOf(e), shape});
  argNames.push_back(v.name);
  scopes.front().values.push_back(v);
  return v;
}

bool Gen::emitFamily(Family f) {
  switch (f) {
  case Family::Linalg:
    return emitLinalgOp(*this);
  case Family::Tensor:
    return emitTensorOp(*this);
  case Family::Scalar:
    return emitScalarOps(*this);
  case Family::Scf:
    return emitScfOp(*this);
  case Family::Vector:
    return emitVectorOps(*this);
  case Family::Memref:
    return emitMemrefOps(*this);
  }
  return false;
}

void Gen::emitSome(int ops) {
  std::vector<double> w;
  for (const ProgramFamily &f : programFamilies())
    w.push_back(opt.*f.weight);
  if (depth() >= kMaxRegionDepth)
    w[size_t(Family::Scf)] = 0;
  double sum = 0;
  for (double x : w)
    sum += std::max(0.0, x);
  if (sum <= 0)
    return;
  const int stop = counted + ops;
  for (int tries = 0; counted < stop && tries < 50; ++tries)
    emitFamily(Family(rng.weighted(w)));
}

Program Gen::run() {
  target = std::max(1, opt.ops);
  for (int i = 0, n = int(rng.uniformInt(1, 3)); i < n; ++i)
    newArg(randomElt(), randomShape(int(rng.uniformInt(0, 3))));
  emitSome(target);
  Program p;
  finish(p);
  return p;
}

// A vector written into a new tensor of its shape.
void Gen::writeWhole(const Value &v) {
  Type t = tensorT(v.type.elt, v.type.shape);
  Value e = def(t, "tensor.empty() : " + t.str(), false);
  std::vector<std::string> zeros(v.type.shape.size(), indexConst(0).name);
  def(t, "vector.transfer_write " + use(v) + ", " + e.name + "[" +
             join(zeros, ", ") + "] : " + v.type.str() + ", " + t.str());
}

void Gen::finish(Program &p) {
  // Unused scalars and vectors become results too, so that they are seen.
  for (const Value &v : std::vector<Value>(scopes.front().values)) {
    if (!unused(v) || !allowed(v.type.elt) || !rng.chance(0.6))
      continue;
    if (v.type.kind == Kind::Scalar)
      def(tensorT(v.type.elt, {1}), "tensor.from_elements " + use(v) + " : " +
                                        tensorT(v.type.elt, {1}).str());
    else if (v.type.kind == Kind::Vector)
      if (std::optional<Value> w = storable(v))
        writeWhole(*w);
  }
  std::vector<Value> results;
  for (const Value &v : scopes.front().values)
    if (v.type.kind == Kind::Tensor && unused(v) && v.name[1] == 'v')
      results.push_back(v);
  if (results.size() > size_t(kMaxResults))
    results.erase(results.begin(), results.end() - kMaxResults);
  if (results.empty()) {
    Elt e = randomElt();
    results.push_back(filled(tensorT(e, randomShape(1))));
  }
  p.mlir = "module {\n  func.func @" + p.name + "(";
  for (size_t i = 0; i < argTypes.size(); ++i)
    p.mlir += (i ? ", " : "") + argNames[i] + ": " +
              tensorT(eltOf(argTypes[i].dtype), argTypes[i].shape).str();
  p.mlir += ") -> (" + typesText(results) + ") {\n";
  for (const std::string &l : lines)
    p.mlir += l + "\n";
  p.mlir += "    return " + namesText(*this, results) + " : " +
            typesText(results) + "\n  }\n}\n";
  p.args = argTypes;
  for (const Value &v : results)
    p.results.push_back(TensorType{*dtypeOf(v.type.elt), v.type.shape});
  p.shapes = shapes;
  p.opCounts = countProgramOps(p.mlir);
  for (const auto &[name, n] : p.opCounts) {
    std::string family = name.substr(0, name.find('.'));
    if (family == "linalg")
      family = name == "linalg.generic" ? "linalg.generic" : "linalg.named";
    p.families[family] += n;
    p.ops += n;
  }
}

} // namespace prog

std::vector<std::string> programOps(const std::string &mlir) {
  std::vector<std::string> ops;
  for (size_t i = 0; i < mlir.size(); ++i) {
    if (!prog::opChar(mlir[i]) || (i > 0 && prog::wordChar(mlir[i - 1])) ||
        (i > 0 && mlir[i - 1] == '.'))
      continue;
    size_t end = i;
    while (end < mlir.size() && prog::opChar(mlir[end]))
      ++end;
    std::string word = mlir.substr(i, end - i);
    if (prog::countedOp(word))
      ops.push_back(std::move(word));
    i = end;
  }
  return ops;
}

std::map<std::string, int> countProgramOps(const std::string &mlir) {
  std::map<std::string, int> counts;
  for (const std::string &op : programOps(mlir))
    ++counts[op];
  return counts;
}

const std::vector<ProgramFamily> &programFamilies() {
  using P = ProgramOptions;
  static const std::vector<ProgramFamily> families = {
      {"linalg", &P::linalg}, {"tensor", &P::tensor}, {"scalar", &P::scalar},
      {"scf", &P::scf},       {"vector", &P::vector}, {"memref", &P::memref}};
  return families;
}

Program generateProgram(const ProgramOptions &options, uint64_t seed) {
  return prog::Gen(options, seed).run();
}

Inputs programInputs(const std::vector<TensorType> &args, uint64_t seed) {
  Inputs inputs;
  for (size_t a = 0; a < args.size(); ++a) {
    Rng rng = Rng::forStream(seed, a);
    Tensor t(args[a]);
    const DType d = t.dtype();
    const std::vector<double> edges = edgeValues(d, EdgeUse::Input);
    const std::vector<double> specials =
        isFloat(d) ? floatSpecials(d, EdgeUse::Input) : std::vector<double>{};
    for (int64_t i = 0; i < t.size(); ++i) {
      if (isFloat(d)) {
        double r = rng.uniform01();
        double v = r < 0.2    ? rng.pick(edges)
                   : r < 0.28 ? rng.pick(specials)
                   : r < 0.9  ? rng.uniform(-4, 4)
                              : rng.uniform(-1e4, 1e4);
        t.setF(i, v);
      } else {
        double r = rng.uniform01();
        int64_t v = r < 0.25  ? int64_t(rng.pick(edges))
                    : r < 0.9 ? rng.uniformInt(-16, 16)
                              : rng.uniformInt(intMin(d), intMax(d));
        t.setI(i, v);
      }
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

} // namespace cc
