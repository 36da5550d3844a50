// ONNX models into the graph IR: the import context and the entry points.
#include "backends/onnx/Importer.h"
#include "backends/onnx/Onnx.h"
#include "backends/ref/Interpreter.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Limits.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace cc {
namespace onnx {

Error unsupported(const std::string &message) {
  return Error::failure(message, ErrorCode::Unsupported);
}

Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= std::max<int64_t>(rank, 1))
    return makeError("axis " + std::to_string(axis) +
                     " is out of range for rank " + std::to_string(rank));
  return a;
}

namespace {
// The op table has no 64-bit integers: int64 values are narrowed to i32,
// which is exact while they fit (indices, shapes, small test data).
} // namespace

Expected<Tensor> narrowTensor(const Tensor &t, const std::string &what) {
  if (t.dtype() != DType::i64)
    return t;
  Tensor n = t.convertTo(DType::i32);
  for (int64_t i = 0; i < t.size(); ++i)
    if (n.getI(i) != t.getI(i))
      return unsupported(what + ": int64 value " + std::to_string(t.getI(i)) +
                         " does not fit in i32 (the op table has no i64)");
  return n;
}

namespace {
std::string sanitize(const std::string &name) {
  std::string s;
  for (char c : name)
    s += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (s.empty() || isdigit(static_cast<unsigned char>(s[0])))
    s = "t" + s;
  return s;
}
} // namespace

size_t Importer::numInputs() const {
  size_t n = node->inputs.size();
  while (n > 0 && node->inputs[n - 1].empty())
    --n;
  return n;
}

const Attribute *Importer::attr(const std::string &n) const {
  auto it = node->attrs.find(n);
  return it == node->attrs.end() ? nullptr : &it->second;
}
int64_t Importer::attrInt(const std::string &n, int64_t dflt) const {
  const Attribute *a = attr(n);
  return a && a->kind == Attribute::Int ? a->i : dflt;
}
double Importer::attrFloat(const std::string &n, double dflt) const {
  const Attribute *a = attr(n);
  return a && a->kind == Attribute::Float ? a->f : dflt;
}
std::string Importer::attrString(const std::string &n,
                                 const std::string &dflt) const {
  const Attribute *a = attr(n);
  return a && a->kind == Attribute::String ? a->s : dflt;
}
std::optional<std::vector<int64_t>>
Importer::attrInts(const std::string &n) const {
  const Attribute *a = attr(n);
  if (!a || a->kind != Attribute::Ints)
    return std::nullopt;
  return a->ints;
}

Expected<ValueId> Importer::lookup(const std::string &name) {
  if (auto it = values.find(name); it != values.end())
    return it->second;
  if (auto it = inputTypes.find(name); it != inputTypes.end()) {
    ValueId v = g.addInput(sanitize(name), it->second);
    values[name] = v;
    return v;
  }
  if (auto it = constants.find(name); it != constants.end()) {
    CC_ASSIGN(v, constant(it->second));
    values[name] = v;
    return v;
  }
  return makeError("value '" + name + "' is not defined before its use");
}

Expected<TensorType> Importer::typeIn(size_t i) const {
  if (i >= node->inputs.size() || node->inputs[i].empty())
    return makeError("operand " + std::to_string(i) + " is missing");
  const std::string &name = node->inputs[i];
  if (auto it = values.find(name); it != values.end())
    return g.typeOf(it->second);
  if (auto it = inputTypes.find(name); it != inputTypes.end())
    return it->second;
  if (auto it = constants.find(name); it != constants.end())
    return it->second.type();
  return makeError("value '" + name + "' is not defined before its use");
}

Expected<ValueId> Importer::in(size_t i) {
  if (i >= node->inputs.size() || node->inputs[i].empty())
    return makeError("operand " + std::to_string(i) + " is missing");
  return lookup(node->inputs[i]);
}

Expected<Tensor> Importer::constIn(size_t i) {
  if (i >= node->inputs.size() || node->inputs[i].empty())
    return makeError("operand " + std::to_string(i) + " is missing");
  const std::string &name = node->inputs[i];
  if (auto it = constants.find(name); it != constants.end())
    return it->second;
  if (auto it = known.find(name); it != known.end())
    return it->second;
  if (auto it = values.find(name); it != values.end())
    if (auto folded = fold(it->second))
      return *folded;
  return unsupported("operand " + std::to_string(i) + " ('" + name +
                     "') must be known at import (an initializer, a Constant "
                     "output, or computed from those only): it depends on a "
                     "graph input");
}

namespace {
// The nodes that `roots` depend on, and the values they read (inputs too).
struct Cone {
  std::vector<bool> node, value;
};
Cone coneOf(const Graph &g, const std::vector<ValueId> &roots) {
  Cone c{std::vector<bool>(g.nodes.size(), false),
         std::vector<bool>(g.values.size(), false)};
  for (ValueId v : roots)
    c.value[v] = true;
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node &n = g.nodes[i];
    c.node[i] = std::any_of(n.results.begin(), n.results.end(),
                            [&](ValueId r) { return c.value[r]; });
    if (c.node[i])
      for (ValueId o : n.operands)
        c.value[o] = true;
  }
  return c;
}
} // namespace

// Shape arithmetic computed from constants only (Shape, Gather, Mul, Concat
// feeding a Reshape): the value's cone evaluated now, in its own dtypes.
std::optional<Tensor> Importer::fold(ValueId v) const {
  Cone cone = coneOf(g, {v});
  for (ValueId in : g.inputs)
    if (cone.value[in])
      return std::nullopt;
  Graph sub;
  sub.values = g.values;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (cone.node[i])
      sub.nodes.push_back(g.nodes[i]);
  sub.outputs = {v};
  auto out = interpret(sub, {}, Precision::Target);
  if (!out)
    return std::nullopt;
  return std::move(out->front());
}

Expected<std::vector<int64_t>> Importer::intsIn(size_t i) {
  CC_ASSIGN(t, constIn(i));
  if (isFloat(t.dtype()))
    return makeError("operand " + std::to_string(i) + " must be integers");
  std::vector<int64_t> out;
  for (int64_t k = 0; k < t.size(); ++k)
    out.push_back(t.getI(k));
  return out;
}

Expected<ValueId> Importer::op(OpId op, std::vector<ValueId> operands,
                               Attrs attrs) {
  auto v = g.add(op, std::move(operands), std::move(attrs));
  if (!v) // the op table rejects this use (dtype, shape): not mappable
    return unsupported(v.error().message());
  return *v;
}

Expected<ValueId> Importer::constant(const Tensor &t) {
  CC_ASSIGN(n, narrowTensor(t, "constant"));
  Attrs a;
  a.set("value", n);
  return op(OpId::Const, {}, std::move(a));
}

Expected<ValueId> Importer::reshape(ValueId v, Shape shape) {
  if (typeOf(v).shape == shape)
    return v;
  Attrs a;
  a.set("shape", std::move(shape));
  return op(OpId::Reshape, {v}, std::move(a));
}

Expected<ValueId> Importer::transpose(ValueId v, std::vector<int64_t> perms) {
  Attrs a;
  a.set("perms", std::move(perms));
  return op(OpId::Transpose, {v}, std::move(a));
}

Expected<std::vector<ValueId>> Importer::equalRanks(std::vector<ValueId> vs) {
  int64_t rank = 0;
  for (ValueId v : vs)
    rank = std::max(rank, typeOf(v).rank());
  for (ValueId &v : vs) {
    Shape s = typeOf(v).shape;
    s.insert(s.begin(), rank - int64_t(s.size()), 1);
    CC_ASSIGN(r, reshape(v, s));
    v = r;
  }
  return vs;
}

Error Importer::define(size_t output, ValueId v) {
  if (output < node->outputs.size() && !node->outputs[output].empty())
    values[node->outputs[output]] = v;
  return Error::success();
}

void Importer::defineConstant(size_t output, Tensor t) {
  if (output < node->outputs.size() && !node->outputs[output].empty())
    constants[node->outputs[output]] = std::move(t);
}

Expected<Graph> Importer::run() {
  // All unsupported op types at once, before anything else can fail.
  std::set<std::string> missing;
  for (const NodeProto &n : model.nodes) {
    bool defaultDomain = n.domain.empty() || n.domain == "ai.onnx";
    if (!defaultDomain)
      missing.insert(n.domain + "." + n.opType);
    else if (!opHandlers().count(n.opType)) {
      auto r = refusedOps().find(n.opType);
      missing.insert(n.opType +
                     (r == refusedOps().end() ? "" : " (" + r->second + ")"));
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string &m : missing)
      list += (list.empty() ? "" : ", ") + m;
    return unsupported("unsupported ONNX ops: " + list);
  }
  g.name = model.graphName.empty() ? "main" : sanitize(model.graphName);
  for (const auto &[name, t] : model.initializers)
    constants[name] = t;
  for (const ValueProto &v : model.inputs) {
    if (!v.type)
      return unsupported("graph input '" + v.name + "': " + v.whyNoType);
    if (auto k = known.find(v.name); k != known.end())
      constants[v.name] = k->second; // folded where a constant is needed
    TensorType t = *v.type;
    if (auto n = checkedNumElements(t.shape); !n)
      return n.error().withContext("graph input '" + v.name + "' " + t.str());
    if (t.dtype == DType::f64)
      return unsupported("graph input '" + v.name +
                         "': f64 has no op-table dtype");
    if (t.dtype == DType::i64)
      t.dtype = DType::i32; // see narrowTensor()
    inputTypes[v.name] = t;
    inputOrder.push_back(v.name);
  }
  for (const ValueProto &v : model.outputs)
    if (!v.type)
      return unsupported("graph output '" + v.name + "': " + v.whyNoType);

  for (size_t i = 0; i < model.nodes.size(); ++i) {
    node = &model.nodes[i];
    if (Error e = opHandlers().at(node->opType)(*this))
      return e.withContext("node " + std::to_string(i) + " (" + node->opType +
                           ")");
  }
  CC_TRY(finish());
  return std::move(g);
}

// Drops nodes no output depends on (shape arithmetic that was folded, a
// Split's unused parts), renumbering values in order.
void Importer::pruneDeadNodes() {
  std::vector<bool> keep = coneOf(g, g.outputs).node;
  Graph out;
  out.name = g.name;
  std::vector<ValueId> map(g.values.size(), -1);
  auto addValue = [&](ValueId v, int32_t producer) {
    map[v] = ValueId(out.values.size());
    out.values.push_back({g.values[v].name, g.values[v].type, producer});
    return map[v];
  };
  for (ValueId v : g.inputs)
    out.inputs.push_back(addValue(v, -1));
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!keep[i])
      continue;
    Node n = g.nodes[i];
    for (ValueId &o : n.operands)
      o = map[o];
    for (ValueId &r : n.results)
      r = addValue(r, int32_t(out.nodes.size()));
    out.nodes.push_back(std::move(n));
  }
  for (ValueId v : g.outputs)
    out.outputs.push_back(map[v]);
  for (auto &[name, v] : values)
    v = map[v];
  g = std::move(out);
}

Error Importer::finish() {
  for (const ValueProto &v : model.outputs) {
    auto id = values.count(v.name) ? Expected<ValueId>(values[v.name])
                                   : lookup(v.name);
    if (!id)
      return id.error().withContext("graph output '" + v.name + "'");
    if (g.values[*id].producer >= 0)
      g.values[*id].name = sanitize(v.name);
    g.addOutput(*id);
  }
  // Graph inputs in the model's order.
  std::vector<ValueId> ordered;
  for (const std::string &name : inputOrder)
    if (auto it = values.find(name);
        it != values.end() && g.values[it->second].producer < 0 &&
        std::find(ordered.begin(), ordered.end(), it->second) ==
            ordered.end()) {
      ordered.push_back(it->second);
      inputNames.push_back(name);
    }
  g.inputs = ordered;
  pruneDeadNodes();
  // Helper values keep generated names that must not clash with ONNX names.
  std::set<std::string> used;
  for (ValueInfo &v : g.values)
    while (!used.insert(v.name).second)
      v.name += "_";
  return verify(g);
}

} // namespace onnx

Expected<Graph> importOnnx(const std::string &bytes,
                           const std::map<std::string, Tensor> &knownInputs) {
  CC_ASSIGN(model, onnx::parseModel(bytes));
  return onnx::Importer(model, knownInputs).run();
}

Expected<Graph> loadOnnx(const std::string &path) {
  CC_ASSIGN(bytes, readFile(path));
  auto g = importOnnx(bytes);
  if (!g)
    return g.error().withContext(path);
  return g;
}

Expected<Graph> loadAnyGraph(const std::string &path) {
  if (std::filesystem::path(path).extension() == ".onnx")
    return loadOnnx(path);
  return loadGraph(path);
}

Expected<Tensor> readOnnxTensor(const std::string &path,
                                std::optional<DType> declared) {
  CC_ASSIGN(bytes, readFile(path));
  auto t = onnx::parseTensor(bytes, declared);
  if (!t)
    return t.error().withContext(path);
  return t;
}

Expected<OnnxTestCase> loadOnnxTestCase(const std::string &dir) {
  namespace fs = std::filesystem;
  CC_ASSIGN(bytes, readFile(dir + "/model.onnx"));
  auto model = onnx::parseModel(bytes);
  if (!model)
    return model.error().withContext(dir + "/model.onnx");
  OnnxTestCase tc;
  std::set<std::string> ops;
  for (const onnx::NodeProto &n : model->nodes)
    ops.insert(n.opType);
  tc.opTypes.assign(ops.begin(), ops.end());
  for (const auto *list : {&model->inputs, &model->outputs})
    for (const onnx::ValueProto &v : *list)
      if (!v.type)
        return onnx::unsupported("'" + v.name + "': " + v.whyNoType);
  std::string data = dir + "/test_data_set_0";
  if (!fs::is_directory(data))
    return makeError(dir + ": no test_data_set_0");
  std::map<std::string, Tensor> known;
  for (size_t i = 0; i < model->inputs.size(); ++i) {
    CC_ASSIGN(t, readOnnxTensor(data + "/input_" + std::to_string(i) + ".pb",
                                model->inputs[i].type->dtype));
    known[model->inputs[i].name] = t;
  }
  onnx::Importer importer(*model, known);
  auto g = importer.run();
  if (!g)
    return g.error();
  tc.graph = std::move(*g);
  for (const std::string &name : importer.inputNames) {
    CC_ASSIGN(t, onnx::narrowTensor(known[name], "input '" + name + "'"));
    tc.inputs.push_back(t);
  }
  for (size_t i = 0; i < model->outputs.size(); ++i) {
    CC_ASSIGN(t, readOnnxTensor(data + "/output_" + std::to_string(i) + ".pb",
                                model->outputs[i].type->dtype));
    tc.expected.push_back(std::move(t));
  }
  return tc;
}

} // namespace cc
