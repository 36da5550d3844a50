// ONNX ops over indices: gathers (with constant indices folded to flat
// positions, or indices known only at run time), scatters with constant
// indices (one gather from data ++ updates), OneHot, CumSum and
// ReverseSequence.
#include "backends/onnx/Importer.h"
#include "core/Limits.h"

#include <algorithm>

namespace cc::onnx {

using I = Importer;

// x's slices along `axis` picked by `idx` (in range): the table's gather
// over x seen as [outer, axis, inner].
Expected<ValueId> gatherAxis(I &im, ValueId x, int64_t axis,
                             const std::vector<int64_t> &idx) {
  Shape s = im.typeOf(x).shape;
  int64_t n = numElements(Shape(s.begin(), s.begin() + axis)), k = s[axis],
          c = numElements(Shape(s.begin() + axis + 1, s.end())),
          w = int64_t(idx.size());
  // The index tensor is one constant: within the tensor limit, checked
  // before it is allocated (w indices for each of n outer rows).
  if (w > 0 && n > kMaxTensorElements / w)
    return makeError("Gather needs " + std::to_string(n) + " x " +
                     std::to_string(w) + " indices, more than the " +
                     std::to_string(kMaxTensorElements) + " a tensor may hold");
  Tensor ind(DType::i32, {n, w});
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < w; ++i) {
      if (idx[i] < 0 || idx[i] >= k)
        return makeError("index " + std::to_string(idx[i]) +
                         " is out of range");
      ind.setI(j * w + i, idx[i]);
    }
  CC_ASSIGN(x3, im.reshape(x, {n, k, c}));
  CC_ASSIGN(iv, im.constant(ind));
  CC_ASSIGN(g, im.op(OpId::Gather, {x3, iv}));
  Shape out = s;
  out[axis] = w;
  return im.reshape(g, out);
}

namespace {

// Elements of x picked by flat (row-major) indices, shaped `out`: one
// gather over x seen as [1, size, 1].
Expected<ValueId> gatherFlat(I &im, ValueId x, const std::vector<int64_t> &flat,
                             const Shape &out) {
  int64_t total = numElements(im.typeOf(x).shape), w = int64_t(flat.size());
  Tensor ind(DType::i32, {1, w});
  for (int64_t i = 0; i < w; ++i) {
    if (flat[i] < 0 || flat[i] >= total)
      return makeError("index out of range");
    ind.setI(i, flat[i]);
  }
  CC_ASSIGN(x3, im.reshape(x, {1, total, 1}));
  CC_ASSIGN(iv, im.constant(ind));
  CC_ASSIGN(g, im.op(OpId::Gather, {x3, iv}));
  return im.reshape(g, out);
}

// An index that ONNX lets count from the end.
Expected<int64_t> wrapIndex(int64_t v, int64_t k) {
  if (v < -k || v >= k)
    return makeError("index " + std::to_string(v) + " is out of range [" +
                     std::to_string(-k) + ", " + std::to_string(k) + ")");
  return v < 0 ? v + k : v;
}

// Indices computed at run time, wrapped into [0, k) where negative (an
// index outside [-k, k) stays out of range: the gather's undefined case).
Expected<ValueId> wrapIndices(I &im, size_t operand, int64_t k) {
  CC_ASSIGN(raw, im.in(operand));
  if (isBool(im.typeOf(raw).dtype))
    return makeError("indices must be numbers");
  CC_ASSIGN(idx, castValue(im, raw, DType::i32)); // OneHot's may be floats
  CC_ASSIGN(zero, scalarLike(im, idx, 0));
  CC_ASSIGN(kc, scalarLike(im, idx, double(k)));
  CC_ASSIGN(neg, binaryOp(im, OpId::Greater, zero, idx));
  CC_ASSIGN(up, binaryOp(im, OpId::Add, idx, kc));
  return im.op(OpId::Select, {neg, up, idx});
}

// Gather with indices known only at run time (token ids into an
// embedding): the table's gather with the indices repeated per outer row.
Error gatherDynamic(I &im, ValueId x, int64_t axis) {
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(idx, wrapIndices(im, 1, s[axis]));
  Shape is = im.typeOf(idx).shape;
  int64_t n = numElements(Shape(s.begin(), s.begin() + axis)), k = s[axis],
          c = numElements(Shape(s.begin() + axis + 1, s.end())),
          w = numElements(is);
  CC_ASSIGN(row, im.reshape(idx, {1, w}));
  CC_ASSIGN(rows, broadcastTo(im, row, {n, w}));
  CC_ASSIGN(x3, im.reshape(x, {n, k, c}));
  CC_ASSIGN(g, im.op(OpId::Gather, {x3, rows}));
  Shape out(s.begin(), s.begin() + axis);
  out.insert(out.end(), is.begin(), is.end());
  out.insert(out.end(), s.begin() + axis + 1, s.end());
  CC_ASSIGN(r, im.reshape(g, out));
  return im.define(0, r);
}

// Gather on any axis.
Error gather(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", 0), int64_t(s.size())));
  auto known = im.constIn(1);
  if (!known)
    return gatherDynamic(im, x, axis);
  const Tensor &idx = *known;
  std::vector<int64_t> picks;
  for (int64_t i = 0; i < idx.size(); ++i) {
    CC_ASSIGN(v, wrapIndex(idx.getI(i), s[axis]));
    picks.push_back(v);
  }
  CC_ASSIGN(g, gatherAxis(im, x, axis, picks));
  Shape out(s.begin(), s.begin() + axis);
  out.insert(out.end(), idx.shape().begin(), idx.shape().end());
  out.insert(out.end(), s.begin() + axis + 1, s.end());
  if (numElements(out) == 0)
    return unsupported("Gather of no element");
  CC_ASSIGN(r, im.reshape(g, out));
  return im.define(0, r);
}

std::vector<int64_t> stridesOf(const Shape &s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t d = s.size(); d-- > 1;)
    st[d - 1] = st[d] * s[d];
  return st;
}

// Flat positions in data of shape `s` for an index tensor of shape `is`
// (GatherElements, ScatterElements): element e's own coordinates, the one
// on `axis` replaced by idx[e] (0 without idx: the base offset).
Expected<std::vector<int64_t>> elementPositions(const Shape &s, const Shape &is,
                                                int64_t axis,
                                                const Tensor *idx) {
  if (is.size() != s.size())
    return makeError("the indices must have the data's rank");
  std::vector<int64_t> xs = stridesOf(s), ist = stridesOf(is), flat;
  for (int64_t e = 0; e < numElements(is); ++e) {
    int64_t off = 0;
    for (size_t d = 0; d < is.size(); ++d) {
      int64_t coord = (e / ist[d]) % is[d];
      if (int64_t(d) == axis) {
        coord = 0;
        if (idx) {
          CC_ASSIGN(v, wrapIndex(idx->getI(e), s[d]));
          coord = v;
        }
      } else if (coord >= s[d]) {
        return makeError("the indices exceed the data's shape");
      }
      off += coord * xs[d];
    }
    flat.push_back(off);
  }
  return flat;
}

// Flat positions of the slices that GatherND/ScatterND index tuples (the
// last axis of idx) name in data of shape `s`, slice by slice.
Expected<std::vector<int64_t>> tuplePositions(const Shape &s,
                                              const Tensor &idx) {
  Shape is = idx.shape();
  if (is.empty() || is.back() > int64_t(s.size()))
    return makeError("index tuples are longer than the data's rank");
  int64_t q = is.back(), tuples = numElements(Shape(is.begin(), is.end() - 1)),
          sliceSize = numElements(Shape(s.begin() + q, s.end()));
  std::vector<int64_t> xs = stridesOf(s), flat;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (int64_t d = 0; d < q; ++d) {
      CC_ASSIGN(v, wrapIndex(idx.getI(t * q + d), s[d]));
      base += v * xs[d];
    }
    for (int64_t e = 0; e < sliceSize; ++e)
      flat.push_back(base + e);
  }
  return flat;
}

// out[i...] = x[i... with i[axis] = idx[i...]]: flat positions, folded
// when the indices are constants, else idx * stride(axis) + the constant
// offset of the other coordinates.
Error gatherElements(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(it, im.typeIn(1));
  Shape s = im.typeOf(x).shape, is = it.shape;
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", 0), int64_t(s.size())));
  auto known = im.constIn(1);
  CC_ASSIGN(flat, elementPositions(s, is, axis, known ? &*known : nullptr));
  if (known) {
    CC_ASSIGN(r, gatherFlat(im, x, flat, is));
    return im.define(0, r);
  }
  Tensor base(DType::i32, is);
  for (size_t e = 0; e < flat.size(); ++e)
    base.setI(int64_t(e), flat[e]);
  CC_ASSIGN(idx, wrapIndices(im, 1, s[axis]));
  CC_ASSIGN(stride, scalarLike(im, idx, double(stridesOf(s)[axis])));
  CC_ASSIGN(scaled, binaryOp(im, OpId::Mul, idx, stride));
  CC_ASSIGN(bv, im.constant(base));
  CC_ASSIGN(pos, im.op(OpId::Add, {scaled, bv}));
  int64_t total = numElements(s), w = numElements(is);
  CC_ASSIGN(row, im.reshape(pos, {1, w}));
  CC_ASSIGN(x3, im.reshape(x, {1, total, 1}));
  CC_ASSIGN(g, im.op(OpId::Gather, {x3, row}));
  CC_ASSIGN(r, im.reshape(g, is));
  return im.define(0, r);
}

// GatherND with batch_dims = 0 and constant indices.
Error gatherNd(I &im) {
  if (im.attrInt("batch_dims", 0) != 0)
    return unsupported("GatherND with batch_dims");
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(idx, im.constIn(1));
  Shape s = im.typeOf(x).shape, is = idx.shape();
  CC_ASSIGN(flat, tuplePositions(s, idx));
  Shape out(is.begin(), is.end() - 1);
  out.insert(out.end(), s.begin() + is.back(), s.end());
  CC_ASSIGN(r, gatherFlat(im, x, flat, out));
  return im.define(0, r);
}

// v shifted by `by` along `axis`: `by` zeros first, the last `by` dropped.
Expected<ValueId> shifted(I &im, ValueId v, int64_t axis, int64_t by) {
  Shape s = im.typeOf(v).shape;
  std::vector<int64_t> padding(2 * s.size(), 0), start(s.size(), 0),
      size(s.begin(), s.end());
  padding[2 * axis] = by;
  CC_ASSIGN(p, im.op(OpId::Pad, {v}, attrs({{"padding", padding}})));
  return im.op(OpId::Slice, {p}, attrs({{"start", start}, {"size", size}}));
}

// CumSum as a Hillis-Steele scan: log2(n) shifted adds (exact for
// integers; float sums associate differently than a running sum, within
// the error model's accumulation).
Error cumSum(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(axisT, im.constIn(1));
  Shape s = im.typeOf(x).shape;
  CC_ASSIGN(axis, normalizeAxis(axisT.getI(0), int64_t(s.size())));
  bool reverse = im.attrInt("reverse", 0) != 0;
  ValueId v = x;
  if (reverse) {
    CC_ASSIGN(r, im.op(OpId::Reverse, {v}, attrs({{"axis", axis}})));
    v = r;
  }
  if (im.attrInt("exclusive", 0)) {
    CC_ASSIGN(r, shifted(im, v, axis, 1));
    v = r;
  }
  for (int64_t by = 1; by < s[axis]; by *= 2) {
    CC_ASSIGN(sh, shifted(im, v, axis, by));
    CC_ASSIGN(r, im.op(OpId::Add, {v, sh}));
    v = r;
  }
  if (reverse) {
    CC_ASSIGN(r, im.op(OpId::Reverse, {v}, attrs({{"axis", axis}})));
    v = r;
  }
  return im.define(0, v);
}

// OneHot: values[1] where the (wrapped) index equals the position along the
// new axis, values[0] elsewhere.
Error oneHot(I &im) {
  CC_ASSIGN(depthT, im.constIn(1));
  CC_ASSIGN(values, im.constIn(2));
  int64_t depth = int64_t(depthT.asDouble(0));
  if (depth <= 0 || values.size() != 2)
    return makeError("OneHot needs a positive depth and two values");
  CC_ASSIGN(idx, wrapIndices(im, 0, depth));
  Shape is = im.typeOf(idx).shape;
  int64_t rank = int64_t(is.size()) + 1;
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", -1), rank));
  Shape expanded = is, iotaShape(rank, 1), out = is;
  expanded.insert(expanded.begin() + axis, 1);
  iotaShape[axis] = depth;
  out.insert(out.begin() + axis, depth);
  Tensor iota(DType::i32, iotaShape);
  for (int64_t i = 0; i < depth; ++i)
    iota.setI(i, i);
  CC_ASSIGN(ie, im.reshape(idx, expanded));
  CC_ASSIGN(iv, im.constant(iota));
  CC_ASSIGN(hit, binaryOp(im, OpId::Equal, ie, iv));
  CC_ASSIGN(hits, broadcastTo(im, hit, out));
  Tensor off(values.dtype(), Shape(rank, 1)),
      on(values.dtype(), Shape(rank, 1));
  isFloat(values.dtype())
      ? (off.setF(0, values.asDouble(0)), on.setF(0, values.asDouble(1)))
      : (off.setI(0, values.getI(0)), on.setI(0, values.getI(1)));
  CC_ASSIGN(onV, im.constant(on));
  CC_ASSIGN(offV, im.constant(off));
  CC_ASSIGN(r, im.op(OpId::Select, {hits, onV, offV}));
  return im.define(0, r);
}

// Scatter with constant indices as one gather from data ++ updates: each
// output position reads its update (the last one written wins) or its
// datum.
Expected<ValueId> scatterFlat(I &im, ValueId data, ValueId updates,
                              const std::vector<int64_t> &targets) {
  Shape s = im.typeOf(data).shape;
  int64_t d = numElements(s), u = numElements(im.typeOf(updates).shape);
  std::vector<int64_t> map(d);
  for (int64_t p = 0; p < d; ++p)
    map[p] = p;
  for (int64_t j = 0; j < int64_t(targets.size()); ++j)
    map[targets[j]] = d + j;
  CC_ASSIGN(dv, im.reshape(data, {1, d, 1}));
  CC_ASSIGN(uv, im.reshape(updates, {1, u, 1}));
  CC_ASSIGN(both, im.op(OpId::Concat, {dv, uv}, attrs({{"axis", int64_t(1)}})));
  return gatherFlat(im, both, map, s);
}

// ScatterElements (and the deprecated Scatter): updates[i...] goes to the
// position of i... with i[axis] = indices[i...].
Error scatterElements(I &im) {
  if (im.attrString("reduction", "none") != "none")
    return unsupported("ScatterElements with a reduction");
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(idx, im.constIn(1));
  CC_ASSIGN(upd, im.in(2));
  Shape s = im.typeOf(x).shape;
  if (im.typeOf(upd).shape != idx.shape())
    return makeError("ScatterElements indices and updates must match in shape");
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", 0), int64_t(s.size())));
  CC_ASSIGN(targets, elementPositions(s, idx.shape(), axis, &idx));
  CC_ASSIGN(r, scatterFlat(im, x, upd, targets));
  return im.define(0, r);
}

// ScatterND: each index tuple names a slice of data that takes the
// matching slice of updates.
Error scatterNd(I &im) {
  if (im.attrString("reduction", "none") != "none")
    return unsupported("ScatterND with a reduction");
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(idx, im.constIn(1));
  CC_ASSIGN(upd, im.in(2));
  CC_ASSIGN(targets, tuplePositions(im.typeOf(x).shape, idx));
  if (int64_t(targets.size()) != numElements(im.typeOf(upd).shape))
    return makeError("ScatterND updates do not match the indexed slices");
  CC_ASSIGN(r, scatterFlat(im, x, upd, targets));
  return im.define(0, r);
}

// ReverseSequence with constant lengths: along the time axis, the first
// len[b] elements of batch b reversed, the rest kept.
Error reverseSequence(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(lens, im.constIn(1));
  Shape s = im.typeOf(x).shape;
  if (s.size() < 2)
    return makeError("ReverseSequence needs rank 2 or more");
  CC_ASSIGN(tAxis,
            normalizeAxis(im.attrInt("time_axis", 0), int64_t(s.size())));
  CC_ASSIGN(bAxis,
            normalizeAxis(im.attrInt("batch_axis", 1), int64_t(s.size())));
  if (tAxis == bAxis || lens.size() != s[bAxis])
    return makeError(
        "ReverseSequence needs distinct axes and one length per batch");
  std::vector<int64_t> st = stridesOf(s), flat;
  for (int64_t e = 0; e < numElements(s); ++e) {
    int64_t t = (e / st[tAxis]) % s[tAxis], b = (e / st[bAxis]) % s[bAxis];
    int64_t len = lens.getI(b);
    if (len < 0 || len > s[tAxis])
      return makeError("ReverseSequence length out of range");
    flat.push_back(t < len ? e + (len - 1 - 2 * t) * st[tAxis] : e);
  }
  CC_ASSIGN(r, gatherFlat(im, x, flat, s));
  return im.define(0, r);
}

} // namespace

void addIndexHandlers(OpHandlers &h) {
  h["CumSum"] = cumSum;
  h["OneHot"] = oneHot;
  h["ScatterElements"] = scatterElements;
  h["Scatter"] = scatterElements;
  h["ScatterND"] = scatterNd;
  h["ReverseSequence"] = reverseSequence;
  h["Gather"] = gather;
  h["GatherElements"] = gatherElements;
  h["GatherND"] = gatherNd;
}

} // namespace cc::onnx
