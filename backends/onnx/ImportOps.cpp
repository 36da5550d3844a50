// ONNX op handlers: each maps one ONNX op onto op-table ops with the same
// numerics, or fails with ErrorCode::Unsupported saying why.
#include "backends/onnx/Importer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cc::onnx {

using I = Importer;

Attrs attrs(std::initializer_list<std::pair<const char *, AttrValue>> kv) {
  Attrs a;
  for (const auto &[k, v] : kv)
    a.set(k, v);
  return a;
}

Expected<ValueId> binaryOp(I &im, OpId op, ValueId a, ValueId b) {
  CC_ASSIGN(ab, im.equalRanks({a, b}));
  return im.op(op, ab);
}

Expected<ValueId> scalarLike(I &im, ValueId x, double v) {
  TensorType t = im.typeOf(x);
  return im.constant(Tensor::splat({t.dtype, Shape(t.shape.size(), 1)}, v));
}

Expected<ValueId> broadcastTo(I &im, ValueId v, const Shape &shape) {
  Shape s = im.typeOf(v).shape;
  if (s.size() > shape.size())
    return makeError("cannot broadcast " + im.typeOf(v).str() +
                     " to a lower rank");
  s.insert(s.begin(), shape.size() - s.size(), 1);
  CC_ASSIGN(r, im.reshape(v, s));
  std::vector<int64_t> mult;
  bool any = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (s[d] != shape[d] && s[d] != 1)
      return makeError("cannot broadcast " + im.typeOf(v).str() + " to " +
                       TensorType{im.typeOf(v).dtype, shape}.str());
    mult.push_back(s[d] == shape[d] ? 1 : shape[d]);
    any |= mult.back() != 1;
  }
  if (!any)
    return r;
  return im.op(OpId::Tile, {r}, attrs({{"multiples", mult}}));
}

Expected<std::vector<int64_t>> reduceAxes(I &im, int64_t inputOpset,
                                          int64_t rank) {
  std::vector<int64_t> axes;
  if (im.opset() >= inputOpset) {
    if (im.hasInput(1)) {
      CC_ASSIGN(a, im.intsIn(1));
      axes = a;
    }
  } else if (auto a = im.attrInts("axes")) {
    axes = *a;
  }
  if (axes.empty() && !im.attrInt("noop_with_empty_axes", 0))
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  for (int64_t &a : axes) {
    CC_ASSIGN(n, normalizeAxis(a, rank));
    a = n;
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

Expected<ValueId> reduceOver(I &im, OpId op, ValueId x,
                             const std::vector<int64_t> &axes) {
  for (int64_t a : axes) { // one axis at a time; each keeps it with size 1
    CC_ASSIGN(r, im.op(op, {x}, attrs({{"axis", a}})));
    x = r;
  }
  return x;
}

Expected<ValueId> dropAxes(I &im, ValueId v, const Shape &before,
                           const std::vector<int64_t> &axes) {
  Shape kept;
  for (size_t d = 0; d < before.size(); ++d)
    if (!std::binary_search(axes.begin(), axes.end(), int64_t(d)))
      kept.push_back(before[d]);
  return im.reshape(v, kept);
}

Error castTo(I &im, ValueId x, DType to) {
  CC_ASSIGN(r, castValue(im, x, to));
  return im.define(0, r);
}

Expected<ValueId> castValue(I &im, ValueId x, DType to) {
  DType from = im.typeOf(x).dtype;
  ValueId v = x;
  if (isFloat(from) && !isFloat(to) && !isBool(to)) {
    // ONNX truncates toward zero, TOSA CAST rounds to nearest even: cast
    // the truncated value, which is exact.
    CC_ASSIGN(zero, scalarLike(im, x, 0));
    CC_ASSIGN(neg, im.op(OpId::Greater, {zero, x}));
    CC_ASSIGN(up, im.op(OpId::Ceil, {x}));
    CC_ASSIGN(down, im.op(OpId::Floor, {x}));
    CC_ASSIGN(trunc, im.op(OpId::Select, {neg, up, down}));
    v = trunc;
  }
  if (im.typeOf(v).dtype == to)
    return v;
  return im.op(OpId::Cast, {v}, attrs({{"to", to}}));
}

Expected<Shape> broadcastShapes(Shape a, Shape b) {
  size_t rank = std::max(a.size(), b.size());
  a.insert(a.begin(), rank - a.size(), 1);
  b.insert(b.begin(), rank - b.size(), 1);
  Shape out(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (a[d] != b[d] && a[d] != 1 && b[d] != 1)
      return makeError("shapes do not broadcast");
    out[d] = a[d] == 1 ? b[d] : a[d];
  }
  return out;
}

namespace {

OpHandler unary(OpId op) {
  return [op](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    CC_ASSIGN(r, im.op(op, {x}));
    return im.define(0, r);
  };
}

// Binary ops with ONNX's multidirectional broadcasting; `swap` evaluates
// op(b, a) (Less as greater with swapped operands).
OpHandler binary(OpId op, bool swap = false) {
  return [op, swap](I &im) -> Error {
    CC_ASSIGN(a, im.in(0));
    CC_ASSIGN(b, im.in(1));
    CC_ASSIGN(ab, im.equalRanks({a, b}));
    CC_ASSIGN(r, im.op(op, swap ? std::vector{ab[1], ab[0]} : ab));
    return im.define(0, r);
  };
}

// i8 and i16 operands of ops the table has for i32 only (maximum, minimum,
// intdiv): the result in i32 fits the narrow type, so widening is exact.
Expected<ValueId> widened(I &im, ValueId v) {
  DType t = im.typeOf(v).dtype;
  return t == DType::i8 || t == DType::i16 ? castValue(im, v, DType::i32) : v;
}
Expected<ValueId> narrowedTo(I &im, ValueId v, DType t) {
  return im.typeOf(v).dtype == t ? v : castValue(im, v, t);
}

// Max, Min, Sum: a left fold over any number of operands.
OpHandler variadic(OpId op) {
  return [op](I &im) -> Error {
    CC_ASSIGN(first, im.in(0));
    DType t = im.typeOf(first).dtype;
    CC_ASSIGN(acc, widened(im, first));
    for (size_t i = 1; i < im.numInputs(); ++i) {
      CC_ASSIGN(x, im.in(i));
      CC_ASSIGN(wx, widened(im, x));
      CC_ASSIGN(r, binaryOp(im, op, acc, wx));
      acc = r;
    }
    CC_ASSIGN(r, narrowedTo(im, acc, t));
    return im.define(0, r);
  };
}

Error relu(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(zero, scalarLike(im, x, 0));
  CC_ASSIGN(r, im.op(OpId::Maximum, {x, zero}));
  return im.define(0, r);
}

// Pow by a constant 2, 3, 0.5 or -1 as products, sqrt or reciprocal: TOSA's
// pow leaves a negative base undefined, ONNX's x^2 does not.
Error pow(I &im) {
  CC_ASSIGN(x, im.in(0));
  auto e = im.constIn(1);
  double k = e && e->size() > 0 ? e->asDouble(0) : NAN;
  for (int64_t i = 1; e && i < e->size(); ++i)
    if (e->asDouble(i) != k)
      k = NAN;
  CC_ASSIGN(y, im.in(1));
  if (isFloat(im.typeOf(x).dtype) && !isFloat(im.typeOf(y).dtype)) {
    // An integer exponent: as a float of the base's type (exact below 2^11).
    CC_ASSIGN(yf, castValue(im, y, im.typeOf(x).dtype));
    y = yf;
  }
  if (!isFloat(im.typeOf(x).dtype) ||
      !(k == 2 || k == 3 || k == 0.5 || k == -1)) {
    CC_ASSIGN(r, binaryOp(im, OpId::Pow, x, y));
    return im.define(0, r);
  }
  Shape s = im.typeOf(x).shape;
  TensorType ty = im.typeOf(y);
  if (ty.rank() > int64_t(s.size()) ||
      numElements(ty.shape) >
          numElements(s)) { // the exponent shapes the result
    CC_ASSIGN(r, binaryOp(im, OpId::Pow, x, y));
    return im.define(0, r);
  }
  ValueId r = x;
  if (k == 0.5 || k == -1) {
    CC_ASSIGN(rs, im.op(k == -1 ? OpId::Reciprocal : OpId::Rsqrt, {x}));
    r = rs;
    if (k == 0.5) {
      CC_ASSIGN(sq, im.op(OpId::Reciprocal, {rs}));
      r = sq;
    }
  }
  for (int i = 1; i < k; ++i) {
    CC_ASSIGN(m, im.op(OpId::Mul, {r, x}));
    r = m;
  }
  return im.define(0, r);
}

Error bitShift(I &im) {
  if (im.attrString("direction", "") != "LEFT")
    return unsupported("BitShift RIGHT is logical (unsigned); the op table's "
                       "right shift is arithmetic");
  return binary(OpId::LogicalLeftShift)(im);
}

// Clip: clamp when both bounds are given and ordered, else max/min with the
// bounds, which is what ONNX defines (min(max(x, lo), hi)).
Error clip(I &im) {
  CC_ASSIGN(x, im.in(0));
  DType t = im.typeOf(x).dtype;
  std::optional<double> lo, hi;
  if (im.opset() < 11) {
    if (im.attr("min"))
      lo = im.attrFloat("min", 0);
    if (im.attr("max"))
      hi = im.attrFloat("max", 0);
  } else {
    for (size_t i : {1, 2}) {
      if (!im.hasInput(i) || im.node->inputs[i].empty())
        continue;
      CC_ASSIGN(c, im.constIn(i));
      if (c.size() != 1)
        return makeError("Clip bounds must be scalars");
      (i == 1 ? lo : hi) = c.asDouble(0);
    }
  }
  if (lo && hi && *lo <= *hi && !std::isnan(*lo) && !std::isnan(*hi)) {
    CC_ASSIGN(r, im.op(OpId::Clamp, {x}, attrs({{"min", *lo}, {"max", *hi}})));
    return im.define(0, r);
  }
  CC_ASSIGN(v, widened(im, x));
  for (auto [bound, op] :
       {std::pair{lo, OpId::Maximum}, std::pair{hi, OpId::Minimum}}) {
    if (!bound)
      continue;
    CC_ASSIGN(c, scalarLike(im, v, *bound));
    CC_ASSIGN(r, im.op(op, {v, c}));
    v = r;
  }
  CC_ASSIGN(r, narrowedTo(im, v, t));
  return im.define(0, r);
}

Error where(I &im) {
  CC_ASSIGN(c, im.in(0));
  CC_ASSIGN(a, im.in(1));
  CC_ASSIGN(b, im.in(2));
  CC_ASSIGN(v, im.equalRanks({c, a, b}));
  CC_ASSIGN(r, im.op(OpId::Select, v));
  return im.define(0, r);
}

Error cast(I &im) {
  CC_ASSIGN(x, im.in(0));
  auto to = dtypeOfOnnx(int(im.attrInt("to", 0)));
  if (!to || *to == DType::f64)
    return unsupported("Cast to ONNX type " +
                       std::to_string(im.attrInt("to", 0)));
  return castTo(im, x,
                *to == DType::i64 ? DType::i32 : *to); // see narrowTensor()
}

OpHandler reduce(OpId op, int64_t inputOpset) {
  return [op, inputOpset](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    Shape shape = im.typeOf(x).shape;
    CC_ASSIGN(axes, reduceAxes(im, inputOpset, int64_t(shape.size())));
    CC_ASSIGN(v, reduceOver(im, op, x, axes));
    if (!im.attrInt("keepdims", 1)) {
      CC_ASSIGN(r, dropAxes(im, v, shape, axes));
      v = r;
    }
    return im.define(0, v);
  };
}

// numpy matmul: batch dimensions broadcast, 1-D operands get a unit
// dimension that the result drops.
Error matMul(I &im) {
  CC_ASSIGN(a, im.in(0));
  CC_ASSIGN(b, im.in(1));
  Shape sa = im.typeOf(a).shape, sb = im.typeOf(b).shape;
  bool vecA = sa.size() == 1, vecB = sb.size() == 1;
  if (vecA)
    sa.insert(sa.begin(), 1);
  if (vecB)
    sb.push_back(1);
  if (sa.size() < 2 || sb.size() < 2)
    return makeError("MatMul of a scalar");
  Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  CC_ASSIGN(batch, broadcastShapes(ba, bb));
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  int64_t nb = numElements(batch);
  Shape fa = batch, fb = batch;
  fa.insert(fa.end(), {m, k});
  fb.insert(fb.end(), {sb[sb.size() - 2], n});
  CC_ASSIGN(ra, im.reshape(a, sa));
  CC_ASSIGN(rb, im.reshape(b, sb));
  CC_ASSIGN(ta, broadcastTo(im, ra, fa));
  CC_ASSIGN(tb, broadcastTo(im, rb, fb));
  CC_ASSIGN(a3, im.reshape(ta, {nb, m, k}));
  CC_ASSIGN(b3, im.reshape(tb, {nb, sb[sb.size() - 2], n}));
  CC_ASSIGN(mm, im.op(OpId::MatMul, {a3, b3}));
  if (im.typeOf(mm).dtype != im.typeOf(a).dtype)
    return unsupported("MatMul of " +
                       std::string(dtypeName(im.typeOf(a).dtype)) +
                       ": the table's result type differs from ONNX's");
  Shape out = batch;
  if (!vecA)
    out.push_back(m);
  if (!vecB)
    out.push_back(n);
  CC_ASSIGN(r, im.reshape(mm, out));
  return im.define(0, r);
}

// alpha * (A' B') + beta * C, in the order of ONNX's reference.
Error gemm(I &im) {
  CC_ASSIGN(a, im.in(0));
  CC_ASSIGN(b, im.in(1));
  if (im.typeOf(a).rank() != 2 || im.typeOf(b).rank() != 2)
    return makeError("Gemm needs 2-D A and B");
  if (im.attrInt("transA", 0)) {
    CC_ASSIGN(t, im.transpose(a, {1, 0}));
    a = t;
  }
  if (im.attrInt("transB", 0)) {
    CC_ASSIGN(t, im.transpose(b, {1, 0}));
    b = t;
  }
  Shape sa = im.typeOf(a).shape, sb = im.typeOf(b).shape;
  CC_ASSIGN(a3, im.reshape(a, {1, sa[0], sa[1]}));
  CC_ASSIGN(b3, im.reshape(b, {1, sb[0], sb[1]}));
  CC_ASSIGN(mm, im.op(OpId::MatMul, {a3, b3}));
  CC_ASSIGN(y, im.reshape(mm, {sa[0], sb[1]}));
  double alpha = im.attrFloat("alpha", 1), beta = im.attrFloat("beta", 1);
  if (alpha != 1) {
    CC_ASSIGN(c, scalarLike(im, y, alpha));
    CC_ASSIGN(r, im.op(OpId::Mul, {y, c}));
    y = r;
  }
  if (im.hasInput(2)) {
    CC_ASSIGN(c, im.in(2));
    if (beta != 1) {
      CC_ASSIGN(k, scalarLike(im, c, beta));
      CC_ASSIGN(r, im.op(OpId::Mul, {c, k}));
      c = r;
    }
    CC_ASSIGN(yc, im.equalRanks({y, c}));
    CC_ASSIGN(r, im.op(OpId::Add, yc));
    y = r;
  }
  return im.define(0, y);
}

} // namespace

const OpHandlers &opHandlers() {
  static const OpHandlers handlers = [] {
    OpHandlers h = {
        {"Add", binary(OpId::Add)},
        {"Sub", binary(OpId::Sub)},
        {"Mul", binary(OpId::Mul)},
        {"Pow", pow},
        {"Max", variadic(OpId::Maximum)},
        {"Min", variadic(OpId::Minimum)},
        {"Sum", variadic(OpId::Add)},
        {"Abs", unary(OpId::Abs)},
        {"Neg", unary(OpId::Negate)},
        {"Exp", unary(OpId::Exp)},
        {"Log", unary(OpId::Log)},
        {"Tanh", unary(OpId::Tanh)},
        {"Sigmoid", unary(OpId::Sigmoid)},
        {"Erf", unary(OpId::Erf)},
        {"Reciprocal", unary(OpId::Reciprocal)},
        {"Floor", unary(OpId::Floor)},
        {"Ceil", unary(OpId::Ceil)},
        {"Relu", relu},
        {"Clip", clip},
        {"Where", where},
        {"Equal", binary(OpId::Equal)},
        {"Greater", binary(OpId::Greater)},
        {"GreaterOrEqual", binary(OpId::GreaterEqual)},
        {"Less", binary(OpId::Greater, true)},
        {"LessOrEqual", binary(OpId::GreaterEqual, true)},
        {"And", binary(OpId::LogicalAnd)},
        {"Or", binary(OpId::LogicalOr)},
        {"Not", unary(OpId::LogicalNot)},
        {"BitwiseAnd", binary(OpId::BitwiseAnd)},
        {"BitwiseOr", binary(OpId::BitwiseOr)},
        {"BitwiseXor", binary(OpId::BitwiseXor)},
        {"BitShift", bitShift},
        {"Cast", cast},
        {"ReduceSum", reduce(OpId::ReduceSum, 13)},
        {"ReduceProd", reduce(OpId::ReduceProduct, 18)},
        {"ReduceMax", reduce(OpId::ReduceMax, 18)},
        {"ReduceMin", reduce(OpId::ReduceMin, 18)},
        {"MatMul", matMul},
        {"Gemm", gemm},
    };
    addDataHandlers(h);
    addNnHandlers(h);
    addEinsumHandlers(h);
    addShapeHandlers(h);
    addIndexHandlers(h);
    addRnnHandlers(h);
    addConvHandlers(h);
    return h;
  }();
  return handlers;
}

const std::map<std::string, std::string> &refusedOps() {
  static const std::map<std::string, std::string> refused = {
      {"Sin", "no op-table equivalent (TOSA SIN is not in the table)"},
      {"Cos", "no op-table equivalent (TOSA COS is not in the table)"},
  };
  return refused;
}

} // namespace cc::onnx
