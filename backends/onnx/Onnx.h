// ONNX interop: .onnx models in and out of the graph IR, and ONNX's
// test_data_set_* layout of inputs and expected outputs.
//
// Import works as a TOSA frontend: each ONNX op becomes op-table ops,
// decomposed where TOSA has no single operator (float Div as a *
// reciprocal(b), Softmax, normalizations, ...; docs/ONNX.md), so the graph
// has exact TOSA semantics. Shapes must be static. Operands ONNX passes as
// tensors but TOSA takes as attributes (Reshape's shape, Slice's starts,
// Pad's pads, ...) must be computable at import: initializers, Constant
// outputs, shape arithmetic over them, or inputs whose values are supplied.
#pragma once

#include "backends/Backend.h"
#include "core/Graph.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cc {

// Imports a serialized ModelProto. `knownInputs` gives values of graph
// inputs: an input used where a constant is needed is folded into the graph
// (and dropped from its inputs). Unsupported ops give one error listing them.
Expected<Graph>
importOnnx(const std::string &bytes,
           const std::map<std::string, Tensor> &knownInputs = {});
Expected<Graph> loadOnnx(const std::string &path);
// A graph file by extension: .onnx through loadOnnx, else graph JSON.
Expected<Graph> loadAnyGraph(const std::string &path);

// A serialized TensorProto file (test_data_set_*/input_0.pb).
Expected<Tensor> readOnnxTensor(const std::string &path,
                                std::optional<DType> declared = std::nullopt);

// An ONNX backend test folder: model.onnx with test_data_set_0.
struct OnnxTestCase {
  Graph graph;
  Inputs inputs;                    // in the order of graph.inputs
  Outputs expected;                 // in the order of graph.outputs
  std::vector<std::string> opTypes; // the model's distinct op types
};
// Errors with ErrorCode::Unsupported when the model uses what the importer
// does not map; other errors for malformed folders.
Expected<OnnxTestCase> loadOnnxTestCase(const std::string &dir);

// Writes DIR/model.onnx and DIR/test_data_set_0/{input,output}_N.pb. The
// ops without an ONNX equivalent give one error listing them.
Error exportOnnx(const Graph &g, const Inputs &inputs, const Outputs &outputs,
                 const std::string &dir);
// The model alone, serialized.
Expected<std::string> exportOnnxModel(const Graph &g);
// "" when every node of the op can be exported (attributes and dtypes
// permitting), else why ONNX cannot express it.
std::string onnxExportGap(OpId op);

} // namespace cc
