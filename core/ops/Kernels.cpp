#include "core/ops/Kernels.h"

#include <algorithm>
#include <cmath>

namespace cc {

Expected<Shape> broadcastShape(const std::vector<TensorType> &operands) {
  if (operands.empty())
    return Shape{};
  Shape shape = operands[0].shape;
  for (size_t k = 1; k < operands.size(); ++k) {
    const Shape &s = operands[k].shape;
    if (s.size() != shape.size())
      return makeError("operand " + std::to_string(k) + " has type " +
                       operands[k].str() + " of rank " +
                       std::to_string(s.size()) + ", expected rank " +
                       std::to_string(shape.size()) +
                       " (TOSA broadcasting needs equal ranks)");
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] == shape[d] || s[d] == 1)
        continue;
      if (shape[d] != 1)
        return makeError(
            "operand " + std::to_string(k) + " has type " + operands[k].str() +
            ": dimension " + std::to_string(d) + " is " + std::to_string(s[d]) +
            ", which does not broadcast with " + std::to_string(shape[d]));
      shape[d] = s[d];
    }
  }
  return shape;
}

Error requireSameDType(const std::vector<TensorType> &operands, size_t first) {
  for (size_t k = first + 1; k < operands.size(); ++k)
    if (operands[k].dtype != operands[first].dtype)
      return makeError("operand " + std::to_string(k) + " has type " +
                       operands[k].str() + " but operand " +
                       std::to_string(first) + " has " + operands[first].str() +
                       " (dtypes must match)");
  return Error();
}

Error requireDType(const TensorType &t, const std::vector<DType> &allowed,
                   const std::string &what) {
  for (DType d : allowed)
    if (t.dtype == d)
      return Error();
  std::string list;
  for (DType d : allowed)
    list += (list.empty() ? "" : ", ") + std::string(dtypeName(d));
  return makeError(what + " has type " + t.str() + ", expected one of " + list);
}

Error requireArity(const std::vector<TensorType> &operands, size_t n) {
  if (operands.size() != n)
    return makeError("expects " + std::to_string(n) + " operand" +
                     (n == 1 ? "" : "s") + ", got " +
                     std::to_string(operands.size()));
  return Error();
}

Expected<std::vector<TensorType>>
inferBroadcastOp(const std::vector<TensorType> &operands, size_t arity,
                 const std::vector<DType> &allowed,
                 std::optional<DType> resultDType, size_t first) {
  CC_TRY(requireArity(operands, arity));
  CC_TRY(requireDType(operands[first], allowed,
                      "operand " + std::to_string(first)));
  CC_TRY(requireSameDType(operands, first));
  CC_ASSIGN(shape, broadcastShape(operands));
  return std::vector<TensorType>{
      {resultDType.value_or(operands[first].dtype), shape}};
}

BroadcastIndex::BroadcastIndex(const Shape &result, const Shape &operand)
    : resultShape(result), operandStrides(rowMajorStrides(operand)),
      identity(result == operand) {
  for (size_t d = 0; d < operand.size(); ++d)
    if (operand[d] == 1)
      operandStrides[d] = 0;
}

int64_t BroadcastIndex::operator()(int64_t flat) const {
  if (identity)
    return flat;
  int64_t index = 0;
  for (int64_t d = int64_t(resultShape.size()) - 1; d >= 0; --d) {
    index += (flat % resultShape[d]) * operandStrides[d];
    flat /= resultShape[d];
  }
  return index;
}

std::string indexString(const Shape &shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

Error undefinedAt(const Shape &shape, int64_t flat, const std::string &why) {
  return Error::failure("element " + indexString(shape, flat) + ": " + why +
                            " (undefined in TOSA 1.0)",
                        ErrorCode::Undefined);
}

std::vector<EmitOperand> operandsOf(const EmitContext &ctx, const Node &node) {
  std::vector<EmitOperand> out;
  for (ValueId v : node.operands)
    out.push_back({ctx.name(v), ctx.type(v)});
  return out;
}

EmitOperand constOperand(EmitContext &ctx, const Tensor &t) {
  return {ctx.constant(t), t.type().mlir()};
}

void emitOp(EmitContext &ctx, const Node &node, const std::string &op,
            const std::vector<EmitOperand> &operands,
            const std::string &attrDict) {
  std::string results, names, types, resultTypes;
  for (size_t r = 0; r < node.results.size(); ++r) {
    results += (r ? ", " : "") + ctx.name(node.results[r]);
    resultTypes += (r ? ", " : "") + ctx.type(node.results[r]);
  }
  for (size_t k = 0; k < operands.size(); ++k) {
    names += (k ? ", " : "") + operands[k].name;
    types += (k ? ", " : "") + operands[k].type;
  }
  if (node.results.size() != 1)
    resultTypes = "(" + resultTypes + ")";
  std::string attrs = attrDict.empty() ? "" : " {" + attrDict + "}";
  ctx.line(results + " = " + op + " " + names + attrs + " : (" + types +
           ") -> " + resultTypes);
}

std::string scalarLiteral(DType t, double v) {
  Tensor scalar(t, {});
  if (isFloat(t))
    scalar.setF(0, v);
  else
    scalar.setI(0, int64_t(v));
  // denseLiteral prints "dense<LITERAL> : tensor<T>" for a scalar.
  std::string dense = denseLiteral(scalar);
  size_t begin = dense.find('<') + 1;
  return dense.substr(begin, dense.find('>') - begin);
}

std::function<Error(EmitContext &, const Node &)> simpleEmit(std::string op) {
  return [op](EmitContext &ctx, const Node &node) {
    emitOp(ctx, node, op);
    return Error();
  };
}

OpDef elementwiseOp(
    OpId id, std::string summary, int arity, std::vector<DType> dtypes,
    std::function<Expected<std::vector<Tensor>>(const EvalArgs &)> eval,
    std::optional<DType> resultDType) {
  OpDef op;
  op.emit = simpleEmit("tosa." + std::string(opName(id)));
  op.id = id;
  op.summary = std::move(summary);
  op.minOperands = op.maxOperands = arity;
  op.elementwise = true;
  op.dtypes = dtypes;
  op.infer = [arity, dtypes, resultDType](const std::vector<TensorType> &ops,
                                          const Attrs &) {
    return inferBroadcastOp(ops, size_t(arity), dtypes, resultDType);
  };
  op.eval = std::move(eval);
  op.rounding = Rounding::fixed(1); // correctly rounded, unless replaced
  op.sampleOperands = elementwiseOperands(arity);
  return op;
}

OperandSampler elementwiseOperands(int arity, uint32_t leaves,
                                   std::vector<DType> leafDTypes) {
  return [=](Rng &rng, DType d,
             const Shape &hint) -> std::optional<OperandSample> {
    OperandSample s;
    for (int i = 0; i < arity; ++i) {
      Shape shape = hint;
      if (i > 0 && rng.chance(0.25))
        for (int64_t &dim : shape)
          dim = rng.chance(0.5) ? 1 : dim; // broadcast along this dimension
      s.types.push_back({d, std::move(shape)});
    }
    if (leafDTypes.empty() ||
        std::find(leafDTypes.begin(), leafDTypes.end(), d) != leafDTypes.end())
      s.leafMask = leaves;
    return s;
  };
}

AttrSpec nanModeSpec() {
  return {"nan_mode", AttrKind::String, AttrValue(std::string("PROPAGATE")),
          "NaN handling: \"PROPAGATE\" (a NaN operand gives NaN) or "
          "\"IGNORE\" (the other operand wins)"};
}

Error checkNanMode(const Attrs &attrs) {
  const AttrValue *v = attrs.find("nan_mode");
  if (!v)
    return Error();
  const std::string *s = std::get_if<std::string>(v);
  if (!s || (*s != "PROPAGATE" && *s != "IGNORE"))
    return makeError(
        "attribute 'nan_mode' must be \"PROPAGATE\" or \"IGNORE\"");
  return Error();
}

Expected<std::string> nanModeAttr(const EmitContext &ctx, const Node &node) {
  const AttrValue *v = node.attrs.find("nan_mode");
  const std::string *mode = v ? std::get_if<std::string>(v) : nullptr;
  if (!mode || *mode == "PROPAGATE")
    return std::string();
  if (ctx.syntaxVersion <= 19)
    return Error::failure("nan_mode " + *mode + " of " +
                              std::string(opName(node.op)) +
                              " cannot be expressed in MLIR " +
                              std::to_string(ctx.syntaxVersion) + "'s TOSA",
                          ErrorCode::Unsupported);
  return "nan_mode = #tosa.nan_mode<" + *mode + ">";
}

// --- value ranges -----------------------------------------------------------

Interval hull(const Interval &a, const Interval &b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.mayBeNaN || b.mayBeNaN};
}

Interval addRange(const Interval &a, const Interval &b) {
  bool infMinusInf =
      (std::isinf(a.hi) && a.hi > 0 && std::isinf(b.lo) && b.lo < 0) ||
      (std::isinf(a.lo) && a.lo < 0 && std::isinf(b.hi) && b.hi > 0);
  double lo = a.lo + b.lo, hi = a.hi + b.hi;
  return {std::isnan(lo) ? -INFINITY : lo, std::isnan(hi) ? INFINITY : hi,
          a.mayBeNaN || b.mayBeNaN || infMinusInf};
}

Interval negRange(const Interval &a) { return {-a.hi, -a.lo, a.mayBeNaN}; }

Interval mulRange(const Interval &a, const Interval &b) {
  auto hasZero = [](const Interval &x) { return x.lo <= 0 && x.hi >= 0; };
  auto hasInf = [](const Interval &x) {
    return std::isinf(x.lo) || std::isinf(x.hi);
  };
  Interval r{INFINITY, -INFINITY,
             a.mayBeNaN || b.mayBeNaN || (hasZero(a) && hasInf(b)) ||
                 (hasZero(b) && hasInf(a))};
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      double p = x * y;
      if (std::isnan(p)) // 0 * Inf: 0 here, NaN noted above
        p = 0;
      r.lo = std::min(r.lo, p), r.hi = std::max(r.hi, p);
    }
  return r;
}

Interval sumRange(const Interval &term, double n) {
  // n * lo <= sum <= n * hi; NaN when both infinities may meet.
  Interval r = mulRange(term, {n, n, false});
  r.mayBeNaN |= term.lo == -INFINITY && term.hi == INFINITY;
  return r;
}

RangeRule monotoneRange(double (*f)(double)) {
  return [f](const std::vector<Interval> &x, const std::vector<TensorType> &,
             const Attrs &) {
    // Outside f's domain (log of a negative) a bound is NaN: the result
    // then reaches down (or up) to infinity and may be NaN.
    Interval r{f(x[0].lo), f(x[0].hi), x[0].mayBeNaN};
    if (std::isnan(r.lo))
      r.lo = -INFINITY, r.mayBeNaN = true;
    if (std::isnan(r.hi))
      r.hi = INFINITY, r.mayBeNaN = true;
    return r;
  };
}

RangeRule identityRange() {
  return [](const std::vector<Interval> &x, const std::vector<TensorType> &,
            const Attrs &) { return x[0]; };
}

RangeRule hullRange(size_t first) {
  return [first](const std::vector<Interval> &x,
                 const std::vector<TensorType> &, const Attrs &) {
    Interval r = x.at(first);
    for (size_t i = first + 1; i < x.size(); ++i)
      r = hull(r, x[i]);
    return r;
  };
}

RangeRule fixedRange(double lo, double hi) {
  return
      [lo, hi](const std::vector<Interval> &, const std::vector<TensorType> &,
               const Attrs &) { return Interval{lo, hi, false}; };
}

std::vector<uint8_t> OpDef::undefinedElements(const EvalArgs &args) const {
  std::vector<uint8_t> mask;
  if (!freedoms.undefinedAt)
    return mask;
  const Shape &shape = args.resultTypes.at(0).shape;
  std::vector<BroadcastIndex> maps;
  for (const Tensor *t : args.operands)
    maps.emplace_back(shape, t->shape());
  std::vector<double> x(args.operands.size());
  int64_t n = numElements(shape);
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < x.size(); ++k)
      x[k] = args.operands[k]->asDouble(maps[k](i));
    if (freedoms.undefinedAt(x.data())) {
      mask.resize(size_t(n));
      mask[size_t(i)] = 1;
    }
  }
  return mask;
}

decltype(Freedoms::openWithin) openWhenMoved(decltype(OpDef::eval) eval) {
  return [eval](const EvalArgs &args, const std::vector<Tensor> &bound) {
    std::vector<uint8_t> mask;
    auto base = eval(args);
    if (!base)
      return mask;
    for (double sign : {1.0, -1.0}) {
      std::vector<Tensor> moved;
      EvalArgs m = args;
      for (size_t k = 0; k < args.operands.size(); ++k) {
        moved.push_back(*args.operands[k]);
        if (k >= bound.size() || bound[k].byteCount() == 0 ||
            bound[k].shape() != moved[k].shape() || !isFloat(moved[k].dtype()))
          continue;
        double s = k == 0 ? sign : -sign;
        for (int64_t i = 0, n = moved[k].size(); i < n; ++i)
          moved[k].setF(i, moved[k].getF(i) + s * bound[k].getF(i));
      }
      for (size_t k = 0; k < moved.size(); ++k)
        m.operands[k] = &moved[k];
      auto other = eval(m);
      if (!other) // out of the op's domain: no step to speak of
        continue;
      const Tensor &a = base->front(), &b = other->front();
      for (int64_t i = 0, n = a.size(); i < n; ++i)
        if (!sameValue(a.asDouble(i), b.asDouble(i))) {
          mask.resize(size_t(n));
          mask[size_t(i)] = 1;
        }
    }
    return mask;
  };
}

} // namespace cc
