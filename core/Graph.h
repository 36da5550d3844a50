// The graph IR: an SSA DAG of op-table ops over statically shaped tensors.
#pragma once

#include "core/Error.h"
#include "core/OpId.h"
#include "core/Tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace cc {

using ValueId = int32_t;

// Typed attribute values. The order matches AttrKind.
enum class AttrKind { Int, Float, Bool, String, Ints, Floats, Type, Tensor };
using AttrValue =
    std::variant<int64_t, double, bool, std::string, std::vector<int64_t>,
                 std::vector<double>, DType, Tensor>;
std::string_view attrKindName(AttrKind k);
inline AttrKind kindOf(const AttrValue &v) { return AttrKind(v.index()); }

class Attrs {
public:
  bool has(const std::string &name) const { return map.count(name) != 0; }
  void set(const std::string &name, AttrValue v) { map[name] = std::move(v); }
  const AttrValue *find(const std::string &name) const {
    auto it = map.find(name);
    return it == map.end() ? nullptr : &it->second;
  }
  // Typed getters; the verifier guarantees presence and kind of the
  // attributes an op declares, so kernels may call these directly.
  int64_t getInt(const std::string &n) const {
    return std::get<int64_t>(map.at(n));
  }
  double getFloat(const std::string &n) const {
    return std::get<double>(map.at(n));
  }
  bool getBool(const std::string &n) const { return std::get<bool>(map.at(n)); }
  const std::string &getString(const std::string &n) const {
    return std::get<std::string>(map.at(n));
  }
  const std::vector<int64_t> &getInts(const std::string &n) const {
    return std::get<std::vector<int64_t>>(map.at(n));
  }
  const std::vector<double> &getFloats(const std::string &n) const {
    return std::get<std::vector<double>>(map.at(n));
  }
  DType getType(const std::string &n) const {
    return std::get<DType>(map.at(n));
  }
  const Tensor &getTensor(const std::string &n) const {
    return std::get<Tensor>(map.at(n));
  }

  const std::map<std::string, AttrValue> &all() const { return map; }
  bool operator==(const Attrs &) const = default;

private:
  std::map<std::string, AttrValue> map;
};

struct ValueInfo {
  std::string name;
  TensorType type;
  int32_t producer = -1; // node index, or -1 for a graph input
  bool operator==(const ValueInfo &) const = default;
};

struct Node {
  OpId op = OpId::Const;
  std::vector<ValueId> operands;
  std::vector<ValueId> results;
  Attrs attrs;
  bool operator==(const Node &) const = default;
};

// Nodes are kept in topological order: a node uses only graph inputs and
// results of earlier nodes.
class Graph {
public:
  std::string name = "main";
  std::vector<ValueInfo> values;
  std::vector<ValueId> inputs;
  std::vector<Node> nodes;
  std::vector<ValueId> outputs;

  const TensorType &typeOf(ValueId v) const { return values.at(v).type; }
  ValueId addInput(std::string name, TensorType type);
  // Appends a node; result types come from the op table's type rule, so the
  // node is valid by construction or an error says why not.
  Expected<std::vector<ValueId>> addNode(OpId op, std::vector<ValueId> operands,
                                         Attrs attrs = {});
  // Same, for single-result ops.
  Expected<ValueId> add(OpId op, std::vector<ValueId> operands,
                        Attrs attrs = {});
  // By the op's name (as in JSON): an error when there is no such op.
  Expected<ValueId> add(std::string_view op, std::vector<ValueId> operands,
                        Attrs attrs = {});
  void addOutput(ValueId v) { outputs.push_back(v); }
  // Finds a value by name, -1 if none.
  ValueId lookup(const std::string &name) const;

  bool operator==(const Graph &) const = default;
};

// Checks SSA form, topological order, arity, dtypes, attribute presence and
// kinds, and that every result type matches the op's type rule. The message
// names the node, the op and the offending value.
Error verify(const Graph &g);

} // namespace cc
