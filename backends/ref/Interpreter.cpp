#include "backends/ref/Interpreter.h"

#include <chrono>
#include <cmath>

namespace cc {

namespace {
// Input tensors as the interpreter keeps them: under F64, float inputs are
// widened to f64 (exactly) so every kernel sees one storage policy.
Tensor asStored(const Tensor &t, Precision p) {
  if (p == Precision::F64 && isFloat(t.dtype()) && t.dtype() != DType::f64)
    return t.convertTo(DType::f64);
  return t;
}
Tensor absolute(Tensor t) {
  if (isFloat(t.dtype()))
    for (int64_t i = 0, n = t.size(); i < n; ++i)
      t.setF(i, std::fabs(t.getF(i)));
  return t;
}

// The magnitudes of a node's float results: the op (or add, see
// OpDef::magnitude) evaluated on the operands' magnitudes (integer
// operands, like select's condition and gather's indices, keep their
// values), or |result|.
Tensor magnitudeOf(const Node &node, const OpDef &def,
                   const std::vector<const Tensor *> &values,
                   const std::vector<const Tensor *> &mags,
                   const std::vector<TensorType> &resultTypes,
                   const Tensor &result) {
  bool floatOperand = false;
  for (const Tensor *v : values)
    floatOperand |= isFloat(v->dtype());
  if (def.magnitude == Magnitude::OfResult || !floatOperand ||
      !isFloat(result.dtype()) || node.results.size() != 1)
    return absolute(result);
  Node asSum = node;
  const OpDef *op = &def;
  if (def.magnitude == Magnitude::AsAdd) {
    static const OpDef *add = findOp("add");
    asSum.op = add->name;
    op = add;
  }
  EvalArgs args{asSum, {}, resultTypes, Precision::F64};
  for (size_t i = 0; i < values.size(); ++i)
    args.operands.push_back(isFloat(values[i]->dtype()) ? mags[i] : values[i]);
  auto r = op->eval(args);
  if (!r)
    return absolute(result);
  // Negate, a pad value: magnitudes are absolute.
  return absolute(std::move(r->front()));
}
} // namespace

Expected<Outputs> interpret(const Graph &g, const Inputs &inputs,
                            Precision precision, Outputs *magnitudes) {
  if (magnitudes && precision != Precision::F64)
    return makeError("magnitudes are computed with Precision::F64 only");
  if (inputs.size() != g.inputs.size())
    return makeError("graph '" + g.name + "' has " +
                     std::to_string(g.inputs.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  std::vector<Tensor> values(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo &info = g.values[g.inputs[i]];
    if (inputs[i].shape() != info.type.shape ||
        inputs[i].dtype() != info.type.dtype)
      return makeError("input '" + info.name + "' expects " + info.type.str() +
                       ", got " + inputs[i].type().str());
    values[g.inputs[i]] = asStored(inputs[i], precision);
  }
  std::vector<Tensor> mags;
  if (magnitudes) {
    mags.resize(g.values.size());
    for (ValueId v : g.inputs)
      mags[v] = absolute(values[v]);
  }
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    const OpDef *def = findOp(node.op);
    if (!def)
      return makeError("node " + std::to_string(n) + ": unknown op '" +
                       node.op + "'");
    EvalArgs args{node, {}, {}, precision};
    for (ValueId v : node.operands)
      args.operands.push_back(&values[v]);
    for (ValueId v : node.results)
      args.resultTypes.push_back(g.typeOf(v));
    auto results = def->eval(args);
    if (!results)
      return results.error().withContext("node " + std::to_string(n) + " (" +
                                         node.op + ")");
    if (magnitudes) {
      std::vector<const Tensor *> operandMags;
      for (ValueId v : node.operands)
        operandMags.push_back(&mags[v]);
      for (size_t r = 0; r < node.results.size(); ++r)
        mags[node.results[r]] =
            node.results.size() == 1
                ? magnitudeOf(node, *def, args.operands, operandMags,
                              args.resultTypes, results->front())
                : absolute((*results)[r]);
    }
    for (size_t r = 0; r < node.results.size(); ++r)
      values[node.results[r]] = std::move((*results)[r]);
  }
  Outputs out;
  for (ValueId v : g.outputs)
    out.push_back(values[v]);
  if (magnitudes) {
    magnitudes->clear();
    for (ValueId v : g.outputs)
      magnitudes->push_back(mags[v]);
  }
  return out;
}

Expected<Outputs> RefBackend::run(const Graph &g, const Inputs &inputs,
                                  const RunOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto out = interpret(g, inputs, precision);
  addStageTime(options.times, "reference", start);
  return out;
}

} // namespace cc
