// ONNX ops over shapes: shape arithmetic folded to constants (Shape, Size,
// ConstantOfShape, Range), splits, resizing (nearest, linear, cubic),
// space/depth rearrangements, masks (Trilu, EyeLike), and the predicates
// and roundings that TOSA spells with compares and selects.
#include "backends/onnx/Importer.h"
#include "core/Limits.h"

#include <algorithm>
#include <cmath>

namespace cc::onnx {

namespace {

using I = Importer;

Tensor i64Vector(const std::vector<int64_t> &v) {
  Tensor t(DType::i64, {int64_t(v.size())});
  for (size_t i = 0; i < v.size(); ++i)
    t.setI(int64_t(i), v[i]);
  return t;
}

// Shape (with opset 15's start/end) and Size: constants of the static type.
Error shapeOp(I &im) {
  CC_ASSIGN(t, im.typeIn(0));
  int64_t rank = t.rank();
  auto clampAxis = [rank](int64_t a) {
    return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank);
  };
  int64_t start = clampAxis(im.attrInt("start", 0)),
          end = clampAxis(im.attrInt("end", rank));
  std::vector<int64_t> dims;
  for (int64_t d = start; d < end; ++d)
    dims.push_back(t.shape[d]);
  im.defineConstant(0, i64Vector(dims));
  return Error::success();
}

Error sizeOp(I &im) {
  CC_ASSIGN(t, im.typeIn(0));
  Tensor n(DType::i64, {});
  n.setI(0, numElements(t.shape));
  im.defineConstant(0, n);
  return Error::success();
}

Error constantOfShape(I &im) {
  CC_ASSIGN(dims, im.intsIn(0));
  Tensor fill = Tensor::splat({DType::f32, {}}, 0);
  if (const Attribute *a = im.attr("value"); a && a->t)
    fill = *a->t;
  if (fill.size() != 1)
    return makeError("ConstantOfShape's value must hold one element");
  for (int64_t d : dims) {
    if (d < 0)
      return makeError("ConstantOfShape with a negative dimension");
    if (d == 0)
      return unsupported("ConstantOfShape of no element (the op table has no "
                         "empty tensors)");
  }
  CC_ASSIGN(n, checkedNumElements(dims));
  (void)n;
  im.defineConstant(0, Tensor::splat({fill.dtype(), dims}, fill.asDouble(0)));
  return Error::success();
}

Error range(I &im) {
  CC_ASSIGN(start, im.constIn(0));
  CC_ASSIGN(limit, im.constIn(1));
  CC_ASSIGN(delta, im.constIn(2));
  double s = start.asDouble(0), l = limit.asDouble(0), d = delta.asDouble(0);
  if (d == 0)
    return makeError("Range with delta 0");
  int64_t n = std::max<int64_t>(int64_t(std::ceil((l - s) / d)), 0);
  if (n == 0)
    return unsupported(
        "Range of no element (the op table has no empty tensors)");
  CC_ASSIGN(count, checkedNumElements({n}));
  (void)count;
  Tensor t(start.dtype(), {n});
  for (int64_t i = 0; i < n; ++i)
    isFloat(t.dtype()) ? t.setF(i, s + double(i) * d)
                       : t.setI(i, int64_t(s) + i * int64_t(d));
  im.defineConstant(0, t);
  return Error::success();
}

// Split into the node's outputs: sizes from operand 1 (opset 13), the
// "split" attribute, or equal parts (num_outputs, opset 18).
Error split(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", 0), int64_t(s.size())));
  std::vector<int64_t> sizes;
  if (im.opset() >= 13 && im.hasInput(1)) {
    CC_ASSIGN(v, im.intsIn(1));
    sizes = v;
  } else if (auto a = im.attrInts("split")) {
    sizes = *a;
  } else {
    int64_t parts = int64_t(im.node->outputs.size()), dim = s[axis];
    int64_t each = (dim + parts - 1) / std::max<int64_t>(parts, 1);
    for (int64_t off = 0; off < dim; off += each)
      sizes.push_back(std::min(each, dim - off));
  }
  if (sizes.size() != im.node->outputs.size())
    return makeError("Split into " + std::to_string(sizes.size()) +
                     " parts for " + std::to_string(im.node->outputs.size()) +
                     " outputs");
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<int64_t> start(s.size(), 0), size(s.begin(), s.end());
    start[axis] = offset;
    size[axis] = sizes[i];
    offset += sizes[i];
    if (sizes[i] == 0)
      return unsupported("Split into an empty part (the op table has no empty "
                         "tensors)");
    if (sizes[i] < 0 || offset > s[axis])
      return makeError("Split sizes do not fit the axis");
    CC_ASSIGN(
        r, im.op(OpId::Slice, {x}, attrs({{"start", start}, {"size", size}})));
    CC_TRY(im.define(i, r));
  }
  if (offset != s[axis])
    return makeError("Split sizes do not add up to the axis");
  return Error::success();
}

// Dropout at inference, or with ratio 0: the identity (and a mask of ones).
Error dropout(I &im) {
  if (im.hasInput(2)) {
    CC_ASSIGN(training, im.constIn(2));
    double ratio = 0.5;
    if (im.hasInput(1) && !im.node->inputs[1].empty()) {
      CC_ASSIGN(r, im.constIn(1));
      ratio = r.size() ? r.asDouble(0) : ratio;
    }
    if (training.size() && training.asDouble(0) != 0 && ratio != 0)
      return unsupported("Dropout in training mode (random)");
  }
  CC_ASSIGN(x, im.in(0));
  CC_TRY(im.define(0, x));
  if (im.node->outputs.size() > 1 && !im.node->outputs[1].empty()) {
    Tensor ones = Tensor::splat({DType::i1, im.typeOf(x).shape}, 1);
    im.defineConstant(1, ones);
  }
  return Error::success();
}

// The input coordinate of output index `o` on an axis of `n` inputs scaled
// by `scale` to `m` outputs (Resize's coordinate_transformation_mode).
Expected<double> sourceCoordinate(I &im, int64_t o, int64_t n, int64_t m,
                                  double scale) {
  std::string mode =
      im.attrString("coordinate_transformation_mode", "half_pixel");
  if (mode == "half_pixel" || mode == "tf_half_pixel_for_nn")
    return (o + 0.5) / scale - (mode == "half_pixel" ? 0.5 : 0);
  if (mode == "pytorch_half_pixel")
    return m > 1 ? (o + 0.5) / scale - 0.5 : 0;
  if (mode == "asymmetric")
    return o / scale;
  if (mode == "align_corners") // with ONNX's unrounded length n * scale
    return m > 1 ? o * double(n - 1) / (double(n) * scale - 1) : 0;
  return unsupported("Resize coordinate_transformation_mode '" + mode + "'");
}

// The nearest input index (nearest_mode) of output index `o`.
Expected<int64_t> nearestIndex(I &im, int64_t o, int64_t n, int64_t m,
                               double scale) {
  CC_ASSIGN(x, sourceCoordinate(im, o, n, m, scale));
  std::string nearest = im.attrString("nearest_mode", "round_prefer_floor");
  double r;
  if (nearest == "floor")
    r = std::floor(x);
  else if (nearest == "ceil")
    r = std::ceil(x);
  else if (nearest == "round_prefer_ceil")
    r = std::floor(x + 0.5);
  else if (nearest == "round_prefer_floor")
    r = x == std::floor(x) + 0.5 ? std::floor(x) : std::round(x);
  else
    return makeError("unknown nearest_mode '" + nearest + "'");
  return std::clamp<int64_t>(int64_t(r), 0, n - 1);
}

// The taps of output index `o` (input index, weight) for "linear" (two
// neighbours) or "cubic" (four, Keys' kernel with coefficient a; indices
// clamp to the axis as ONNX's edge padding does, or with exclude_outside
// the outside taps get weight 0 and the others are renormalized).
using Taps = std::vector<std::pair<int64_t, double>>;
Expected<Taps> tapsOf(I &im, bool cubic, int64_t o, int64_t n, int64_t m,
                      double scale) {
  CC_ASSIGN(c, sourceCoordinate(im, o, n, m, scale));
  auto at = [n](int64_t i) { return std::clamp<int64_t>(i, 0, n - 1); };
  if (!cubic) {
    double xc = std::clamp(c, 0.0, double(n - 1)), f = std::floor(xc);
    return Taps{{at(int64_t(f)), 1 - (xc - f)}, {at(int64_t(f) + 1), xc - f}};
  }
  double a = im.attrFloat("cubic_coeff_a", -0.75), f = std::floor(c), t = c - f;
  bool exclude = im.attrInt("exclude_outside", 0) != 0;
  auto kernel = [a](double d) {
    d = std::fabs(d);
    return d <= 1 ? ((a + 2) * d - (a + 3)) * d * d + 1
                  : ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  };
  Taps taps;
  double total = 0;
  for (int k = -1; k <= 2; ++k) {
    int64_t i = int64_t(f) + k;
    double w = exclude && (i < 0 || i >= n) ? 0 : kernel(t - k);
    taps.push_back({at(i), w});
    total += w;
  }
  if (exclude)
    for (auto &tap : taps)
      tap.second /= total;
  return taps;
}

// Interpolation along `axis` from n to m elements: per tap, a gather and a
// constant weight, summed.
Expected<ValueId> interpolateAxis(I &im, ValueId x, int64_t axis, int64_t m,
                                  double scale, bool cubic) {
  Shape s = im.typeOf(x).shape;
  int64_t n = s[axis];
  size_t k = cubic ? 4 : 2;
  std::vector<std::vector<int64_t>> idx(k);
  Shape ws(s.size(), 1);
  ws[axis] = m;
  std::vector<Tensor> weights(k, Tensor(im.typeOf(x).dtype, ws));
  for (int64_t o = 0; o < m; ++o) {
    CC_ASSIGN(taps, tapsOf(im, cubic, o, n, m, scale));
    for (size_t t = 0; t < k; ++t) {
      idx[t].push_back(taps[t].first);
      weights[t].setF(o, taps[t].second);
    }
  }
  ValueId sum = -1;
  for (size_t t = 0; t < k; ++t) {
    CC_ASSIGN(g, gatherAxis(im, x, axis, idx[t]));
    CC_ASSIGN(w, im.constant(weights[t]));
    CC_ASSIGN(term, im.op(OpId::Mul, {g, w}));
    if (sum < 0) {
      sum = term;
      continue;
    }
    CC_ASSIGN(r, im.op(OpId::Add, {sum, term}));
    sum = r;
  }
  return sum;
}

// Resize (opset 11+) and Upsample, "nearest" or "linear": one gather (or
// interpolation) per scaled axis.
Error resize(I &im) {
  bool upsample = im.node->opType == "Upsample";
  std::string mode = im.attrString("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return unsupported(im.node->opType + " mode '" + mode + "'");
  if (mode != "nearest" && (upsample || im.attrInt("antialias", 0)))
    return unsupported(im.node->opType + " " + mode +
                       " mode with antialias or before opset 11");
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  size_t scalesAt = upsample ? 1 : im.opset() >= 11 ? 2 : 1;
  if (!upsample && im.opset() >= 11 && im.hasInput(3)) {
    CC_ASSIGN(v, im.intsIn(3));
    sizes = v;
  } else if (im.hasInput(scalesAt)) {
    CC_ASSIGN(t, im.constIn(scalesAt));
    for (int64_t i = 0; i < t.size(); ++i)
      scales.push_back(t.asDouble(i));
  } else if (auto f = im.attr("scales")) {
    scales = f->floats;
  }
  if (!sizes.empty() ? sizes.size() != s.size() : scales.size() != s.size())
    return makeError(im.node->opType + " needs one scale or size per axis");
  if (im.attr("axes"))
    return unsupported("Resize with axes");
  ValueId v = x;
  for (size_t d = 0; d < s.size(); ++d) {
    int64_t m =
        sizes.empty() ? int64_t(std::floor(s[d] * scales[d])) : sizes[d];
    double scale = sizes.empty() ? scales[d] : double(m) / double(s[d]);
    if (m == s[d] && scale == 1)
      continue;
    if (m <= 0)
      return makeError(im.node->opType + " to an empty axis");
    if (mode != "nearest") {
      if (!isFloat(im.typeOf(v).dtype))
        return unsupported(mode + " Resize of integers");
      CC_ASSIGN(r,
                interpolateAxis(im, v, int64_t(d), m, scale, mode == "cubic"));
      v = r;
      continue;
    }
    std::vector<int64_t> idx;
    for (int64_t o = 0; o < m; ++o) {
      if (upsample) {
        idx.push_back(
            std::min<int64_t>(int64_t(std::floor(o / scale)), s[d] - 1));
        continue;
      }
      CC_ASSIGN(i, nearestIndex(im, o, s[d], m, scale));
      idx.push_back(i);
    }
    CC_ASSIGN(r, gatherAxis(im, v, int64_t(d), idx));
    v = r;
  }
  return im.define(0, v);
}

// DepthToSpace (DCR or CRD) and SpaceToDepth: reshape, transpose, reshape.
Error depthToSpace(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  if (s.size() != 4)
    return makeError(im.node->opType + " needs a 4-D input");
  int64_t b = im.attrInt("blocksize", 0), n = s[0], c = s[1], h = s[2],
          w = s[3];
  if (b <= 0)
    return makeError("blocksize must be positive");
  Shape mid, out;
  std::vector<int64_t> perm;
  if (im.node->opType == "SpaceToDepth") {
    if (h % b || w % b)
      return makeError("SpaceToDepth: H and W must be multiples of blocksize");
    mid = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {n, c * b * b, h / b, w / b};
  } else {
    if (c % (b * b))
      return makeError("DepthToSpace: C must be a multiple of blocksize^2");
    bool crd = im.attrString("mode", "DCR") == "CRD";
    mid = crd ? Shape{n, c / (b * b), b, b, h, w}
              : Shape{n, b, b, c / (b * b), h, w};
    perm = crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3}
               : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
    out = {n, c / (b * b), h * b, w * b};
  }
  CC_ASSIGN(r6, im.reshape(x, mid));
  CC_ASSIGN(t, im.transpose(r6, perm));
  CC_ASSIGN(r, im.reshape(t, out));
  return im.define(0, r);
}

// Trilu: x where the (constant) triangle mask holds, else 0.
Error trilu(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  if (s.size() < 2)
    return makeError("Trilu needs rank 2 or more");
  int64_t k = 0;
  if (im.hasInput(1)) {
    CC_ASSIGN(kt, im.constIn(1));
    k = kt.getI(0);
  }
  bool upper = im.attrInt("upper", 1) != 0;
  int64_t rows = s[s.size() - 2], cols = s.back();
  if (numElements(s) == 0)
    return unsupported("Trilu of an empty tensor");
  Shape ms(s.size(), 1);
  ms[ms.size() - 2] = rows;
  ms.back() = cols;
  Tensor mask(DType::i1, ms);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask.setI(i * cols + j, upper ? j - i >= k : j - i <= k);
  CC_ASSIGN(m, im.constant(mask));
  CC_ASSIGN(zero, scalarLike(im, x, 0));
  CC_ASSIGN(ab, im.equalRanks({m, x, zero}));
  CC_ASSIGN(r, im.op(OpId::Select, ab));
  return im.define(0, r);
}

// Sign: 1, -1, or x itself for zeros and NaN.
Error sign(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(zero, scalarLike(im, x, 0));
  CC_ASSIGN(one, scalarLike(im, x, 1));
  CC_ASSIGN(minus, scalarLike(im, x, -1));
  CC_ASSIGN(pos, im.op(OpId::Greater, {x, zero}));
  CC_ASSIGN(neg, im.op(OpId::Greater, {zero, x}));
  CC_ASSIGN(ab, im.equalRanks({neg, minus, x}));
  CC_ASSIGN(lower, im.op(OpId::Select, ab));
  CC_ASSIGN(cd, im.equalRanks({pos, one, lower}));
  CC_ASSIGN(r, im.op(OpId::Select, cd));
  return im.define(0, r);
}

Error isNaN(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(same, im.op(OpId::Equal, {x, x}));
  CC_ASSIGN(r, im.op(OpId::LogicalNot, {same}));
  return im.define(0, r);
}

Error isInf(I &im) {
  CC_ASSIGN(x, im.in(0));
  std::vector<ValueId> hits;
  for (auto [attr, inf] : {std::pair{"detect_positive", INFINITY},
                           std::pair{"detect_negative", -INFINITY}}) {
    if (!im.attrInt(attr, 1))
      continue;
    CC_ASSIGN(c, scalarLike(im, x, inf));
    CC_ASSIGN(e, binaryOp(im, OpId::Equal, x, c));
    hits.push_back(e);
  }
  if (hits.empty()) {
    im.defineConstant(0, Tensor::splat({DType::i1, im.typeOf(x).shape}, 0));
    return Error::success();
  }
  ValueId r = hits[0];
  if (hits.size() == 2) {
    CC_ASSIGN(o, im.op(OpId::LogicalOr, hits));
    r = o;
  }
  return im.define(0, r);
}

// a xor b = (a or b) and not (a and b).
Error logicalXor(I &im) {
  CC_ASSIGN(a, im.in(0));
  CC_ASSIGN(b, im.in(1));
  CC_ASSIGN(any, binaryOp(im, OpId::LogicalOr, a, b));
  CC_ASSIGN(both, binaryOp(im, OpId::LogicalAnd, a, b));
  CC_ASSIGN(notBoth, im.op(OpId::LogicalNot, {both}));
  CC_ASSIGN(r, im.op(OpId::LogicalAnd, {any, notBoth}));
  return im.define(0, r);
}

// Round half to even, exactly: r = floor(x), then up where x - r > 1/2, or
// = 1/2 with r odd. (x - floor(x) is exact for every float.)
Error round(I &im) {
  CC_ASSIGN(x, im.in(0));
  if (!isFloat(im.typeOf(x).dtype))
    return unsupported("Round of integers");
  CC_ASSIGN(r, im.op(OpId::Floor, {x}));
  CC_ASSIGN(frac, im.op(OpId::Sub, {x, r}));
  CC_ASSIGN(half, scalarLike(im, x, 0.5));
  CC_ASSIGN(one, scalarLike(im, x, 1));
  CC_ASSIGN(zero, scalarLike(im, x, 0));
  CC_ASSIGN(above, binaryOp(im, OpId::Greater, frac, half));
  CC_ASSIGN(tie, binaryOp(im, OpId::Equal, frac, half));
  CC_ASSIGN(rHalf, binaryOp(im, OpId::Mul, r, half));
  CC_ASSIGN(rHalfFloor, im.op(OpId::Floor, {rHalf}));
  CC_ASSIGN(odd, binaryOp(im, OpId::Greater, rHalf, rHalfFloor));
  CC_ASSIGN(tieOdd, im.op(OpId::LogicalAnd, {tie, odd}));
  CC_ASSIGN(up, im.op(OpId::LogicalOr, {above, tieOdd}));
  CC_ASSIGN(ab, im.equalRanks({up, one, zero}));
  CC_ASSIGN(step, im.op(OpId::Select, ab));
  CC_ASSIGN(out, im.op(OpId::Add, {r, step}));
  return im.define(0, out);
}

// Integer Mod: fmod = 1 is C's remainder (sign of a), else Python's (sign
// of b): a - trunc(a / b) * b, plus b where the signs differ.
Error mod(I &im) {
  CC_ASSIGN(a0, im.in(0));
  CC_ASSIGN(b0, im.in(1));
  DType t = im.typeOf(a0).dtype;
  if (isFloat(t))
    return unsupported("float Mod (fmod is not a composition of table ops)");
  // intdiv is i32 only; the remainder of i8/i16 operands fits them again.
  CC_ASSIGN(a, castValue(im, a0, DType::i32));
  CC_ASSIGN(b, castValue(im, b0, DType::i32));
  CC_ASSIGN(q, binaryOp(im, OpId::IntDiv, a, b));
  CC_ASSIGN(qb, binaryOp(im, OpId::Mul, q, b));
  CC_ASSIGN(rem, binaryOp(im, OpId::Sub, a, qb));
  if (im.attrInt("fmod", 0))
    return castTo(im, rem, t);
  CC_ASSIGN(zero, scalarLike(im, rem, 0));
  CC_ASSIGN(remNeg, binaryOp(im, OpId::Greater, zero, rem));
  CC_ASSIGN(bNeg, binaryOp(im, OpId::Greater, zero, b));
  CC_ASSIGN(remPos, binaryOp(im, OpId::Greater, rem, zero));
  CC_ASSIGN(bPos, binaryOp(im, OpId::Greater, b, zero));
  CC_ASSIGN(negPos, binaryOp(im, OpId::LogicalAnd, remNeg, bPos));
  CC_ASSIGN(posNeg, binaryOp(im, OpId::LogicalAnd, remPos, bNeg));
  CC_ASSIGN(fix, binaryOp(im, OpId::LogicalOr, negPos, posNeg));
  CC_ASSIGN(adjusted, binaryOp(im, OpId::Add, rem, b));
  CC_ASSIGN(ab, im.equalRanks({fix, adjusted, rem}));
  CC_ASSIGN(r, im.op(OpId::Select, ab));
  return castTo(im, r, t);
}

// EyeLike: a constant with ones on the k-th diagonal.
Error eyeLike(I &im) {
  CC_ASSIGN(t, im.typeIn(0));
  if (t.rank() != 2)
    return makeError("EyeLike needs a 2-D input");
  DType d = t.dtype;
  if (im.attr("dtype")) {
    auto to = dtypeOfOnnx(int(im.attrInt("dtype", 0)));
    if (!to)
      return unsupported("EyeLike to ONNX type " +
                         std::to_string(im.attrInt("dtype", 0)));
    d = *to;
  }
  int64_t k = im.attrInt("k", 0);
  Tensor eye = Tensor::splat({d, t.shape}, 0);
  for (int64_t i = 0; i < t.shape[0]; ++i)
    if (int64_t j = i + k; j >= 0 && j < t.shape[1])
      isFloat(d) ? eye.setF(i * t.shape[1] + j, 1)
                 : eye.setI(i * t.shape[1] + j, 1);
  im.defineConstant(0, eye);
  return Error::success();
}

// ArgMin as argmax of -x (exact for floats); select_last_index through a
// reversed axis.
OpHandler argExtreme(bool isMin) {
  return [isMin](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    Shape shape = im.typeOf(x).shape;
    CC_ASSIGN(axis,
              normalizeAxis(im.attrInt("axis", 0), int64_t(shape.size())));
    ValueId v = x;
    if (isMin) {
      if (!isFloat(im.typeOf(x).dtype))
        return unsupported("ArgMin of integers (-x overflows at the minimum)");
      CC_ASSIGN(n, im.op(OpId::Negate, {x}));
      v = n;
    }
    bool last = im.attrInt("select_last_index", 0) != 0;
    if (last) {
      CC_ASSIGN(r, im.op(OpId::Reverse, {v}, attrs({{"axis", axis}})));
      v = r;
    }
    CC_ASSIGN(arg, im.op(OpId::ArgMax, {v}, attrs({{"axis", axis}})));
    if (last) { // index i of the reversed axis is n - 1 - i
      CC_ASSIGN(nm1, scalarLike(im, arg, double(shape[axis] - 1)));
      CC_ASSIGN(r, binaryOp(im, OpId::Sub, nm1, arg));
      arg = r;
    }
    if (!im.attrInt("keepdims", 1))
      return im.define(0, arg);
    shape[axis] = 1;
    CC_ASSIGN(k, im.reshape(arg, shape));
    return im.define(0, k);
  };
}

// CastLike: Cast to operand 1's dtype.
Error castLike(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(like, im.typeIn(1));
  DType to = like.dtype == DType::i64 ? DType::i32 : like.dtype;
  return castTo(im, x, to);
}

} // namespace

void addShapeHandlers(OpHandlers &h) {
  h["Shape"] = shapeOp;
  h["Size"] = sizeOp;
  h["ConstantOfShape"] = constantOfShape;
  h["Range"] = range;
  h["Split"] = split;
  h["Dropout"] = dropout;
  h["Resize"] = resize;
  h["Upsample"] = resize;
  h["DepthToSpace"] = depthToSpace;
  h["SpaceToDepth"] = depthToSpace;
  h["Trilu"] = trilu;
  h["Sign"] = sign;
  h["IsNaN"] = isNaN;
  h["IsInf"] = isInf;
  h["Xor"] = logicalXor;
  h["Round"] = round;
  h["Mod"] = mod;
  h["EyeLike"] = eyeLike;
  h["ArgMax"] = argExtreme(false);
  h["ArgMin"] = argExtreme(true);
  h["CastLike"] = castLike;
}

} // namespace cc::onnx
