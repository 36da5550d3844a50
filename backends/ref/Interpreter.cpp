#include "backends/ref/Interpreter.h"

#include <chrono>

namespace cc {

namespace {
// Input tensors as the interpreter keeps them: under F64, float inputs are
// widened to f64 (exactly) so every kernel sees one storage policy.
Tensor asStored(const Tensor &t, Precision p) {
  if (p == Precision::F64 && isFloat(t.dtype()) && t.dtype() != DType::f64)
    return t.convertTo(DType::f64);
  return t;
}
} // namespace

Expected<Outputs> interpret(const Graph &g, const Inputs &inputs,
                            Precision precision) {
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
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &node = g.nodes[n];
    const OpDef *def = findOp(node.op);
    if (!def)
      return makeError("node " + std::to_string(n) + ": unknown op '" + node.op + "'");
    EvalArgs args{node, {}, {}, precision};
    for (ValueId v : node.operands)
      args.operands.push_back(&values[v]);
    for (ValueId v : node.results)
      args.resultTypes.push_back(g.typeOf(v));
    auto results = def->eval(args);
    if (!results)
      return results.error().withContext("node " + std::to_string(n) + " (" +
                                         node.op + ")");
    for (size_t r = 0; r < node.results.size(); ++r)
      values[node.results[r]] = std::move((*results)[r]);
  }
  Outputs out;
  for (ValueId v : g.outputs)
    out.push_back(values[v]);
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
