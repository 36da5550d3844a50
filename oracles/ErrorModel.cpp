// Accumulation lengths of graph values: how many roundings can pile up in
// one element. Each op's share comes from its op-table entry (OpDef::
// rounding); this file only composes the shares along the graph.
#include "core/OpTable.h"
#include "oracles/Numeric.h"

#include <algorithm>

namespace cc {

namespace {
// Whether the op's rules may see this node: they index operands and read
// attributes without checks, as they run after cc::verify.
bool valid(const OpDef &op, const std::vector<TensorType> &types,
           const Attrs &attrs) {
  int count = int(types.size());
  if (count < op.minOperands || (op.maxOperands >= 0 && count > op.maxOperands))
    return false;
  for (const AttrSpec &spec : op.attrs) {
    const AttrValue *a = attrs.find(spec.name);
    if (!a || kindOf(*a) != spec.kind)
      return false;
  }
  return op.infer && bool(op.infer(types, attrs));
}

// The node's own rounding from its op's rule; one rounding for a node that
// is not valid (the oracle judges any graph).
Rounding roundingOf(const Node &n, const std::vector<TensorType> &types) {
  const OpDef *op = &opDef(n.op);
  if (!op->rounding)
    return {};
  Attrs attrs = withDefaults(*op, n.attrs);
  return valid(*op, types, attrs) ? op->rounding(types, attrs) : Rounding{};
}

// The error of one result element: what the operands pass on (summed over
// the factors of a product, the largest otherwise) plus the op's own steps.
double compose(const Rounding &r, const std::vector<double> &in) {
  double product = 0, largest = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (i < r.factors.size())
      product += r.factors[i] * in[i];
    else
      largest = std::max(largest, in[i]);
  }
  return std::max(product, largest) + r.steps;
}
} // namespace

std::vector<ValueErrorModel> analyzeErrors(const Graph &g) {
  std::vector<ValueErrorModel> m(g.values.size());
  for (const Node &n : g.nodes) {
    std::vector<TensorType> types;
    std::vector<double> in;
    bool fromFloat = false;
    // Accumulations count roundings in ulps of their own dtype: an operand
    // of another float dtype (f16 widened to f32 by a cast, in mixed
    // precision) passes on its error in the result's ulps.
    DType result =
        n.results.empty() ? DType::f32 : g.typeOf(n.results[0]).dtype;
    for (ValueId v : n.operands) {
      types.push_back(g.typeOf(v));
      DType t = types.back().dtype;
      double scale =
          isFloat(t) && isFloat(result) ? epsilon(t) / epsilon(result) : 1;
      in.push_back(m.at(v).accumulation * scale);
      fromFloat |= isFloat(t) || m.at(v).floatDerived;
    }
    double len = compose(roundingOf(n, types), in);
    for (ValueId r : n.results) {
      bool isF = isFloat(g.typeOf(r).dtype);
      // Integer results are exact; those computed from floats (argmax, a
      // compare, a cast) may flip with a float rounding difference.
      m.at(r).accumulation = isF ? len : 0;
      m.at(r).floatDerived = !isF && fromFloat;
    }
  }
  return m;
}

std::vector<double> permittedErrors(const Graph &g, const NumericOptions &o) {
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  std::vector<double> out(g.values.size());
  for (size_t v = 0; v < out.size(); ++v) {
    DType d = g.values[v].type.dtype;
    if (isFloat(d))
      out[v] = o.epsPerStep * epsilon(d) * m[v].accumulation;
  }
  return out;
}

std::vector<OutputSpec> outputSpecs(const Graph &g) {
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  std::vector<OutputSpec> specs;
  for (ValueId v : g.outputs)
    specs.push_back({g.values.at(v).name, g.typeOf(v), m.at(v)});
  return specs;
}

} // namespace cc
