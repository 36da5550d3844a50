#include "core/Graph.h"
#include "core/Limits.h"
#include "core/OpTable.h"

#include <set>

namespace cc {

std::string_view attrKindName(AttrKind k) {
  switch (k) {
  case AttrKind::Int:
    return "int";
  case AttrKind::Float:
    return "float";
  case AttrKind::Bool:
    return "bool";
  case AttrKind::String:
    return "string";
  case AttrKind::Ints:
    return "int list";
  case AttrKind::Floats:
    return "float list";
  case AttrKind::Type:
    return "dtype";
  case AttrKind::Tensor:
    return "tensor";
  }
  return "?";
}

ValueId Graph::addInput(std::string n, TensorType type) {
  ValueId id = ValueId(values.size());
  values.push_back({std::move(n), std::move(type), -1});
  inputs.push_back(id);
  return id;
}

ValueId Graph::lookup(const std::string &n) const {
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i].name == n)
      return ValueId(i);
  return -1;
}

Expected<std::vector<ValueId>>
Graph::addNode(OpId op, std::vector<ValueId> operands, Attrs attrs) {
  const OpDef &def = opDef(op);
  attrs = withDefaults(def, std::move(attrs));
  std::vector<TensorType> types;
  for (ValueId v : operands) {
    if (v < 0 || size_t(v) >= values.size())
      return makeError(def.name + ": operand %" + std::to_string(v) +
                       " does not exist");
    types.push_back(values[v].type);
  }
  auto resultTypes = def.infer(types, attrs);
  if (!resultTypes)
    return resultTypes.error().withContext(def.name);
  Node node{op, std::move(operands), {}, std::move(attrs)};
  int32_t index = int32_t(nodes.size());
  for (TensorType &t : *resultTypes) {
    ValueId id = ValueId(values.size());
    values.push_back({"v" + std::to_string(id), std::move(t), index});
    node.results.push_back(id);
  }
  nodes.push_back(std::move(node));
  return nodes.back().results;
}

Expected<ValueId> Graph::add(std::string_view name,
                             std::vector<ValueId> operands, Attrs attrs) {
  std::optional<OpId> op = parseOpId(name);
  if (!op)
    return makeError("unknown op '" + std::string(name) + "'");
  return add(*op, std::move(operands), std::move(attrs));
}

Expected<ValueId> Graph::add(OpId op, std::vector<ValueId> operands,
                             Attrs attrs) {
  auto r = addNode(op, std::move(operands), std::move(attrs));
  if (!r)
    return r.error();
  if (r->size() != 1)
    return makeError(opDef(op).name + " has " + std::to_string(r->size()) +
                     " results, expected 1");
  return r->front();
}

namespace {
bool validName(const std::string &n) {
  if (n.empty())
    return false;
  for (char c : n)
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      return false;
  return true;
}
} // namespace

namespace {
// Names unique and valid, shapes positive, sizes within the limits, only
// graph dtypes.
Error verifyValues(const Graph &g) {
  std::set<std::string> names;
  int64_t total = 0;
  for (size_t i = 0; i < g.values.size(); ++i) {
    const ValueInfo &v = g.values[i];
    if (!validName(v.name))
      return makeError("value " + std::to_string(i) + " has an invalid name '" +
                       v.name + "' (use letters, digits, '_' and '.')");
    if (!names.insert(v.name).second)
      return makeError("value name '" + v.name + "' is defined twice");
    for (int64_t d : v.type.shape)
      if (d <= 0)
        return makeError("value '" + v.name + "' has type " + v.type.str() +
                         " with a non-positive dimension");
    auto count = checkedNumElements(v.type.shape);
    if (!count)
      return count.error().withContext("value '" + v.name + "' has type " +
                                       v.type.str());
    // Each count is at most kMaxTensorElements: the sum cannot overflow.
    total += *count;
    if (total > kMaxGraphElements)
      return makeError("the graph's values hold more than " +
                       std::to_string(kMaxGraphElements) +
                       " elements (the limit per graph)");
    if (v.type.dtype == DType::f64 || v.type.dtype == DType::i64)
      return makeError("value '" + v.name + "' has type " + v.type.str() +
                       ": " + std::string(dtypeName(v.type.dtype)) +
                       " is internal to crosscheck and not a graph type");
  }
  return Error();
}

Error verifyAttrs(const Node &node, const OpDef &def,
                  const std::string &where) {
  for (const auto &[name, value] : node.attrs.all()) {
    const AttrSpec *spec = def.attr(name);
    if (!spec)
      return makeError(where + ": unknown attribute '" + name + "'");
    if (kindOf(value) != spec->kind)
      return makeError(where + ": attribute '" + name + "' must be " +
                       std::string(attrKindName(spec->kind)));
  }
  for (const AttrSpec &spec : def.attrs)
    if (!node.attrs.has(spec.name))
      return makeError(where + ": missing attribute '" + spec.name + "'");
  return Error();
}

// The operand types of node n; each operand defined before it.
Expected<std::vector<TensorType>> operandTypes(const Graph &g, const Node &node,
                                               const OpDef &def,
                                               const std::vector<bool> &defined,
                                               const std::string &where) {
  int count = int(node.operands.size());
  if (count < def.minOperands ||
      (def.maxOperands >= 0 && count > def.maxOperands))
    return makeError(where + ": has " + std::to_string(count) +
                     " operands, expects " + std::to_string(def.minOperands) +
                     (def.maxOperands == def.minOperands ? ""
                      : def.maxOperands < 0
                          ? " or more"
                          : " to " + std::to_string(def.maxOperands)));
  std::vector<TensorType> types;
  for (ValueId v : node.operands) {
    if (v < 0 || size_t(v) >= g.values.size())
      return makeError(where + ": operand id " + std::to_string(v) +
                       " does not exist");
    if (!defined[v])
      return makeError(where + ": uses '" + g.values[v].name +
                       "' before it is defined");
    types.push_back(g.values[v].type);
  }
  if (!types.empty() && !def.allows(types[0].dtype))
    return makeError(where + ": dtype " +
                     std::string(dtypeName(types[0].dtype)) +
                     " is not allowed for " + def.name);
  return types;
}

// Node n against its op, its results marked defined.
Error verifyNode(const Graph &g, size_t n, std::vector<bool> &defined) {
  const Node &node = g.nodes[n];
  if (size_t(node.op) >= kOpCount)
    return makeError("node " + std::to_string(n) + ": no such op");
  const OpDef &op = opDef(node.op);
  const OpDef *def = &op;
  std::string where = "node " + std::to_string(n) + " (" + op.name + ")";
  CC_ASSIGN(types, operandTypes(g, node, *def, defined, where));
  CC_TRY(verifyAttrs(node, *def, where));
  auto inferred = def->infer(types, node.attrs);
  if (!inferred)
    return inferred.error().withContext(where);
  if (inferred->size() != node.results.size())
    return makeError(where + ": has " + std::to_string(node.results.size()) +
                     " results, expects " + std::to_string(inferred->size()));
  for (size_t r = 0; r < node.results.size(); ++r) {
    ValueId v = node.results[r];
    if (v < 0 || size_t(v) >= g.values.size())
      return makeError(where + ": result id " + std::to_string(v) +
                       " does not exist");
    if (defined[v])
      return makeError(where + ": result '" + g.values[v].name +
                       "' is defined twice");
    if (g.values[v].producer != int32_t(n))
      return makeError(where + ": result '" + g.values[v].name +
                       "' records the wrong producer");
    if (!(g.values[v].type == (*inferred)[r]))
      return makeError(where + ": result '" + g.values[v].name + "' has type " +
                       g.values[v].type.str() + " but " + op.name + " gives " +
                       (*inferred)[r].str());
    defined[v] = true;
  }
  return Error();
}
} // namespace

Error verify(const Graph &g) {
  CC_TRY(verifyValues(g));
  // defined[v]: v is available at this point of the walk.
  std::vector<bool> defined(g.values.size(), false);
  for (ValueId in : g.inputs) {
    if (in < 0 || size_t(in) >= g.values.size())
      return makeError("graph input id " + std::to_string(in) +
                       " does not exist");
    if (g.values[in].producer != -1)
      return makeError("graph input '" + g.values[in].name +
                       "' is produced by a node");
    defined[in] = true;
  }
  for (size_t n = 0; n < g.nodes.size(); ++n)
    CC_TRY(verifyNode(g, n, defined));
  if (g.outputs.empty())
    return makeError("graph has no outputs");
  for (ValueId v : g.outputs) {
    if (v < 0 || size_t(v) >= g.values.size() || !defined[v])
      return makeError("graph output id " + std::to_string(v) +
                       " is not defined");
  }
  return Error();
}

} // namespace cc
