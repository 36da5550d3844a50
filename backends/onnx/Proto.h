// ONNX protobuf messages as plain structs. Proto.cpp is the only translation
// unit that includes the generated protobuf headers (they are slow to
// compile); the importer, exporter and conformance runner work on these.
#pragma once

#include "core/Error.h"
#include "core/Tensor.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cc::onnx {

struct Attribute {
  enum Kind { Float, Int, String, TensorKind, Floats, Ints, Strings, Other };
  Kind kind = Other;
  double f = 0;
  int64_t i = 0;
  std::string s;
  std::optional<Tensor> t; // set for TensorKind
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

struct NodeProto {
  std::string opType;
  std::string domain;              // "" or "ai.onnx" for the default domain
  std::vector<std::string> inputs; // "" for an omitted optional input
  std::vector<std::string> outputs;
  std::map<std::string, Attribute> attrs;
};

// A graph input or output: its static type, or why it has none.
struct ValueProto {
  std::string name;
  std::optional<TensorType> type;
  std::string whyNoType; // "dimension 'N' is symbolic", ...
};

struct ModelProto {
  int64_t opset = 0; // of the default domain
  std::string graphName;
  std::vector<ValueProto> inputs; // initializers excluded
  std::vector<ValueProto> outputs;
  std::vector<std::pair<std::string, Tensor>> initializers;
  std::vector<NodeProto> nodes;
};

// Parses a serialized ModelProto. Tensor element types without a crosscheck
// dtype (u8, f64, strings, ...) are errors naming the tensor.
Expected<ModelProto> parseModel(const std::string &bytes);
// A negative dimension is written as the symbolic dimension "N"; an input
// or output without a type is written by name only.
std::string serializeModel(const ModelProto &m);

// A serialized TensorProto (the test_data_set_*/*.pb files); `declared`:
// the model's type of the value, when known.
Expected<Tensor> parseTensor(const std::string &bytes,
                             std::optional<DType> declared = std::nullopt);
std::string serializeTensor(const Tensor &t, const std::string &name);

// ONNX's TensorProto.DataType of a dtype and back (nullopt: none).
int onnxElemType(DType t);
std::optional<DType> dtypeOfOnnx(int elemType);

} // namespace cc::onnx
