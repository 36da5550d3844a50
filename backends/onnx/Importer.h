// The import context shared by the ONNX op handlers (Import.cpp,
// ImportOps.cpp).
#pragma once

#include "backends/onnx/Proto.h"
#include "core/Graph.h"

#include <functional>
#include <map>
#include <optional>
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
  // By value: adding ops grows the graph and would leave a reference dangling.
  TensorType typeOf(ValueId v) const { return g.typeOf(v); }
  // Operand i's type, without adding it to the graph (Shape, Size).
  Expected<TensorType> typeIn(size_t i) const;
  // Operand i's value, which must be known at import time.
  Expected<Tensor> constIn(size_t i);
  Expected<std::vector<int64_t>> intsIn(size_t i);

  int64_t attrInt(const std::string &n, int64_t dflt) const;
  double attrFloat(const std::string &n, double dflt) const;
  std::string attrString(const std::string &n, const std::string &dflt) const;
  std::optional<std::vector<int64_t>> attrInts(const std::string &n) const;
  const Attribute *attr(const std::string &n) const;

  Expected<ValueId> op(OpId op, std::vector<ValueId> operands,
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
  std::optional<Tensor> fold(ValueId v) const;
  void pruneDeadNodes();
  Error finish();
};

using OpHandler = std::function<Error(Importer &)>;
using OpHandlers = std::map<std::string, OpHandler>;
// ONNX op type -> handler: ImportOps.cpp maps ops 1:1 or nearly and
// ImportData.cpp the data-movement ops; the
// decompositions a TOSA frontend uses are in ImportNn.cpp (activations,
// normalizations, division, means), ImportShape.cpp (shape arithmetic,
// splits, resizing, predicates), ImportIndex.cpp (gathers, scatters),
// ImportConv.cpp (convolutions and pools) and ImportRnn.cpp (RNN, GRU,
// LSTM unrolled).
const OpHandlers &opHandlers();
void addDataHandlers(OpHandlers &handlers);
void addNnHandlers(OpHandlers &handlers);
void addEinsumHandlers(OpHandlers &handlers);
void addShapeHandlers(OpHandlers &handlers);
void addIndexHandlers(OpHandlers &handlers);
void addRnnHandlers(OpHandlers &handlers);
void addConvHandlers(OpHandlers &handlers);
// Op types that are refused on purpose, with the reason.
const std::map<std::string, std::string> &refusedOps();

// int64 tensors narrowed to i32 (the op table has no i64), exactly or an
// Unsupported error naming `what`.
Expected<Tensor> narrowTensor(const Tensor &t, const std::string &what);

// Normalizes a possibly negative axis; error when out of range.
Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank);

// --- helpers shared by the op handlers (ImportOps.cpp) ---
Attrs attrs(std::initializer_list<std::pair<const char *, AttrValue>> kv);
// op(a, b) with ONNX's multidirectional broadcasting (ranks equalized).
Expected<ValueId> binaryOp(Importer &im, OpId op, ValueId a, ValueId b);
// A constant of x's dtype with every dimension 1 (broadcasts against x).
Expected<ValueId> scalarLike(Importer &im, ValueId x, double v);
// Broadcasts v to `shape` by tiling its size-1 dimensions.
Expected<ValueId> broadcastTo(Importer &im, ValueId v, const Shape &shape);
// The sorted axes of a reduction: operand 1 from `inputOpset` on, else the
// "axes" attribute; all axes when none (unless noop_with_empty_axes).
Expected<std::vector<int64_t>> reduceAxes(Importer &im, int64_t inputOpset,
                                          int64_t rank);
// x reduced by `op` over `axes`, which keep size 1.
Expected<ValueId> reduceOver(Importer &im, OpId op, ValueId x,
                             const std::vector<int64_t> &axes);
// x cast to `to` the way ONNX's Cast converts (floats to integers
// truncate); castTo defines it as output 0.
Expected<ValueId> castValue(Importer &im, ValueId x, DType to);
Error castTo(Importer &im, ValueId x, DType to);
// x's slices along `axis` picked by `idx` (each in range).
Expected<ValueId> gatherAxis(Importer &im, ValueId x, int64_t axis,
                             const std::vector<int64_t> &idx);
// numpy's broadcast of two shapes (trailing dimensions aligned).
Expected<Shape> broadcastShapes(Shape a, Shape b);
// Drops the (sorted) reduced axes from v's shape.
Expected<ValueId> dropAxes(Importer &im, ValueId v, const Shape &before,
                           const std::vector<int64_t> &axes);

} // namespace cc::onnx
