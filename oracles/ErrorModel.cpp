// Accumulation lengths of graph values: how many roundings can pile up in
// one element. This is the oracle's error model, kept apart from the ops'
// semantics: an op the table below does not name counts as one rounding.
#include "oracles/Numeric.h"

#include <algorithm>
#include <set>
#include <string>

namespace cc {

namespace {
// Extra rounding steps of math functions that compilers implement with
// polynomial approximations (TOSA allows a few ulp for them).
constexpr double kApproxSteps = 4;

const std::set<std::string> kExactOps = {
    "const",   "reshape", "transpose", "slice",      "concat",
    "pad",     "tile",    "reverse",   "gather",     "select",
    "maximum", "minimum", "clamp",     "abs",        "negate",
    "floor",   "ceil",    "max_pool2d", "reduce_max", "reduce_min",
    "argmax",  "equal",   "greater",   "greater_equal"};
const std::set<std::string> kApproxOps = {"exp",  "log",  "tanh",
                                          "sigmoid", "erf", "pow",
                                          "rsqrt", "reciprocal"};

double dim(const Graph &g, ValueId v, int64_t axis) {
  const Shape &s = g.typeOf(v).shape;
  if (axis < 0)
    axis += int64_t(s.size());
  return axis >= 0 && axis < int64_t(s.size()) ? double(s[axis]) : 1;
}

const std::vector<int64_t> *ints(const Node &n, const char *name) {
  const AttrValue *a = n.attrs.find(name);
  return a ? std::get_if<std::vector<int64_t>>(a) : nullptr;
}

// Rounding steps added by the node itself, given the operands' lengths.
double accumulate(const Graph &g, const Node &n, const std::vector<double> &in) {
  auto maxIn = [&] {
    return in.empty() ? 0.0 : *std::max_element(in.begin(), in.end());
  };
  auto product = [&] { // a sum of products of two operands
    return (in.size() > 0 ? in[0] : 0) + (in.size() > 1 ? in[1] : 0);
  };
  const std::string &op = n.op;
  if (kExactOps.count(op))
    return maxIn();
  if (kApproxOps.count(op))
    return maxIn() + kApproxSteps;
  if (op == "mul")
    return product() + 1;
  if (op == "reduce_sum" || op == "reduce_product") {
    const AttrValue *a = n.attrs.find("axis");
    int64_t axis = a ? std::get<int64_t>(*a) : 0;
    double len = dim(g, n.operands.at(0), axis);
    // A product of len terms multiplies their relative errors.
    return op == "reduce_sum" ? maxIn() + len : len * (maxIn() + 1);
  }
  if (op == "matmul")
    return product() + dim(g, n.operands.at(0), 2);
  if (op == "conv2d" || op == "transpose_conv2d") {
    // weight [O,KH,KW,C]: KH*KW*C products, then the bias.
    const Shape &w = g.typeOf(n.operands.at(1)).shape;
    return product() + double(w.at(1) * w.at(2) * w.at(3)) + 1;
  }
  if (op == "depthwise_conv2d") {
    const Shape &w = g.typeOf(n.operands.at(1)).shape; // [KH,KW,C,M]
    return product() + double(w.at(0) * w.at(1)) + 1;
  }
  if (op == "avg_pool2d") {
    const std::vector<int64_t> *k = ints(n, "kernel");
    double window = k && k->size() == 2 ? double((*k)[0] * (*k)[1]) : 1;
    return maxIn() + window + 1; // the sum, then the division
  }
  return maxIn() + 1; // add, sub, cast, ...: one rounding
}
} // namespace

std::vector<ValueErrorModel> analyzeErrors(const Graph &g) {
  std::vector<ValueErrorModel> m(g.values.size());
  for (ValueId v : g.inputs)
    m.at(v).floatDerived = false; // inputs are exact in their dtype
  for (const Node &n : g.nodes) {
    std::vector<double> in;
    bool fromFloat = false;
    for (ValueId v : n.operands) {
      in.push_back(m.at(v).accumulation);
      fromFloat |= isFloat(g.typeOf(v).dtype) || m.at(v).floatDerived;
    }
    double len = accumulate(g, n, in);
    for (ValueId r : n.results) {
      m.at(r).accumulation = isFloat(g.typeOf(r).dtype) ? len : 0;
      m.at(r).floatDerived = !isFloat(g.typeOf(r).dtype) && fromFloat;
    }
  }
  return m;
}

std::vector<OutputSpec> outputSpecs(const Graph &g) {
  std::vector<ValueErrorModel> m = analyzeErrors(g);
  std::vector<OutputSpec> specs;
  for (ValueId v : g.outputs)
    specs.push_back({g.values.at(v).name, g.typeOf(v), m.at(v)});
  return specs;
}

} // namespace cc
