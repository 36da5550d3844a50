// Helpers for the per-family op tests: build a one-node graph, run it with
// the reference interpreter and read the result back as doubles.
#pragma once

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"

#include <gtest/gtest.h>

namespace cc::test {

// A tensor of type `type` ("f32[2,2]") holding `values` (rounded/wrapped).
inline Tensor tensorOf(const std::string &type, const std::vector<double> &values) {
  Tensor t(*parseTensorType(type));
  EXPECT_EQ(int64_t(values.size()), t.size()) << type;
  for (int64_t i = 0; i < t.size() && i < int64_t(values.size()); ++i)
    isFloat(t.dtype()) ? t.setF(i, values[size_t(i)]) : t.setI(i, int64_t(values[size_t(i)]));
  return t;
}

inline std::vector<double> valuesOf(const Tensor &t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.size(); ++i)
    v.push_back(t.asDouble(i));
  return v;
}

// Runs `op` on `inputs` (graph inputs); the result or the error.
inline Expected<Tensor> runOp(const std::string &op, const std::vector<Tensor> &inputs,
                              Attrs attrs = {}, Precision p = Precision::F64) {
  Graph g;
  std::vector<ValueId> ids;
  for (size_t i = 0; i < inputs.size(); ++i)
    ids.push_back(g.addInput("x" + std::to_string(i), inputs[i].type()));
  auto r = g.add(op, ids, std::move(attrs));
  if (!r)
    return r.error();
  g.addOutput(*r);
  if (Error e = verify(g))
    return e;
  auto out = interpret(g, inputs, p);
  if (!out)
    return out.error();
  return out->front();
}

// The type-rule error message of `op` on operand types, "" when valid.
inline std::string inferError(const std::string &op, const std::vector<std::string> &types,
                              Attrs attrs = {}) {
  const OpDef *def = findOp(op);
  std::vector<TensorType> ts;
  for (const std::string &t : types)
    ts.push_back(*parseTensorType(t));
  auto r = def->infer(ts, withDefaults(*def, std::move(attrs)));
  return r ? "" : r.error().message();
}

// The emitted TOSA text of the single node of a one-op graph, or the error.
inline Expected<std::string> emitOp(const std::string &op,
                                    const std::vector<std::string> &types,
                                    Attrs attrs, int syntaxVersion = 22) {
  Graph g;
  std::vector<ValueId> ids;
  for (size_t i = 0; i < types.size(); ++i)
    ids.push_back(g.addInput("x" + std::to_string(i), *parseTensorType(types[i])));
  auto r = g.add(op, ids, std::move(attrs));
  if (!r)
    return r.error();
  EmitContext ctx(g, syntaxVersion);
  if (Error e = findOp(op)->emit(ctx, g.nodes[0]))
    return e;
  return ctx.body();
}

} // namespace cc::test
