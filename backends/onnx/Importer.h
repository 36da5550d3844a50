// The import context shared by the ONNX op handlers (Import.cpp, ImportOps.cpp).
#pragma once

#include "backends/onnx/Proto.h"
#include "core/Graph.h"

#include <functional>
#include <map>
#include <string>

namespace cc::onnx {

// An ErrorCode::Unsupported failure.
Error unsupported(const std::string &message);

class Importer {
public:
  Importer(const ModelProto &m, const std::map<std::string, Tensor> &known)
      : model(m), known(known) {}
  Expected<Graph> run();
  // After run: the ONNX names of the graph inputs, in order.
  std::vector<std::string> inputNames;

  // --- for the op handlers; `node` is the node being imported ---
  const NodeProto *node = nullptr;
  int64_t opset() const { return model.opset; }
  size_t numInputs() const;
  bool hasInput(size_t i) const { return i < numInputs(); }
  // Operand i as a graph value (constants are materialized on first use).
  Expected<ValueId> in(size_t i);
  const TensorType &typeOf(ValueId v) const { return g.typeOf(v); }
  // Operand i's value, which must be known at import time.
  Expected<Tensor> constIn(size_t i);
  Expected<std::vector<int64_t>> intsIn(size_t i);

  int64_t attrInt(const std::string &n, int64_t dflt) const;
  double attrFloat(const std::string &n, double dflt) const;
  std::string attrString(const std::string &n, const std::string &dflt) const;
  std::optional<std::vector<int64_t>> attrInts(const std::string &n) const;
  const Attribute *attr(const std::string &n) const;

  Expected<ValueId> op(const std::string &name, std::vector<ValueId> operands,
                       Attrs attrs = {});
  Expected<ValueId> constant(const Tensor &t);
  Expected<ValueId> reshape(ValueId v, Shape shape);
  Expected<ValueId> transpose(ValueId v, std::vector<int64_t> perms);
  // Reshapes lower-rank operands to the highest rank (ONNX broadcasting
  // aligns trailing dimensions; TOSA needs equal ranks).
  Expected<std::vector<ValueId>> equalRanks(std::vector<ValueId> vs);
  // The result of the node.
  Error define(size_t output, ValueId v);
  // Result as a known constant (Constant, folded shape arithmetic).
  void defineConstant(size_t output, Tensor t);

private:
  const ModelProto &model;
  const std::map<std::string, Tensor> &known;
  Graph g;
  std::map<std::string, ValueId> values;
  std::map<std::string, Tensor> constants;
  // Declared graph inputs, added to the graph on first use (lookup).
  std::map<std::string, TensorType> inputTypes;
  std::vector<std::string> inputOrder;

  Expected<ValueId> lookup(const std::string &name);
  Error finish();
};

using OpHandler = std::function<Error(Importer &)>;
// ONNX op type -> handler (ImportOps.cpp).
const std::map<std::string, OpHandler> &opHandlers();
// Op types that are refused on purpose, with the reason.
const std::map<std::string, std::string> &refusedOps();

// int64 tensors narrowed to i32 (the op table has no i64), exactly or an
// Unsupported error naming `what`.
Expected<Tensor> narrowTensor(const Tensor &t, const std::string &what);

// Normalizes a possibly negative axis; error when out of range.
Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank);

} // namespace cc::onnx
