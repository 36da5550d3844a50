#include "core/OpTable.h"

#include "core/Format.h"
#include "core/ops/Families.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cc {

namespace {
// Every entry of core/ops/, at the index of its OpId.
std::vector<OpDef> buildTable() {
  std::vector<OpDef> entries;
  addElementwiseOps(entries);
  addLogicalOps(entries);
  addConversionOps(entries);
  addReductionOps(entries);
  addMatmulOps(entries);
  addConvOps(entries);
  addPoolOps(entries);
  addDataMovementOps(entries);
  std::vector<OpDef> ops(kOpCount);
  std::vector<bool> seen(kOpCount, false);
  for (OpDef &d : entries) {
    size_t i = size_t(d.id);
    // A programming error every test sees at once: an op of Ops.def
    // without an entry, or with two.
    if (i >= kOpCount || seen[i]) {
      std::fprintf(stderr, "crosscheck: op table: entry %zu twice\n", i);
      std::abort();
    }
    seen[i] = true;
    d.name = std::string(opName(d.id));
    ops[i] = std::move(d);
  }
  for (size_t i = 0; i < kOpCount; ++i)
    if (!seen[i]) {
      std::fprintf(stderr, "crosscheck: op table: no entry for '%s'\n",
                   std::string(kOpNames[i]).c_str());
      std::abort();
    }
  return ops;
}

const std::vector<OpDef> &table() {
  static const std::vector<OpDef> t = buildTable();
  return t;
}
} // namespace

const OpDef &opDef(OpId op) { return table()[size_t(op)]; }

const std::vector<OpDef> &allOps() { return table(); }

const OpDef *findOp(std::string_view name) {
  std::optional<OpId> op = parseOpId(name);
  return op ? &opDef(*op) : nullptr;
}

const AttrSpec *OpDef::attr(const std::string &n) const {
  for (const AttrSpec &a : attrs)
    if (a.name == n)
      return &a;
  return nullptr;
}

bool OpDef::allows(DType t) const {
  return std::find(dtypes.begin(), dtypes.end(), t) != dtypes.end();
}

Attrs withDefaults(const OpDef &op, Attrs attrs) {
  for (const AttrSpec &a : op.attrs)
    if (!attrs.has(a.name) && a.defaultValue)
      attrs.set(a.name, *a.defaultValue);
  return attrs;
}

std::vector<TensorType> exampleOperands(const OpDef &op, DType d) {
  if (op.example)
    return op.example(d);
  std::vector<TensorType> types;
  for (int i = 0; i < op.minOperands; ++i)
    types.push_back({d, i == 0 ? Shape{2, 3, 4} : Shape{1, 3, 4}});
  return types;
}

Expected<Graph> exampleGraph(const OpDef &op, DType d, uint64_t seed) {
  Graph g;
  g.name = op.name + "_" + std::string(dtypeName(d));
  Attrs attrs;
  if (op.id == OpId::Const) {
    Tensor value(d, {2, 3});
    for (int64_t i = 0; i < value.size(); ++i)
      isFloat(d) ? value.setF(i, 0.75 * double(i) - 1.5) : value.setI(i, i % 2);
    attrs.set("value", value);
  } else if (!op.allows(d)) {
    return makeError(op.name + " does not take " + std::string(dtypeName(d)));
  }
  std::vector<TensorType> types = exampleOperands(op, d);
  std::vector<ValueId> operands;
  for (size_t i = 0; i < types.size(); ++i)
    operands.push_back(g.addInput("in" + std::to_string(i), types[i]));
  Rng rng = Rng::forStream(seed, uint64_t(d));
  if (op.sampleAttrs)
    attrs = op.sampleAttrs(rng, types);
  CC_ASSIGN(results, g.addNode(op.id, operands, attrs));
  for (ValueId v : results)
    g.addOutput(v);
  CC_TRY(verify(g));
  return g;
}

Tensor EvalArgs::makeResult(size_t i) const {
  TensorType t = resultTypes.at(i);
  if (precision == Precision::F64 && isFloat(t.dtype))
    t.dtype = DType::f64;
  return Tensor(std::move(t));
}

EmitContext::EmitContext(const Graph &graph, int version)
    : syntaxVersion(version), g(graph) {}

std::string EmitContext::name(ValueId v) const {
  return "%" + g.values.at(v).name;
}

std::string EmitContext::fresh() { return "%_c" + std::to_string(counter++); }

void EmitContext::line(const std::string &t) { text += "    " + t + "\n"; }

} // namespace cc

namespace cc {

namespace {
// One element as an MLIR dense literal. Finite floats print in decimal with
// enough digits to round-trip; NaN and infinities print as their hex bit
// pattern, which MLIR's parser accepts for float elements.
std::string elementLiteral(const Tensor &t, int64_t i) {
  DType d = t.dtype();
  if (d == DType::i1)
    return t.getI(i) ? "true" : "false";
  if (isInt(d))
    return std::to_string(t.getI(i));
  double v = t.getF(i);
  if (std::isfinite(v)) {
    std::string s = formatDouble("%.17g", v);
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    return s;
  }
  uint64_t bits = 0;
  int hexDigits = bitWidth(d) / 4;
  if (d == DType::f32) {
    float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = u;
  } else if (d == DType::f16 || d == DType::bf16) {
    uint16_t u;
    std::memcpy(&u, t.data() + i * 2, 2);
    bits = u;
  } else {
    std::memcpy(&bits, &v, 8);
  }
  char buf[32];
  snprintf(buf, sizeof buf, "0x%0*llX", hexDigits, (unsigned long long)bits);
  return buf;
}

void appendNested(std::string &out, const Tensor &t, size_t dim,
                  int64_t &flat) {
  const Shape &s = t.shape();
  if (dim == s.size()) {
    out += elementLiteral(t, flat++);
    return;
  }
  out += '[';
  for (int64_t k = 0; k < s[dim]; ++k) {
    if (k)
      out += ", ";
    appendNested(out, t, dim + 1, flat);
  }
  out += ']';
}
} // namespace

std::string denseLiteral(const Tensor &t) {
  bool allSame = t.size() > 0;
  for (int64_t i = 1; i < t.size() && allSame; ++i)
    allSame = std::memcmp(t.data(), t.data() + i * byteSize(t.dtype()),
                          byteSize(t.dtype())) == 0;
  std::string out = "dense<";
  if (allSame) {
    out += elementLiteral(t, 0);
  } else {
    int64_t flat = 0;
    appendNested(out, t, 0, flat);
  }
  return out + "> : " + t.type().mlir();
}

std::string EmitContext::constant(const Tensor &t) {
  std::string n = fresh();
  const char *attr = syntaxVersion >= 21 ? "values" : "value";
  line(n + " = \"tosa.const\"() <{" + attr + " = " + denseLiteral(t) +
       "}> : () -> " + t.type().mlir());
  return n;
}

} // namespace cc
