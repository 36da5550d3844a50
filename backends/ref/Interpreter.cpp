#include "backends/ref/Interpreter.h"

#include <algorithm>
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
// |f(x)| + |f'(x)| * magnitude(x), element by element (Magnitude::BySlope):
// first-order propagation of the operand's error through the function.
Tensor bySlope(const OpDef &def, const Tensor &x, const Tensor &xMag,
               const Tensor &fx) {
  Tensor out = absolute(fx);
  if (!def.slope || x.shape() != fx.shape() || xMag.shape() != fx.shape())
    return out;
  for (int64_t i = 0, n = out.size(); i < n; ++i) {
    double spread = std::fabs(def.slope(x.getF(i), fx.getF(i))) * xMag.getF(i);
    if (!std::isnan(spread))
      out.setF(i, out.getF(i) + spread);
  }
  return out;
}

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
  if (def.magnitude == Magnitude::BySlope)
    return bySlope(def, *values.at(0), *mags.at(0), result);
  Node asSum = node;
  const OpDef *op = &def;
  if (def.magnitude == Magnitude::AsAdd) {
    static const OpDef *add = &opDef(OpId::Add);
    asSum.op = OpId::Add;
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

// One evaluation of a graph.
class Evaluation {
public:
  Evaluation(const Graph &g, Precision p, bool magnitudes, bool latitude,
             bool flipZeroSigns, std::vector<double> permitted = {})
      : g(g), precision(p), wantMags(magnitudes), wantLatitude(latitude),
        flip(flipZeroSigns), permitted(std::move(permitted)),
        values(g.values.size()) {
    if (wantMags)
      mags.resize(g.values.size());
    if (wantLatitude)
      undefined.resize(g.values.size());
  }
  Error run(const Inputs &inputs);
  Outputs outputs(const std::vector<Tensor> &of) const {
    Outputs out;
    for (ValueId v : g.outputs)
      out.push_back(of[v]);
    return out;
  }

  const Graph &g;
  const Precision precision;
  const bool wantMags, wantLatitude, flip;
  const std::vector<double> permitted; // Latitude::permittedError
  // The values of the evaluation in the target precision, when `permitted`
  // is given: an element it computes exactly has no error to move by.
  std::vector<Tensor> faithful;
  std::vector<Tensor> values, mags;
  // Per value, its undefined elements (empty: none).
  std::vector<std::vector<uint8_t>> undefined;
  // Some op whose zero result's sign is open produced a zero.
  bool openZero = false;

private:
  Error node(size_t n);
  void zeroSigns(const OpDef &def, std::vector<Tensor> &results);
  void markUndefined(const OpDef &def, const EvalArgs &args,
                     const std::vector<Tensor> &results);
  std::vector<uint8_t> openAtSteps(const OpDef &def, const EvalArgs &args);
};

Error Evaluation::run(const Inputs &inputs) {
  if (inputs.size() != g.inputs.size())
    return makeError("graph '" + g.name + "' has " +
                     std::to_string(g.inputs.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo &info = g.values[g.inputs[i]];
    if (inputs[i].shape() != info.type.shape ||
        inputs[i].dtype() != info.type.dtype)
      return makeError("input '" + info.name + "' expects " + info.type.str() +
                       ", got " + inputs[i].type().str());
    values[g.inputs[i]] = asStored(inputs[i], precision);
    if (wantMags)
      mags[g.inputs[i]] = absolute(values[g.inputs[i]]);
  }
  for (size_t n = 0; n < g.nodes.size(); ++n)
    CC_TRY(node(n));
  return Error();
}

Error Evaluation::node(size_t n) {
  const Node &node = g.nodes[n];
  const OpDef *def = &opDef(node.op);
  EvalArgs args{node, {}, {}, precision};
  for (ValueId v : node.operands)
    args.operands.push_back(&values[v]);
  for (ValueId v : node.results)
    args.resultTypes.push_back(g.typeOf(v));
  auto results = def->eval(args);
  if (!results)
    return results.error().withContext("node " + std::to_string(n) + " (" +
                                       def->name + ")");
  zeroSigns(*def, *results);
  if (wantLatitude)
    markUndefined(*def, args, *results);
  if (wantMags) {
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
  return Error();
}

// Notes (or, in the other evaluation, flips) the sign of every zero result
// of an op whose zero sign is open.
void Evaluation::zeroSigns(const OpDef &def, std::vector<Tensor> &results) {
  if (!def.freedoms.zeroSign)
    return;
  for (Tensor &t : results)
    if (isFloat(t.dtype()))
      for (int64_t i = 0, n = t.size(); i < n; ++i)
        if (double v = t.getF(i); v == 0) {
          openZero = true;
          if (flip)
            t.setF(i, -v);
        }
}

// Values that stand for "any value" in place of an undefined element.
std::vector<double> probesFor(DType t) {
  if (isFloat(t))
    return {std::nan(""), INFINITY, -INFINITY, 0.0, 1.0};
  if (t == DType::i1)
    return {0, 1};
  return {double(intMin(t)), double(intMax(t)), 0, 1};
}

// The undefined elements of a node's results: those the op itself leaves
// undefined, and those that change when the undefined elements of its
// operands are replaced by probe values (they depend on them). An op that
// fails on a probe makes all of its results undefined.
void Evaluation::markUndefined(const OpDef &def, const EvalArgs &args,
                               const std::vector<Tensor> &results) {
  const Node &node = args.node;
  std::vector<std::vector<uint8_t>> marks(results.size());
  marks[0] = def.undefinedElements(args);
  std::vector<uint8_t> open = openAtSteps(def, args);
  if (!open.empty()) {
    marks[0].resize(open.size());
    for (size_t i = 0; i < open.size(); ++i)
      marks[0][i] |= open[i];
  }
  auto mark = [&](size_t r, int64_t i) {
    marks[r].resize(size_t(results[r].size()));
    marks[r][size_t(i)] = 1;
  };
  std::vector<Tensor> probed(node.operands.size());
  EvalArgs probe = args;
  bool anyUndefined = false;
  for (size_t k = 0; k < node.operands.size(); ++k)
    if (!undefined[node.operands[k]].empty()) {
      anyUndefined = true;
      probed[k] = *args.operands[k];
      probe.operands[k] = &probed[k];
    }
  for (size_t p = 0; anyUndefined && p < 5; ++p) {
    for (size_t k = 0; k < node.operands.size(); ++k) {
      const std::vector<uint8_t> &u = undefined[node.operands[k]];
      std::vector<double> values = probesFor(probed[k].dtype());
      for (size_t i = 0; i < u.size(); ++i)
        if (u[i]) {
          double v = values[p % values.size()];
          isFloat(probed[k].dtype()) ? probed[k].setF(int64_t(i), v)
                                     : probed[k].setI(int64_t(i), int64_t(v));
        }
    }
    auto other = def.eval(probe);
    for (size_t r = 0; r < results.size(); ++r)
      for (int64_t i = 0, n = results[r].size(); i < n; ++i)
        if (!other ||
            !sameValue(results[r].asDouble(i), (*other)[r].asDouble(i)))
          mark(r, i);
  }
  for (size_t r = 0; r < results.size(); ++r)
    undefined[node.results[r]] = std::move(marks[r]);
}

// The elements of an op with a step that a float operand within its
// permitted error could move across it (Freedoms::openWithin). The bound
// of an element is relative to its magnitude, or to the terms behind it
// when they are larger (a cancellation); none where the evaluation in the
// target precision gives the exact value (a tie of 2.5 that exact ops
// made stays a tie: rounding it half away from zero is a miscompile).
std::vector<uint8_t> Evaluation::openAtSteps(const OpDef &def,
                                             const EvalArgs &args) {
  if (!def.freedoms.openWithin || permitted.empty())
    return {};
  const Node &node = args.node;
  std::vector<Tensor> bound(node.operands.size());
  bool any = false;
  for (size_t k = 0; k < node.operands.size(); ++k) {
    ValueId v = node.operands[k];
    const Tensor &x = *args.operands[k];
    double rel = size_t(v) < permitted.size() ? permitted[size_t(v)] : 0;
    if (rel <= 0 || !isFloat(x.dtype()))
      continue;
    bound[k] = Tensor(DType::f64, x.shape());
    const Tensor *t =
        size_t(v) < faithful.size() && faithful[size_t(v)].shape() == x.shape()
            ? &faithful[size_t(v)]
            : nullptr;
    for (int64_t i = 0, n = x.size(); i < n; ++i) {
      double xi = x.getF(i), m = wantMags ? mags[v].asDouble(i) : 0;
      if (std::isfinite(xi) && !(t && t->asDouble(i) == xi))
        bound[k].setF(i, rel * std::max(std::fabs(xi), m));
    }
    any = true;
  }
  return any ? def.freedoms.openWithin(args, bound) : std::vector<uint8_t>();
}

} // namespace

Expected<Outputs> interpret(const Graph &g, const Inputs &inputs,
                            Precision precision, Outputs *magnitudes,
                            Latitude *latitude) {
  if ((magnitudes || latitude) && precision != Precision::F64)
    return makeError("magnitudes and latitude are computed with "
                     "Precision::F64 only");
  Evaluation e(g, precision, magnitudes, latitude, false,
               latitude ? latitude->permittedError : std::vector<double>());
  bool steps = std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node &n) {
    return bool(opDef(n.op).freedoms.openWithin);
  });
  if (steps && !e.permitted.empty()) {
    Evaluation faithful(g, Precision::Target, false, false, false);
    if (!faithful.run(inputs))
      e.faithful = std::move(faithful.values);
  }
  CC_TRY(e.run(inputs));
  if (magnitudes)
    *magnitudes = e.outputs(e.mags);
  if (latitude) {
    latitude->undefined.clear();
    for (ValueId v : g.outputs)
      latitude->undefined.push_back(e.undefined[v]);
    latitude->otherZeroSign.clear();
    // The other choice of every open zero sign, where there was one.
    if (e.openZero) {
      Evaluation other(g, precision, false, false, true);
      if (!other.run(inputs))
        latitude->otherZeroSign = other.outputs(other.values);
    }
  }
  return e.outputs(e.values);
}

Expected<Outputs> RefBackend::run(const Graph &g, const Inputs &inputs,
                                  const RunOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto out = interpret(g, inputs, precision);
  addStageTime(options.times, "reference", start);
  return out;
}

} // namespace cc
