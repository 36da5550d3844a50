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

Expected<ValueId> binaryOp(I &im, const std::string &op, ValueId a, ValueId b) {
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
  return im.op("tile", {r}, attrs({{"multiples", mult}}));
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

Expected<ValueId> reduceOver(I &im, const std::string &op, ValueId x,
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
    CC_ASSIGN(neg, im.op("greater", {zero, x}));
    CC_ASSIGN(up, im.op("ceil", {x}));
    CC_ASSIGN(down, im.op("floor", {x}));
    CC_ASSIGN(trunc, im.op("select", {neg, up, down}));
    v = trunc;
  }
  if (im.typeOf(v).dtype == to)
    return v;
  return im.op("cast", {v}, attrs({{"to", to}}));
}

namespace {

OpHandler unary(std::string op) {
  return [op](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    CC_ASSIGN(r, im.op(op, {x}));
    return im.define(0, r);
  };
}

// Binary ops with ONNX's multidirectional broadcasting; `swap` evaluates
// op(b, a) (Less as greater with swapped operands).
OpHandler binary(std::string op, bool swap = false) {
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
OpHandler variadic(std::string op) {
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
  CC_ASSIGN(r, im.op("maximum", {x, zero}));
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
    CC_ASSIGN(r, binaryOp(im, "pow", x, y));
    return im.define(0, r);
  }
  Shape s = im.typeOf(x).shape;
  TensorType ty = im.typeOf(y);
  if (ty.rank() > int64_t(s.size()) ||
      numElements(ty.shape) >
          numElements(s)) { // the exponent shapes the result
    CC_ASSIGN(r, binaryOp(im, "pow", x, y));
    return im.define(0, r);
  }
  ValueId r = x;
  if (k == 0.5 || k == -1) {
    CC_ASSIGN(rs, im.op(k == -1 ? "reciprocal" : "rsqrt", {x}));
    r = rs;
    if (k == 0.5) {
      CC_ASSIGN(sq, im.op("reciprocal", {rs}));
      r = sq;
    }
  }
  for (int i = 1; i < k; ++i) {
    CC_ASSIGN(m, im.op("mul", {r, x}));
    r = m;
  }
  return im.define(0, r);
}

Error bitShift(I &im) {
  if (im.attrString("direction", "") != "LEFT")
    return unsupported("BitShift RIGHT is logical (unsigned); the op table's "
                       "right shift is arithmetic");
  return binary("logical_left_shift")(im);
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
    CC_ASSIGN(r, im.op("clamp", {x}, attrs({{"min", *lo}, {"max", *hi}})));
    return im.define(0, r);
  }
  CC_ASSIGN(v, widened(im, x));
  for (auto [bound, op] :
       {std::pair{lo, "maximum"}, std::pair{hi, "minimum"}}) {
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
  CC_ASSIGN(r, im.op("select", v));
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

OpHandler reduce(std::string op, int64_t inputOpset) {
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
  CC_ASSIGN(mm, im.op("matmul", {a3, b3}));
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
  CC_ASSIGN(mm, im.op("matmul", {a3, b3}));
  CC_ASSIGN(y, im.reshape(mm, {sa[0], sb[1]}));
  double alpha = im.attrFloat("alpha", 1), beta = im.attrFloat("beta", 1);
  if (alpha != 1) {
    CC_ASSIGN(c, scalarLike(im, y, alpha));
    CC_ASSIGN(r, im.op("mul", {y, c}));
    y = r;
  }
  if (im.hasInput(2)) {
    CC_ASSIGN(c, im.in(2));
    if (beta != 1) {
      CC_ASSIGN(k, scalarLike(im, c, beta));
      CC_ASSIGN(r, im.op("mul", {c, k}));
      c = r;
    }
    CC_ASSIGN(yc, im.equalRanks({y, c}));
    CC_ASSIGN(r, im.op("add", yc));
    y = r;
  }
  return im.define(0, y);
}

Error reshape(I &im) {
  CC_ASSIGN(x, im.in(0));
  std::vector<int64_t> shape;
  if (im.opset() >= 5) {
    CC_ASSIGN(s, im.intsIn(1));
    shape = s;
  } else {
    shape = im.attrInts("shape").value_or(std::vector<int64_t>{});
  }
  Shape in = im.typeOf(x).shape;
  int64_t known = 1, infer = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0 && !im.attrInt("allowzero", 0)) {
      if (d >= in.size())
        return makeError("Reshape copies a dimension the input lacks");
      shape[d] = in[d];
    }
    if (shape[d] == -1)
      infer = int64_t(d);
    else
      known *= shape[d];
  }
  if (infer >= 0)
    shape[infer] = known ? numElements(in) / known : 0;
  if (numElements(shape) != numElements(in))
    return makeError("Reshape changes the element count");
  CC_ASSIGN(r, im.reshape(x, shape));
  return im.define(0, r);
}

Error flatten(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  int64_t rank = int64_t(s.size()), axis = im.attrInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return makeError("axis out of range");
  int64_t outer = numElements(Shape(s.begin(), s.begin() + axis));
  CC_ASSIGN(
      r, im.reshape(x, {outer, numElements(s) / std::max<int64_t>(outer, 1)}));
  return im.define(0, r);
}

// Squeeze/Unsqueeze axes: an input from opset 13, an attribute before.
Expected<std::vector<int64_t>> squeezeAxes(I &im) {
  if (im.opset() >= 13) {
    if (!im.hasInput(1))
      return std::vector<int64_t>{};
    return im.intsIn(1);
  }
  return im.attrInts("axes").value_or(std::vector<int64_t>{});
}

Error squeeze(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(axes, squeezeAxes(im));
  std::vector<bool> drop(s.size(), axes.empty());
  for (int64_t a : axes) {
    CC_ASSIGN(n, normalizeAxis(a, int64_t(s.size())));
    drop[n] = true;
  }
  Shape out;
  for (size_t d = 0; d < s.size(); ++d)
    if (!(drop[d] && s[d] == 1))
      out.push_back(s[d]);
  CC_ASSIGN(r, im.reshape(x, out));
  return im.define(0, r);
}

Error unsqueeze(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(axes, squeezeAxes(im));
  int64_t rank = int64_t(s.size() + axes.size());
  std::vector<bool> unit(rank, false);
  for (int64_t a : axes) {
    CC_ASSIGN(n, normalizeAxis(a, rank));
    unit[n] = true;
  }
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    out.push_back(unit[d] ? 1 : s.at(next++));
  CC_ASSIGN(r, im.reshape(x, out));
  return im.define(0, r);
}

Error transposeOp(I &im) {
  CC_ASSIGN(x, im.in(0));
  int64_t rank = im.typeOf(x).rank();
  std::vector<int64_t> perm;
  for (int64_t d = rank - 1; d >= 0; --d)
    perm.push_back(d);
  CC_ASSIGN(r, im.transpose(x, im.attrInts("perm").value_or(perm)));
  return im.define(0, r);
}

// The indices a Slice with step != 1 picks on an axis of `dim` (ONNX's
// clamping: [0, dim] going up, [-1, dim - 1] going down).
Expected<std::vector<int64_t>> steppedIndices(int64_t start, int64_t end,
                                              int64_t step, int64_t dim) {
  if (step == 0)
    return makeError("Slice with step 0");
  auto wrap = [dim](int64_t v) { return v < 0 ? v + dim : v; };
  int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? dim : dim - 1;
  int64_t b = std::clamp<int64_t>(wrap(start), 0, hi),
          e = std::clamp<int64_t>(wrap(end), lo, hi);
  std::vector<int64_t> idx;
  for (int64_t i = b; step > 0 ? i < e : i > e; i += step)
    idx.push_back(i);
  if (idx.empty())
    return unsupported(
        "Slice of no element (the op table has no empty tensors)");
  return idx;
}

Error slice(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  int64_t rank = int64_t(s.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (im.opset() >= 10) {
    CC_ASSIGN(st, im.intsIn(1));
    CC_ASSIGN(en, im.intsIn(2));
    starts = st, ends = en;
    if (im.hasInput(3) && !im.node->inputs[3].empty()) {
      CC_ASSIGN(ax, im.intsIn(3));
      axes = ax;
    }
    if (im.hasInput(4)) {
      CC_ASSIGN(sp, im.intsIn(4));
      steps = sp;
    }
  } else {
    starts = im.attrInts("starts").value_or(starts);
    ends = im.attrInts("ends").value_or(ends);
    axes = im.attrInts("axes").value_or(axes);
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(int64_t(i));
  std::vector<int64_t> start(rank, 0), size(s.begin(), s.end());
  ValueId v = x;
  for (size_t i = 0; i < axes.size(); ++i) {
    CC_ASSIGN(a, normalizeAxis(axes[i], rank));
    int64_t dim = s[a];
    if (!steps.empty() && steps[i] == -1 &&
        (starts[i] >= dim - 1 || starts[i] == -1) &&
        ends[i] < -dim) { // the whole axis backwards
      CC_ASSIGN(r, im.op("reverse", {v}, attrs({{"axis", a}})));
      v = r;
      continue;
    }
    if (!steps.empty() && steps[i] != 1) {
      CC_ASSIGN(idx, steppedIndices(starts[i], ends[i], steps[i], dim));
      CC_ASSIGN(r, gatherAxis(im, v, a, idx));
      v = r;
      continue;
    }
    auto clampIdx = [dim](int64_t v) {
      if (v < 0)
        v += dim;
      return std::clamp<int64_t>(v, 0, dim);
    };
    int64_t b = clampIdx(starts[i]), e = clampIdx(ends[i]);
    start[a] = b;
    size[a] = std::max<int64_t>(e - b, 0);
  }
  if (size == s)
    return im.define(0, v);
  CC_ASSIGN(r, im.op("slice", {v}, attrs({{"start", start}, {"size", size}})));
  return im.define(0, r);
}

Error concat(I &im) {
  std::vector<ValueId> xs;
  for (size_t i = 0; i < im.numInputs(); ++i) {
    CC_ASSIGN(x, im.in(i));
    xs.push_back(x);
  }
  CC_ASSIGN(axis,
            normalizeAxis(im.attrInt("axis", 0), im.typeOf(xs[0]).rank()));
  CC_ASSIGN(r, im.op("concat", xs, attrs({{"axis", axis}})));
  return im.define(0, r);
}

// Reflect or edge padding of one axis: slices of x (reversed, or its edge
// tiled) concatenated before and after it.
Expected<ValueId> padAxis(I &im, ValueId x, int64_t axis, int64_t lo,
                          int64_t hi, bool reflect) {
  Shape s = im.typeOf(x).shape;
  int64_t n = s[axis];
  if (reflect && (lo >= n || hi >= n))
    return makeError("reflect padding must be smaller than the axis");
  auto part = [&](int64_t first, int64_t count,
                  int64_t copies) -> Expected<ValueId> {
    std::vector<int64_t> start(s.size(), 0), size(s.begin(), s.end());
    start[axis] = first;
    size[axis] = count;
    CC_ASSIGN(p,
              im.op("slice", {x}, attrs({{"start", start}, {"size", size}})));
    if (reflect)
      return im.op("reverse", {p}, attrs({{"axis", axis}}));
    std::vector<int64_t> mult(s.size(), 1);
    mult[axis] = copies;
    return im.op("tile", {p}, attrs({{"multiples", mult}}));
  };
  std::vector<ValueId> parts;
  if (lo > 0) {
    CC_ASSIGN(p, reflect ? part(1, lo, 1) : part(0, 1, lo));
    parts.push_back(p);
  }
  parts.push_back(x);
  if (hi > 0) {
    CC_ASSIGN(p, reflect ? part(n - 1 - hi, hi, 1) : part(n - 1, 1, hi));
    parts.push_back(p);
  }
  if (parts.size() == 1)
    return x;
  return im.op("concat", parts, attrs({{"axis", axis}}));
}

Error pad(I &im) {
  CC_ASSIGN(x, im.in(0));
  std::string mode = im.attrString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return unsupported("Pad mode '" + mode + "'");
  int64_t rank = im.typeOf(x).rank();
  std::vector<int64_t> pads;
  double value = 0;
  std::vector<int64_t> axes;
  if (im.opset() >= 11) {
    CC_ASSIGN(p, im.intsIn(1));
    pads = p;
    if (im.hasInput(2) && !im.node->inputs[2].empty()) {
      CC_ASSIGN(v, im.constIn(2));
      value = v.size() ? v.asDouble(0) : 0;
    }
    if (im.hasInput(3)) {
      CC_ASSIGN(a, im.intsIn(3));
      axes = a;
    }
  } else {
    pads = im.attrInts("pads").value_or(pads);
    value = im.attrFloat("value", 0);
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  if (pads.size() != 2 * axes.size())
    return makeError("pads has the wrong length");
  std::vector<int64_t> padding(2 * rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    CC_ASSIGN(a, normalizeAxis(axes[i], rank));
    padding[2 * a] = pads[i];
    padding[2 * a + 1] = pads[i + axes.size()];
  }
  for (int64_t p : padding)
    if (p < 0)
      return unsupported("Pad with negative pads");
  if (mode != "constant") {
    ValueId v = x;
    for (int64_t d = 0; d < rank; ++d) {
      CC_ASSIGN(r, padAxis(im, v, d, padding[2 * d], padding[2 * d + 1],
                           mode == "reflect"));
      v = r;
    }
    return im.define(0, v);
  }
  CC_ASSIGN(r, im.op("pad", {x},
                     attrs({{"padding", padding}, {"pad_const", value}})));
  return im.define(0, r);
}

Error tile(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(reps, im.intsIn(1));
  CC_ASSIGN(r, im.op("tile", {x}, attrs({{"multiples", reps}})));
  return im.define(0, r);
}

Error expand(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(shape, im.intsIn(1));
  CC_ASSIGN(out, broadcastShapes(im.typeOf(x).shape, shape));
  CC_ASSIGN(r, broadcastTo(im, x, out));
  return im.define(0, r);
}

Error identity(I &im) {
  CC_ASSIGN(x, im.in(0));
  return im.define(0, x);
}

Error constantOp(I &im) {
  if (const Attribute *a = im.attr("value"); a && a->t)
    return im.defineConstant(0, *a->t), Error::success();
  auto scalarOrList = [&](DType t, std::vector<double> v, bool scalar) {
    Tensor out(t, scalar ? Shape{} : Shape{int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i)
      isFloat(t) ? out.setF(int64_t(i), v[i])
                 : out.setI(int64_t(i), int64_t(v[i]));
    im.defineConstant(0, out);
    return Error::success();
  };
  if (const Attribute *a = im.attr("value_float"))
    return scalarOrList(DType::f32, {a->f}, true);
  if (const Attribute *a = im.attr("value_floats"))
    return scalarOrList(DType::f32, a->floats, false);
  if (const Attribute *a = im.attr("value_int"))
    return scalarOrList(DType::i64, {double(a->i)}, true);
  if (const Attribute *a = im.attr("value_ints"))
    return scalarOrList(
        DType::i64, std::vector<double>(a->ints.begin(), a->ints.end()), false);
  return unsupported("Constant without a tensor, float or int value");
}

} // namespace

const OpHandlers &opHandlers() {
  static const OpHandlers handlers = [] {
    OpHandlers h = {
        {"Add", binary("add")},
        {"Sub", binary("sub")},
        {"Mul", binary("mul")},
        {"Pow", pow},
        {"Max", variadic("maximum")},
        {"Min", variadic("minimum")},
        {"Sum", variadic("add")},
        {"Abs", unary("abs")},
        {"Neg", unary("negate")},
        {"Exp", unary("exp")},
        {"Log", unary("log")},
        {"Tanh", unary("tanh")},
        {"Sigmoid", unary("sigmoid")},
        {"Erf", unary("erf")},
        {"Reciprocal", unary("reciprocal")},
        {"Floor", unary("floor")},
        {"Ceil", unary("ceil")},
        {"Relu", relu},
        {"Clip", clip},
        {"Where", where},
        {"Equal", binary("equal")},
        {"Greater", binary("greater")},
        {"GreaterOrEqual", binary("greater_equal")},
        {"Less", binary("greater", true)},
        {"LessOrEqual", binary("greater_equal", true)},
        {"And", binary("logical_and")},
        {"Or", binary("logical_or")},
        {"Not", unary("logical_not")},
        {"BitwiseAnd", binary("bitwise_and")},
        {"BitwiseOr", binary("bitwise_or")},
        {"BitwiseXor", binary("bitwise_xor")},
        {"BitShift", bitShift},
        {"Cast", cast},
        {"ReduceSum", reduce("reduce_sum", 13)},
        {"ReduceProd", reduce("reduce_product", 18)},
        {"ReduceMax", reduce("reduce_max", 18)},
        {"ReduceMin", reduce("reduce_min", 18)},
        {"MatMul", matMul},
        {"Gemm", gemm},
        {"Reshape", reshape},
        {"Flatten", flatten},
        {"Squeeze", squeeze},
        {"Unsqueeze", unsqueeze},
        {"Transpose", transposeOp},
        {"Slice", slice},
        {"Concat", concat},
        {"Pad", pad},
        {"Tile", tile},
        {"Expand", expand},
        {"Identity", identity},
        {"Constant", constantOp},
    };
    addNnHandlers(h);
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
