#include "core/Json.h"
#include "core/File.h"
#include "core/Limits.h"
#include "core/OpTable.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cc {

using nlohmann::json;

namespace {

// nlohmann's message without its "[json.exception.type_error.302] " tag.
std::string jsonReason(const json::exception &e) {
  std::string what = e.what();
  size_t p = what.find("] ");
  return p == std::string::npos ? what : what.substr(p + 2);
}

Expected<double> floatFromJson(const json &j) {
  if (j.is_number())
    return j.get<double>();
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "nan" || s == "-nan")
      return s[0] == '-' ? -NAN : NAN;
    if (s == "inf" || s == "+inf")
      return INFINITY;
    if (s == "-inf")
      return -INFINITY;
  }
  return makeError("expected a number (or \"nan\", \"inf\", \"-inf\"), got " +
                   j.dump());
}

Expected<int64_t> intFromJson(const json &j) {
  if (j.is_number_integer())
    return j.get<int64_t>();
  if (j.is_boolean())
    return int64_t(j.get<bool>());
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 9.007199254740992e15)
      return int64_t(d);
  }
  return makeError("expected an integer, got " + j.dump());
}

json attrToJson(const AttrValue &v) {
  switch (kindOf(v)) {
  case AttrKind::Int:
    return std::get<int64_t>(v);
  case AttrKind::Float:
    return floatToJson(std::get<double>(v));
  case AttrKind::Bool:
    return std::get<bool>(v);
  case AttrKind::String:
    return std::get<std::string>(v);
  case AttrKind::Ints:
    return std::get<std::vector<int64_t>>(v);
  case AttrKind::Floats: {
    json a = json::array();
    for (double d : std::get<std::vector<double>>(v))
      a.push_back(floatToJson(d));
    return a;
  }
  case AttrKind::Type:
    return std::string(dtypeName(std::get<DType>(v)));
  case AttrKind::Tensor:
    return tensorToJson(std::get<Tensor>(v));
  }
  return nullptr;
}

Expected<AttrValue> attrFromJson(AttrKind kind, const json &j) {
  switch (kind) {
  case AttrKind::Int: {
    CC_ASSIGN(i, intFromJson(j));
    return AttrValue(i);
  }
  case AttrKind::Float: {
    CC_ASSIGN(d, floatFromJson(j));
    return AttrValue(d);
  }
  case AttrKind::Bool:
    if (!j.is_boolean())
      return makeError("expected true or false, got " + j.dump());
    return AttrValue(j.get<bool>());
  case AttrKind::String:
    if (!j.is_string())
      return makeError("expected a string, got " + j.dump());
    return AttrValue(j.get<std::string>());
  case AttrKind::Ints: {
    if (!j.is_array())
      return makeError("expected a list of integers, got " + j.dump());
    std::vector<int64_t> out;
    for (const json &e : j) {
      CC_ASSIGN(i, intFromJson(e));
      out.push_back(i);
    }
    return AttrValue(std::move(out));
  }
  case AttrKind::Floats: {
    if (!j.is_array())
      return makeError("expected a list of numbers, got " + j.dump());
    std::vector<double> out;
    for (const json &e : j) {
      CC_ASSIGN(d, floatFromJson(e));
      out.push_back(d);
    }
    return AttrValue(std::move(out));
  }
  case AttrKind::Type: {
    auto t = j.is_string() ? parseDType(j.get<std::string>()) : std::nullopt;
    if (!t)
      return makeError("expected a dtype such as \"f32\", got " + j.dump());
    return AttrValue(*t);
  }
  case AttrKind::Tensor: {
    CC_ASSIGN(t, tensorFromJson(j));
    return AttrValue(std::move(t));
  }
  }
  return makeError("unknown attribute kind");
}

Expected<const json *> member(const json &obj, const char *key,
                              const std::string &where) {
  if (!obj.is_object())
    return makeError(where + " must be a JSON object");
  auto it = obj.find(key);
  if (it == obj.end())
    return makeError(where + " lacks \"" + key + "\"");
  return &*it;
}

Expected<std::string> stringMember(const json &obj, const char *key,
                                   const std::string &where) {
  CC_ASSIGN(m, member(obj, key, where));
  if (!m->is_string())
    return makeError(where + ": \"" + key + "\" must be a string");
  return m->get<std::string>();
}

Expected<TensorType> typeMember(const json &obj, const std::string &where) {
  CC_ASSIGN(s, stringMember(obj, "type", where));
  auto t = parseTensorType(s);
  if (!t)
    return t.error().withContext(where);
  return *t;
}

} // namespace

json floatToJson(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

json tensorToJson(const Tensor &t) {
  json j;
  j["type"] = t.type().str();
  json data = json::array();
  for (int64_t i = 0; i < t.size(); ++i) {
    if (isFloat(t.dtype()))
      data.push_back(floatToJson(t.getF(i)));
    else if (t.dtype() == DType::i1)
      data.push_back(bool(t.getI(i)));
    else
      data.push_back(t.getI(i));
  }
  j["data"] = std::move(data);
  return j;
}

Expected<Tensor> tensorFromJson(const json &j) {
  CC_ASSIGN(type, typeMember(j, "tensor"));
  Tensor t(type);
  auto store = [&](int64_t i, const json &e) -> Error {
    if (isFloat(t.dtype())) {
      CC_ASSIGN(d, floatFromJson(e));
      t.setF(i, d);
      return Error();
    }
    CC_ASSIGN(v, intFromJson(e));
    if (v < intMin(t.dtype()) || v > intMax(t.dtype()))
      return makeError("tensor element " + std::to_string(v) +
                       " does not fit " + std::string(dtypeName(t.dtype())));
    t.setI(i, v);
    return Error();
  };
  if (j.contains("splat")) {
    for (int64_t i = 0; i < t.size(); ++i)
      CC_TRY(store(i, j["splat"]).withContext("tensor splat"));
    return t;
  }
  CC_ASSIGN(data, member(j, "data", "tensor"));
  if (!data->is_array() || int64_t(data->size()) != t.size())
    return makeError("tensor of type " + type.str() + " needs \"data\" with " +
                     std::to_string(t.size()) + " elements");
  for (int64_t i = 0; i < t.size(); ++i)
    CC_TRY(store(i, (*data)[i])
               .withContext("tensor element " + std::to_string(i)));
  return t;
}

namespace {
Error checkHeader(const json &j) {
  if (!j.is_object())
    return makeError("a graph must be a JSON object");
  if (j.value("format", "") != "crosscheck-graph")
    return makeError(
        "not a crosscheck graph (\"format\" must be \"crosscheck-graph\")");
  if (!j.contains("version") || !j["version"].is_number_integer())
    return makeError("graph lacks an integer \"version\"");
  int version = j["version"].get<int>();
  if (version != kGraphFormatVersion)
    return makeError("graph format version " + std::to_string(version) +
                     " is not supported (this crosscheck reads version " +
                     std::to_string(kGraphFormatVersion) + ")");
  return Error();
}

Expected<ValueId> resolve(const Graph &g, const json &ref,
                          const std::string &where) {
  if (!ref.is_string())
    return makeError(where + ": expected a value name, got " + ref.dump());
  ValueId v = g.lookup(ref.get<std::string>());
  if (v < 0)
    return makeError(where + ": value '" + ref.get<std::string>() +
                     "' is not defined before it is used");
  return v;
}

// A node's attributes: those given, checked against the op's, plus the
// defaults; every attribute of the op must end up set.
Expected<Attrs> nodeAttrs(const json &jn, const OpDef &def,
                          const std::string &where) {
  Attrs attrs;
  if (jn.contains("attrs")) {
    if (!jn["attrs"].is_object())
      return makeError(where + ": \"attrs\" must be an object");
    for (auto it = jn["attrs"].begin(); it != jn["attrs"].end(); ++it) {
      const AttrSpec *spec = def.attr(it.key());
      if (!spec)
        return makeError(where + ": unknown attribute '" + it.key() + "'");
      auto v = attrFromJson(spec->kind, it.value());
      if (!v)
        return v.error().withContext(where + ": attribute '" + it.key() + "'");
      attrs.set(it.key(), std::move(*v));
    }
  }
  attrs = withDefaults(def, std::move(attrs));
  for (const AttrSpec &spec : def.attrs)
    if (!attrs.has(spec.name))
      return makeError(where + ": missing attribute '" + spec.name + "'");
  return attrs;
}

// The result names of a node; a declared type must match the inferred one.
Expected<std::vector<std::string>>
resultNames(const json &jn, const std::vector<TensorType> &inferred,
            const std::string &opName, const std::string &where) {
  CC_ASSIGN(results, member(jn, "results", where));
  if (!results->is_array() || results->size() != inferred.size())
    return makeError(where + ": \"results\" must list " +
                     std::to_string(inferred.size()) + " result(s)");
  std::vector<std::string> names;
  for (size_t r = 0; r < results->size(); ++r) {
    const json &jr = (*results)[r];
    if (jr.is_string()) {
      names.push_back(jr.get<std::string>());
      continue;
    }
    CC_ASSIGN(name, stringMember(jr, "name", where + " result"));
    names.push_back(name);
    if (!jr.contains("type"))
      continue;
    CC_ASSIGN(declared, typeMember(jr, where + " result '" + name + "'"));
    if (!(declared == inferred[r]))
      return makeError(where + ": result '" + name + "' is declared " +
                       declared.str() + " but " + opName + " gives " +
                       inferred[r].str());
  }
  return names;
}

// Node n of the JSON, appended to g. Result types come from the type rule.
Error addNode(Graph &g, const json &jn, size_t n) {
  std::string where = "node " + std::to_string(n);
  CC_ASSIGN(opName, stringMember(jn, "op", where));
  where += " (" + opName + ")";
  std::optional<OpId> op = parseOpId(opName);
  if (!op)
    return makeError(where + ": unknown op '" + opName + "'");
  const OpDef *def = &opDef(*op);
  Node node{*op, {}, {}, {}};
  if (jn.contains("operands")) {
    if (!jn["operands"].is_array())
      return makeError(where + ": \"operands\" must be a list");
    for (const json &ref : jn["operands"]) {
      CC_ASSIGN(v, resolve(g, ref, where));
      node.operands.push_back(v);
    }
  }
  CC_ASSIGN(attrs, nodeAttrs(jn, *def, where));
  node.attrs = std::move(attrs);
  std::vector<TensorType> operandTypes;
  for (ValueId v : node.operands)
    operandTypes.push_back(g.typeOf(v));
  int count = int(node.operands.size());
  if (count < def->minOperands ||
      (def->maxOperands >= 0 && count > def->maxOperands))
    return makeError(where + ": has " + std::to_string(count) +
                     " operands, which " + opName + " does not take");
  auto inferred = def->infer(operandTypes, node.attrs);
  if (!inferred)
    return inferred.error().withContext(where);
  CC_ASSIGN(names, resultNames(jn, *inferred, opName, where));
  for (size_t r = 0; r < names.size(); ++r) {
    node.results.push_back(ValueId(g.values.size()));
    g.values.push_back({names[r], (*inferred)[r], int32_t(g.nodes.size())});
  }
  g.nodes.push_back(std::move(node));
  return Error();
}

Expected<Graph> buildGraph(const json &j) {
  CC_TRY(checkHeader(j));
  Graph g;
  if (j.contains("name")) {
    if (!j["name"].is_string())
      return makeError("graph \"name\" must be a string");
    g.name = j["name"].get<std::string>();
  }
  CC_ASSIGN(inputs, member(j, "inputs", "graph"));
  if (!inputs->is_array())
    return makeError("graph \"inputs\" must be a list");
  for (size_t i = 0; i < inputs->size(); ++i) {
    std::string where = "input " + std::to_string(i);
    CC_ASSIGN(name, stringMember((*inputs)[i], "name", where));
    CC_ASSIGN(type, typeMember((*inputs)[i], where));
    g.addInput(name, type);
  }
  CC_ASSIGN(nodes, member(j, "nodes", "graph"));
  if (!nodes->is_array())
    return makeError("graph \"nodes\" must be a list");
  for (size_t n = 0; n < nodes->size(); ++n)
    CC_TRY(addNode(g, (*nodes)[n], n));
  CC_ASSIGN(outputs, member(j, "outputs", "graph"));
  if (!outputs->is_array())
    return makeError("graph \"outputs\" must be a list of value names");
  for (const json &ref : *outputs) {
    CC_ASSIGN(v, resolve(g, ref, "outputs"));
    g.outputs.push_back(v);
  }
  CC_TRY(verify(g));
  return g;
}
} // namespace

Expected<Graph> graphFromJson(const json &j) {
  // A value of a type that no check above expects may still reach
  // nlohmann's accessors (j.value("format", "") on a number): their
  // exceptions are bad input too.
  try {
    return buildGraph(j);
  } catch (const json::exception &e) {
    return makeError("bad graph: " + jsonReason(e));
  }
}

namespace {
// How deep `text` nests arrays and objects (strings skipped): checked
// before parsing, since copying, printing and destroying a json value
// recurse once per level.
int nestingDepth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}
} // namespace

// Numbers beyond a double (1e999) are nlohmann's out_of_range, not a
// parse_error.
Expected<json> parseJson(std::string_view text) {
  if (nestingDepth(text) > kMaxJsonDepth)
    return makeError("malformed JSON: nested deeper than " +
                     std::to_string(kMaxJsonDepth) + " levels");
  try {
    return json::parse(text);
  } catch (const json::parse_error &e) {
    return makeError("malformed JSON at byte " + std::to_string(e.byte));
  } catch (const json::exception &e) {
    return makeError("malformed JSON: " + jsonReason(e));
  }
}

std::string jsonText(const json &j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

Expected<Graph> parseGraph(const std::string &text) {
  CC_ASSIGN(j, parseJson(text));
  return graphFromJson(j);
}

Expected<Graph> loadGraph(const std::string &path) {
  CC_ASSIGN(text, readFile(path));
  auto g = parseGraph(text);
  if (!g)
    return g.error().withContext(path);
  return g;
}

json graphToJson(const Graph &g) {
  json j;
  j["format"] = "crosscheck-graph";
  j["version"] = kGraphFormatVersion;
  j["name"] = g.name;
  j["inputs"] = json::array();
  for (ValueId v : g.inputs)
    j["inputs"].push_back(
        {{"name", g.values[v].name}, {"type", g.values[v].type.str()}});
  j["nodes"] = json::array();
  for (const Node &n : g.nodes) {
    json jn;
    jn["op"] = opName(n.op);
    jn["operands"] = json::array();
    for (ValueId v : n.operands)
      jn["operands"].push_back(g.values[v].name);
    jn["results"] = json::array();
    for (ValueId v : n.results)
      jn["results"].push_back(
          {{"name", g.values[v].name}, {"type", g.values[v].type.str()}});
    if (!n.attrs.all().empty()) {
      json attrs = json::object();
      for (const auto &[k, v] : n.attrs.all())
        attrs[k] = attrToJson(v);
      jn["attrs"] = std::move(attrs);
    }
    j["nodes"].push_back(std::move(jn));
  }
  j["outputs"] = json::array();
  for (ValueId v : g.outputs)
    j["outputs"].push_back(g.values[v].name);
  return j;
}

std::string printGraph(const Graph &g) {
  return jsonText(graphToJson(g), 2) + "\n";
}

} // namespace cc
