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

} // namespace cc
