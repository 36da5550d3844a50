// The versioned JSON format of graphs and tensors.
//
//   {"format": "crosscheck-graph", "version": 1, "name": "mlp",
//    "inputs":  [{"name": "x", "type": "f32[2,4]"}],
//    "nodes":   [{"op": "matmul", "operands": ["x", "w"],
//                 "results": [{"name": "h", "type": "f32[1,2,4]"}],
//                 "attrs": {...}}],
//    "outputs": ["y"]}
//
// Result entries may be a bare name: the type then comes from the op's type
// rule. Attribute values are interpreted by the kind the op table declares:
// ints, floats, bools, strings, lists, dtypes as "f16", tensors as
// {"type": "f32[2]", "data": [1.0, "nan", "-inf", -0.0]} (or "splat": v).
#pragma once

#include "core/Error.h"
#include "core/Graph.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>

namespace cc {

inline constexpr int kGraphFormatVersion = 1;

Expected<Graph> graphFromJson(const nlohmann::json &j);
Expected<Graph> parseGraph(const std::string &text);
// Reads, parses and verifies a graph file.
Expected<Graph> loadGraph(const std::string &path);
nlohmann::json graphToJson(const Graph &g);
std::string printGraph(const Graph &g); // pretty JSON text

nlohmann::json tensorToJson(const Tensor &t);
// A float as JSON: a number, or "nan", "inf", "-inf", which JSON numbers
// cannot hold.
nlohmann::json floatToJson(double v);
Expected<Tensor> tensorFromJson(const nlohmann::json &j);

// ---- Documents that may come from anyone (docs/SECURITY.md) ----

inline constexpr int kMaxJsonDepth = 128;
// Parses JSON text: an error when it is not JSON or nests arrays and
// objects deeper than kMaxJsonDepth (copying, printing and destroying a
// value recurse per level).
Expected<nlohmann::json> parseJson(std::string_view text);
// The text of j; bytes that are not UTF-8 (a compiler's binary output, a
// symbol of raw bytes) become U+FFFD instead of an exception.
std::string jsonText(const nlohmann::json &j, int indent = -1);

// j[key] when j is an object holding key with a value of type T (bool,
// an integer type, double, std::string); `otherwise` when it has no such
// key; an error naming the key when its value has another type.
template <class T>
Expected<T> jsonField(const nlohmann::json &j, const char *key, T otherwise) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null())
    return otherwise;
  const nlohmann::json &v = j[key];
  bool fits;
  const char *want;
  if constexpr (std::is_same_v<T, bool>)
    fits = v.is_boolean(), want = "true or false";
  else if constexpr (std::is_same_v<T, std::string>)
    fits = v.is_string(), want = "a string";
  else if constexpr (std::is_floating_point_v<T>)
    fits = v.is_number(), want = "a number";
  else if constexpr (std::is_unsigned_v<T>)
    fits = v.is_number_unsigned(), want = "a non-negative integer";
  else
    fits = v.is_number_integer(), want = "an integer";
  if (!fits)
    return makeError(std::string("field '") + key + "' must be " + want +
                     ", not " + v.type_name());
  return v.get<T>();
}

} // namespace cc
