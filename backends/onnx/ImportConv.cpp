// ONNX convolutions and pools (NCHW, or NCL for 1-D ones, which become a
// 2-D window of height 1) onto the table's NHWC conv2d, depthwise_conv2d,
// transpose_conv2d, avg_pool2d and max_pool2d. Grouped convolutions are one
// convolution per group, concatenated, as TOSA frontends emit them.
#include "backends/onnx/Importer.h"

#include <algorithm>

namespace cc::onnx {

namespace {

using I = Importer;

// A 2-D window: kernel, stride and dilation as [y, x], explicit padding as
// [top, bottom, left, right]. A 1-D op has y entries 1 (padding 0).
struct Window {
  bool oneD = false;
  Shape spatial; // the input's [H, W]
  std::vector<int64_t> kernel, stride, dilation, pads;
};

Expected<Window> readWindow(I &im, const Shape &x,
                            std::vector<int64_t> kernel) {
  Window w;
  if (x.size() != 3 && x.size() != 4)
    return unsupported(
        "only 1-D and 2-D convolutions and pools are mapped (input " +
        std::to_string(x.size()) + "-D)");
  w.oneD = x.size() == 3;
  size_t n = w.oneD ? 1 : 2;
  auto list = [&](const char *name,
                  int64_t dflt) -> Expected<std::vector<int64_t>> {
    auto v = im.attrInts(name).value_or(std::vector<int64_t>(n, dflt));
    if (v.size() != n)
      return makeError(std::string(name) + " must have " + std::to_string(n) +
                       " entries");
    if (w.oneD)
      v.insert(v.begin(), 1);
    return v;
  };
  if (kernel.size() != n)
    return makeError("the kernel must have " + std::to_string(n) +
                     " dimensions");
  if (w.oneD)
    kernel.insert(kernel.begin(), 1);
  w.kernel = kernel;
  w.spatial = w.oneD ? Shape{1, x[2]} : Shape{x[2], x[3]};
  CC_ASSIGN(stride, list("strides", 1));
  CC_ASSIGN(dilation, list("dilations", 1));
  w.stride = stride, w.dilation = dilation;
  w.pads.assign(4, 0);
  std::string autoPad = im.attrString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    if (auto p = im.attrInts("pads")) {
      if (p->size() != 2 * n)
        return makeError("pads must have " + std::to_string(2 * n) +
                         " entries");
      w.pads = w.oneD
                   ? std::vector<int64_t>{0, 0, (*p)[0], (*p)[1]}
                   : std::vector<int64_t>{(*p)[0], (*p)[2], (*p)[1], (*p)[3]};
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int d = 0; d < 2; ++d) {
      int64_t in = w.spatial[d], out = (in + w.stride[d] - 1) / w.stride[d];
      int64_t total = std::max<int64_t>(
          (out - 1) * w.stride[d] + (w.kernel[d] - 1) * w.dilation[d] + 1 - in,
          0);
      int64_t small = total / 2;
      w.pads[2 * d] = autoPad == "SAME_UPPER" ? small : total - small;
      w.pads[2 * d + 1] = total - w.pads[2 * d];
    }
  } else if (autoPad != "VALID") {
    return makeError("unknown auto_pad '" + autoPad + "'");
  }
  return w;
}

Expected<ValueId> toNhwc(I &im, ValueId x, bool oneD) {
  if (oneD) {
    Shape s = im.typeOf(x).shape;
    CC_ASSIGN(r, im.reshape(x, {s[0], s[1], 1, s[2]}));
    x = r;
  }
  return im.transpose(x, {0, 2, 3, 1});
}

// TOSA requires (in + pads - kernel extent) to divide by the stride; ONNX
// drops the remainder rows. As TOSA frontends do: less bottom/right
// padding, then slice off the input rows that no window reaches.
Expected<ValueId> exactWindow(I &im, ValueId xh, Window &w) {
  Shape s = im.typeOf(xh).shape;
  std::vector<int64_t> size(s.begin(), s.end());
  for (int d = 0; d < 2; ++d) {
    int64_t extent = (w.kernel[d] - 1) * w.dilation[d] + 1;
    int64_t span = w.spatial[d] + w.pads[2 * d] + w.pads[2 * d + 1] - extent;
    if (span < 0 || w.stride[d] <= 0)
      continue; // the op's own check names the problem
    int64_t extra = span % w.stride[d],
            cut = std::min(extra, w.pads[2 * d + 1]);
    w.pads[2 * d + 1] -= cut;
    size[1 + d] -= extra - cut;
  }
  if (size == std::vector<int64_t>(s.begin(), s.end()))
    return xh;
  return im.op(OpId::Slice, {xh},
               attrs({{"start", std::vector<int64_t>(4, 0)}, {"size", size}}));
}

Expected<ValueId> fromNhwc(I &im, ValueId y, bool oneD) {
  CC_ASSIGN(t, im.transpose(y, {0, 3, 1, 2}));
  if (!oneD)
    return t;
  Shape s = im.typeOf(t).shape;
  return im.reshape(t, {s[0], s[1], s[3]});
}

// Channels [first, first + count) of an NHWC value (axis 3) or of a weight
// or bias along `axis`.
Expected<ValueId> channels(I &im, ValueId v, int64_t axis, int64_t first,
                           int64_t count) {
  Shape s = im.typeOf(v).shape;
  if (first == 0 && count == s[axis])
    return v;
  std::vector<int64_t> start(s.size(), 0), size(s.begin(), s.end());
  start[axis] = first;
  size[axis] = count;
  return im.op(OpId::Slice, {v}, attrs({{"start", start}, {"size", size}}));
}

// Operand 2, or zeros of `n` channels.
Expected<ValueId> biasOf(I &im, DType t, int64_t n) {
  if (im.hasInput(2))
    return im.in(2);
  return im.constant(Tensor::splat({t, {n}}, 0));
}

// Runs `one(x, w, b)` per group on channel slices and concatenates.
template <class F>
Expected<ValueId> perGroup(I &im, int64_t group, ValueId xh, ValueId w,
                           int64_t wAxis, ValueId bias, F one) {
  if (group == 1)
    return one(xh, w, bias);
  int64_t cIn = im.typeOf(xh).shape[3], wRows = im.typeOf(w).shape[wAxis],
          cOut = im.typeOf(bias).shape[0];
  if (cIn % group || wRows % group || cOut % group)
    return makeError("channels are not a multiple of group " +
                     std::to_string(group));
  std::vector<ValueId> parts;
  for (int64_t g = 0; g < group; ++g) {
    CC_ASSIGN(xg, channels(im, xh, 3, g * (cIn / group), cIn / group));
    CC_ASSIGN(wg, channels(im, w, wAxis, g * (wRows / group), wRows / group));
    CC_ASSIGN(bg, channels(im, bias, 0, g * (cOut / group), cOut / group));
    CC_ASSIGN(y, one(xg, wg, bg));
    parts.push_back(y);
  }
  return im.op(OpId::Concat, parts, attrs({{"axis", int64_t(3)}}));
}

// The ranks and the group every convolution needs before its shapes are
// indexed: [N, C, spatial...] with a weight of the same rank.
Error checkConvShapes(I &im, const char *op, const Shape &xs, const Shape &ws) {
  if (xs.size() < 3)
    return makeError(std::string(op) + " input of rank " +
                     std::to_string(xs.size()) +
                     " (it needs [N, C, spatial...])");
  if (ws.size() != xs.size())
    return makeError(std::string(op) + " weight rank differs from the input's");
  int64_t group = im.attrInt("group", 1);
  if (group < 1 || xs[1] % group != 0)
    return makeError(std::string(op) + " group " + std::to_string(group) +
                     " does not divide the input's " + std::to_string(xs[1]) +
                     " channels");
  return Error::success();
}

Error conv(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(w, im.in(1));
  Shape xs = im.typeOf(x).shape, ws = im.typeOf(w).shape;
  CC_TRY(checkConvShapes(im, "Conv", xs, ws));
  CC_ASSIGN(win, readWindow(im, xs, Shape(ws.begin() + 2, ws.end())));
  if (win.oneD) {
    CC_ASSIGN(w4, im.reshape(w, {ws[0], ws[1], 1, ws[2]}));
    w = w4;
    ws = im.typeOf(w).shape;
  }
  CC_ASSIGN(nhwc, toNhwc(im, x, win.oneD));
  CC_ASSIGN(xh, exactWindow(im, nhwc, win));
  int64_t group = im.attrInt("group", 1);
  CC_ASSIGN(bias, biasOf(im, im.typeOf(x).dtype, ws[0]));
  Attrs a = attrs(
      {{"pad", win.pads}, {"stride", win.stride}, {"dilation", win.dilation}});
  ValueId y;
  if (group > 1 && group == xs[1] && ws[1] == 1) {
    // Depthwise: ONNX channel c*M+m is the table's too.
    CC_ASSIGN(w4, im.reshape(w, {group, ws[0] / group, ws[2], ws[3]}));
    CC_ASSIGN(wt, im.transpose(w4, {2, 3, 0, 1})); // -> KH, KW, C, M
    CC_ASSIGN(r, im.op(OpId::DepthwiseConv2d, {xh, wt, bias}, a));
    y = r;
  } else {
    CC_ASSIGN(wt, im.transpose(w, {0, 2, 3, 1})); // OIHW -> OHWI
    CC_ASSIGN(r, perGroup(im, group, xh, wt, 0, bias,
                          [&](ValueId xg, ValueId wg, ValueId bg) {
                            return im.op(OpId::Conv2d, {xg, wg, bg}, a);
                          }));
    y = r;
  }
  CC_ASSIGN(r, fromNhwc(im, y, win.oneD));
  return im.define(0, r);
}

// ConvTranspose: input iy reaches output iy * stride + ky - pad_top, which
// is the table's transpose_conv2d with out_pad = -pads (+ output_padding at
// the end).
Error convTranspose(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(w, im.in(1));
  Shape xs = im.typeOf(x).shape, ws = im.typeOf(w).shape;
  CC_TRY(checkConvShapes(im, "ConvTranspose", xs, ws));
  std::string autoPad = im.attrString("auto_pad", "NOTSET");
  CC_ASSIGN(win, readWindow(im, xs, Shape(ws.begin() + 2, ws.end())));
  if (win.dilation != std::vector<int64_t>{1, 1})
    return unsupported("ConvTranspose with dilations");
  if (win.oneD) {
    CC_ASSIGN(w4, im.reshape(w, {ws[0], ws[1], 1, ws[2]}));
    w = w4;
    ws = im.typeOf(w).shape;
  }
  size_t spatial = win.oneD ? 1 : 2;
  std::vector<int64_t> outPadding =
      im.attrInts("output_padding").value_or(std::vector<int64_t>{});
  if (!outPadding.empty() && outPadding.size() != spatial)
    return makeError("output_padding must have " + std::to_string(spatial) +
                     " entries");
  outPadding.insert(outPadding.begin(), 2 - outPadding.size(), 0);
  auto outShape = im.attrInts("output_shape");
  if (outShape && outShape->size() != spatial &&
      outShape->size() != spatial + 2)
    return makeError("output_shape must have " + std::to_string(spatial) +
                     " (or " + std::to_string(spatial + 2) + ") entries");
  if (outShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    std::vector<int64_t> target = outShape.value_or(std::vector<int64_t>{});
    if (win.oneD && outShape)
      target.insert(target.begin(), 1);
    for (int d = 0; d < 2; ++d) {
      int64_t want = outShape ? target.at(target.size() - 2 + d)
                              : win.spatial[d] * win.stride[d];
      int64_t total = win.stride[d] * (win.spatial[d] - 1) + outPadding[d] +
                      win.kernel[d] - want;
      // ONNX's equations; an output larger than the natural one grows at
      // the end, as ONNX's test data (and onnxruntime) have it.
      int64_t half = total / 2;
      win.pads[2 * d] = total < 0                 ? 0
                        : autoPad == "SAME_UPPER" ? half
                                                  : total - half;
      win.pads[2 * d + 1] = total - win.pads[2 * d];
    }
  }
  std::vector<int64_t> outPad{-win.pads[0], -win.pads[1] + outPadding[0],
                              -win.pads[2], -win.pads[3] + outPadding[1]};
  int64_t group = im.attrInt("group", 1);
  CC_ASSIGN(xh, toNhwc(im, x, win.oneD));
  CC_ASSIGN(wt, im.transpose(
                    w, {1, 2, 3, 0})); // [C, M/g, KH, KW] -> [M/g, KH, KW, C]
  CC_ASSIGN(bias, biasOf(im, im.typeOf(x).dtype, ws[1] * group));
  Attrs a = attrs({{"out_pad", outPad}, {"stride", win.stride}});
  // Per group, the weight's input channels (its last axis) are split.
  CC_ASSIGN(y, perGroup(im, group, xh, wt, 3, bias,
                        [&](ValueId xg, ValueId wg, ValueId bg) {
                          return im.op(OpId::TransposeConv2d, {xg, wg, bg}, a);
                        }));
  CC_ASSIGN(r, fromNhwc(im, y, win.oneD));
  return im.define(0, r);
}

OpHandler pool(bool isMax) {
  return [isMax](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    if (im.node->outputs.size() > 1 && !im.node->outputs[1].empty())
      return unsupported("MaxPool's Indices output");
    if (im.attrInt("storage_order", 0))
      return unsupported("MaxPool with storage_order=1");
    auto kernel = im.attrInts("kernel_shape");
    if (!kernel)
      return makeError("a pool needs kernel_shape");
    Shape xs = im.typeOf(x).shape;
    CC_ASSIGN(win, readWindow(im, xs, *kernel));
    if (win.dilation != std::vector<int64_t>{1, 1})
      return unsupported("pooling with dilations");
    if (im.attrInt("ceil_mode", 0)) {
      // The partial last window becomes bottom/right padding, which the
      // table's pools exclude just as ONNX does.
      for (int d = 0; d < 2; ++d) {
        int64_t span = win.spatial[d] + win.pads[2 * d] + win.pads[2 * d + 1] -
                       win.kernel[d];
        if (span % win.stride[d])
          win.pads[2 * d + 1] += win.stride[d] - span % win.stride[d];
      }
    }
    CC_ASSIGN(xh, toNhwc(im, x, win.oneD));
    ValueId in = xh;
    std::vector<int64_t> p = win.pads;
    if (!isMax && im.attrInt("count_include_pad", 0) &&
        std::any_of(p.begin(), p.end(), [](int64_t v) { return v; })) {
      // Zero padding that the average counts: pad explicitly.
      std::vector<int64_t> padding{0, 0, p[0], p[1], p[2], p[3], 0, 0};
      CC_ASSIGN(padded, im.op(OpId::Pad, {xh}, attrs({{"padding", padding}})));
      in = padded;
      win.pads.assign(4, 0);
      win.spatial = {win.spatial[0] + p[0] + p[1],
                     win.spatial[1] + p[2] + p[3]};
    }
    CC_ASSIGN(exact, exactWindow(im, in, win));
    in = exact;
    Attrs a = attrs(
        {{"kernel", win.kernel}, {"stride", win.stride}, {"pad", win.pads}});
    CC_ASSIGN(y, im.op(isMax ? OpId::MaxPool2d : OpId::AvgPool2d, {in}, a));
    CC_ASSIGN(r, fromNhwc(im, y, win.oneD));
    return im.define(0, r);
  };
}

// GlobalAveragePool / GlobalMaxPool: one window over all of H and W.
OpHandler globalPool(bool isMax) {
  return [isMax](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    Shape xs = im.typeOf(x).shape;
    if (xs.size() != 3 && xs.size() != 4)
      return unsupported("only 1-D and 2-D global pools are mapped");
    bool oneD = xs.size() == 3;
    std::vector<int64_t> kernel{oneD ? 1 : xs[2], xs.back()};
    CC_ASSIGN(xh, toNhwc(im, x, oneD));
    Attrs a = attrs({{"kernel", kernel}});
    CC_ASSIGN(y, im.op(isMax ? OpId::MaxPool2d : OpId::AvgPool2d, {xh}, a));
    CC_ASSIGN(r, fromNhwc(im, y, oneD));
    return im.define(0, r);
  };
}

} // namespace

void addConvHandlers(OpHandlers &h) {
  h["Conv"] = conv;
  h["ConvTranspose"] = convTranspose;
  h["MaxPool"] = pool(true);
  h["AveragePool"] = pool(false);
  h["GlobalMaxPool"] = globalPool(true);
  h["GlobalAveragePool"] = globalPool(false);
}

} // namespace cc::onnx
