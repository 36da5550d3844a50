// ONNX's data-movement ops: reshapes, squeezes, transposes, slices,
// concatenations, pads, tiles, broadcasts and constants.
#include "backends/onnx/Importer.h"

#include <algorithm>
#include <limits>

namespace cc::onnx {

using I = Importer;

namespace {

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
      CC_ASSIGN(r, im.op(OpId::Reverse, {v}, attrs({{"axis", a}})));
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
  CC_ASSIGN(r,
            im.op(OpId::Slice, {v}, attrs({{"start", start}, {"size", size}})));
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
  CC_ASSIGN(r, im.op(OpId::Concat, xs, attrs({{"axis", axis}})));
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
    CC_ASSIGN(
        p, im.op(OpId::Slice, {x}, attrs({{"start", start}, {"size", size}})));
    if (reflect)
      return im.op(OpId::Reverse, {p}, attrs({{"axis", axis}}));
    std::vector<int64_t> mult(s.size(), 1);
    mult[axis] = copies;
    return im.op(OpId::Tile, {p}, attrs({{"multiples", mult}}));
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
  return im.op(OpId::Concat, parts, attrs({{"axis", axis}}));
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
  CC_ASSIGN(r, im.op(OpId::Pad, {x},
                     attrs({{"padding", padding}, {"pad_const", value}})));
  return im.define(0, r);
}

Error tile(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(reps, im.intsIn(1));
  CC_ASSIGN(r, im.op(OpId::Tile, {x}, attrs({{"multiples", reps}})));
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

void addDataHandlers(OpHandlers &handlers) {
  handlers["Reshape"] = reshape;
  handlers["Flatten"] = flatten;
  handlers["Squeeze"] = squeeze;
  handlers["Unsqueeze"] = unsqueeze;
  handlers["Transpose"] = transposeOp;
  handlers["Slice"] = slice;
  handlers["Concat"] = concat;
  handlers["Pad"] = pad;
  handlers["Tile"] = tile;
  handlers["Expand"] = expand;
  handlers["Identity"] = identity;
  handlers["Constant"] = constantOp;
}

} // namespace cc::onnx
