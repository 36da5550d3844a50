// ONNX ops that TOSA has no single operator for, decomposed the way TOSA
// frontends (TFLite, torch-mlir) lower them: float division as a * 1/b,
// square roots through rsqrt, means as a sum times 1/N, activations and
// normalizations from exp, select, clamp and arithmetic. The imported
// graph's meaning is then exact TOSA; only the comparison with ONNX's own
// expected outputs needs the numeric oracle's tolerance (Conformance.cpp).
#include "backends/onnx/Importer.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace cc::onnx {

namespace {

using I = Importer;

// Small builders over binaryOp, so that each decomposition reads like its
// formula.
struct Ops {
  I &im;
  Expected<ValueId> bin(OpId op, ValueId a, ValueId b) {
    return binaryOp(im, op, a, b);
  }
  Expected<ValueId> k(ValueId like, double v) {
    return scalarLike(im, like, v);
  }
  Expected<ValueId> mulK(ValueId x, double v) {
    CC_ASSIGN(c, k(x, v));
    return bin(OpId::Mul, x, c);
  }
  Expected<ValueId> addK(ValueId x, double v) {
    CC_ASSIGN(c, k(x, v));
    return bin(OpId::Add, x, c);
  }
  Expected<ValueId> un(OpId op, ValueId x) { return im.op(op, {x}); }
  Expected<ValueId> div(ValueId a, ValueId b) {
    CC_ASSIGN(r, un(OpId::Reciprocal, b));
    return bin(OpId::Mul, a, r);
  }
  Expected<ValueId> sqrt(ValueId x) {
    CC_ASSIGN(r, un(OpId::Rsqrt, x));
    return un(OpId::Reciprocal, r);
  }
  // x < 0 ? neg : pos (x == -0 takes pos, as ONNX's x < 0 does).
  Expected<ValueId> ifNegative(ValueId x, ValueId neg, ValueId pos) {
    CC_ASSIGN(zero, k(x, 0));
    CC_ASSIGN(c, bin(OpId::Greater, zero, x));
    CC_ASSIGN(ab, im.equalRanks({c, neg, pos}));
    return im.op(OpId::Select, ab);
  }
  // The mean over `axes` (kept with size 1): the sum times 1/N.
  Expected<ValueId> mean(ValueId x, const std::vector<int64_t> &axes) {
    Shape s = im.typeOf(x).shape;
    int64_t n = 1;
    for (int64_t a : axes)
      n *= s[a];
    CC_ASSIGN(sum, reduceOver(im, OpId::ReduceSum, x, axes));
    return mulK(sum, 1.0 / double(n));
  }
};

Error requireFloat(I &im, ValueId x, const char *what) {
  if (!isFloat(im.typeOf(x).dtype))
    return unsupported(std::string(what) + " of " +
                       std::string(dtypeName(im.typeOf(x).dtype)));
  return Error::success();
}

// Float a / b = a * reciprocal(b); integers truncate toward zero (intdiv).
Error div(I &im) {
  CC_ASSIGN(a, im.in(0));
  CC_ASSIGN(b, im.in(1));
  Ops o{im};
  if (!isFloat(im.typeOf(a).dtype)) {
    CC_ASSIGN(r, o.bin(OpId::IntDiv, a, b));
    return im.define(0, r);
  }
  CC_ASSIGN(r, o.div(a, b));
  return im.define(0, r);
}

Error sqrtOp(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "Sqrt"));
  CC_ASSIGN(r, Ops{im}.sqrt(x));
  return im.define(0, r);
}

// An activation y = f(x) built from the node's float attributes.
using Activation = std::function<Expected<ValueId>(I &, Ops &, ValueId)>;
OpHandler activation(const char *name, Activation f) {
  return [name, f](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    CC_TRY(requireFloat(im, x, name));
    Ops o{im};
    CC_ASSIGN(y, f(im, o, x));
    return im.define(0, y);
  };
}

Expected<ValueId> leakyRelu(I &im, Ops &o, ValueId x) {
  CC_ASSIGN(ax, o.mulK(x, im.attrFloat("alpha", 0.01)));
  return o.ifNegative(x, ax, x);
}

Expected<ValueId> elu(I &im, Ops &o, ValueId x) {
  CC_ASSIGN(e, o.un(OpId::Exp, x));
  CC_ASSIGN(em1, o.addK(e, -1));
  CC_ASSIGN(neg, o.mulK(em1, im.attrFloat("alpha", 1)));
  return o.ifNegative(x, neg, x);
}

// gamma * (x > 0 ? x : alpha * e^x - alpha)
Expected<ValueId> selu(I &im, Ops &o, ValueId x) {
  double alpha = im.attrFloat("alpha", 1.67326319217681884765625),
         gamma = im.attrFloat("gamma", 1.05070102214813232421875);
  CC_ASSIGN(e, o.un(OpId::Exp, x));
  CC_ASSIGN(ae, o.mulK(e, alpha));
  CC_ASSIGN(neg, o.addK(ae, -alpha));
  CC_ASSIGN(zero, o.k(x, 0));
  CC_ASSIGN(pos, o.bin(OpId::Greater, x, zero));
  CC_ASSIGN(sel, im.op(OpId::Select, {pos, x, neg}));
  return o.mulK(sel, gamma);
}

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
Expected<ValueId> celu(I &im, Ops &o, ValueId x) {
  double alpha = im.attrFloat("alpha", 1);
  CC_ASSIGN(xa, o.mulK(x, 1 / alpha));
  CC_ASSIGN(e, o.un(OpId::Exp, xa));
  CC_ASSIGN(em1, o.addK(e, -1));
  CC_ASSIGN(neg, o.mulK(em1, alpha));
  CC_ASSIGN(zero, o.k(x, 0));
  CC_ASSIGN(lo, o.bin(OpId::Minimum, neg, zero));
  CC_ASSIGN(hi, o.bin(OpId::Maximum, x, zero));
  return o.bin(OpId::Add, hi, lo);
}

Expected<ValueId> softplus(I &, Ops &o, ValueId x) {
  CC_ASSIGN(e, o.un(OpId::Exp, x));
  CC_ASSIGN(e1, o.addK(e, 1));
  return o.un(OpId::Log, e1);
}

Expected<ValueId> softsign(I &, Ops &o, ValueId x) {
  CC_ASSIGN(a, o.un(OpId::Abs, x));
  CC_ASSIGN(a1, o.addK(a, 1));
  return o.div(x, a1);
}

Expected<ValueId> hardSigmoidOf(I &im, ValueId x, double alpha, double beta) {
  Ops o{im};
  CC_ASSIGN(ax, o.mulK(x, alpha));
  CC_ASSIGN(axb, o.addK(ax, beta));
  return im.op(OpId::Clamp, {axb}, attrs({{"min", 0.0}, {"max", 1.0}}));
}

Expected<ValueId> hardSigmoid(I &im, Ops &, ValueId x) {
  return hardSigmoidOf(im, x, im.attrFloat("alpha", 0.2),
                       im.attrFloat("beta", 0.5));
}

Expected<ValueId> hardSwish(I &im, Ops &o, ValueId x) {
  CC_ASSIGN(h, hardSigmoidOf(im, x, 1.0 / 6, 0.5));
  return o.bin(OpId::Mul, x, h);
}

Expected<ValueId> thresholdedRelu(I &im, Ops &o, ValueId x) {
  CC_ASSIGN(t, o.k(x, im.attrFloat("alpha", 1)));
  CC_ASSIGN(zero, o.k(x, 0));
  CC_ASSIGN(c, o.bin(OpId::Greater, x, t));
  CC_ASSIGN(ab, im.equalRanks({c, x, zero}));
  return im.op(OpId::Select, ab);
}

// x < -lambd ? x + bias : x > lambd ? x - bias : 0
Expected<ValueId> shrink(I &im, Ops &o, ValueId x) {
  double lambd = im.attrFloat("lambd", 0.5), bias = im.attrFloat("bias", 0);
  CC_ASSIGN(lo, o.k(x, -lambd));
  CC_ASSIGN(hi, o.k(x, lambd));
  CC_ASSIGN(zero, o.k(x, 0));
  CC_ASSIGN(below, o.bin(OpId::Greater, lo, x));
  CC_ASSIGN(above, o.bin(OpId::Greater, x, hi));
  CC_ASSIGN(xp, o.addK(x, bias));
  CC_ASSIGN(xm, o.addK(x, -bias));
  CC_ASSIGN(upper, im.op(OpId::Select, {above, xm, zero}));
  return im.op(OpId::Select, {below, xp, upper});
}

// Erf-based by default, or the tanh approximation (approximate = "tanh").
Expected<ValueId> gelu(I &im, Ops &o, ValueId x) {
  ValueId inner;
  if (im.attrString("approximate", "none") == "tanh") {
    CC_ASSIGN(x2, o.bin(OpId::Mul, x, x));
    CC_ASSIGN(x3, o.bin(OpId::Mul, x2, x));
    CC_ASSIGN(c, o.mulK(x3, 0.044715));
    CC_ASSIGN(s, o.bin(OpId::Add, x, c));
    CC_ASSIGN(t, o.mulK(s, std::sqrt(2 / M_PI)));
    CC_ASSIGN(r, o.un(OpId::Tanh, t));
    inner = r;
  } else {
    CC_ASSIGN(t, o.mulK(x, M_SQRT1_2));
    CC_ASSIGN(r, o.un(OpId::Erf, t));
    inner = r;
  }
  CC_ASSIGN(one, o.addK(inner, 1));
  CC_ASSIGN(half, o.mulK(x, 0.5));
  return o.bin(OpId::Mul, half, one);
}

// x * slope where x < 0; the slope broadcasts to x.
Error prelu(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_ASSIGN(slope, im.in(1));
  CC_TRY(requireFloat(im, x, "PRelu"));
  Ops o{im};
  CC_ASSIGN(xs, o.bin(OpId::Mul, x, slope));
  CC_ASSIGN(r, o.ifNegative(x, xs, x));
  return im.define(0, r);
}

// Softmax and LogSoftmax over one axis (opset 13) or, before, over all axes
// from `axis` on (the input coerced to 2-D).
OpHandler softmax(bool log) {
  return [log](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    CC_TRY(requireFloat(im, x, log ? "LogSoftmax" : "Softmax"));
    Shape s = im.typeOf(x).shape;
    int64_t rank = int64_t(s.size());
    CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", im.opset() >= 13 ? -1 : 1),
                                  rank));
    std::vector<int64_t> axes{axis};
    if (im.opset() < 13)
      for (int64_t d = axis + 1; d < rank; ++d)
        axes.push_back(d);
    Ops o{im};
    CC_ASSIGN(mx, reduceOver(im, OpId::ReduceMax, x, axes));
    CC_ASSIGN(shifted, o.bin(OpId::Sub, x, mx));
    CC_ASSIGN(e, o.un(OpId::Exp, shifted));
    CC_ASSIGN(sum, reduceOver(im, OpId::ReduceSum, e, axes));
    ValueId y;
    if (log) {
      CC_ASSIGN(ls, o.un(OpId::Log, sum));
      CC_ASSIGN(r, o.bin(OpId::Sub, shifted, ls));
      y = r;
    } else {
      CC_ASSIGN(r, o.div(e, sum));
      y = r;
    }
    return im.define(0, y);
  };
}

// Hardmax: 1 where the first maximum along the axis is, else 0.
Error hardmax(I &im) {
  CC_ASSIGN(x, im.in(0));
  Shape s = im.typeOf(x).shape;
  int64_t rank = int64_t(s.size());
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", -1), rank));
  if (im.opset() < 13 && axis != rank - 1)
    return unsupported("Hardmax before opset 13 over several axes");
  CC_ASSIGN(arg, im.op(OpId::ArgMax, {x}, attrs({{"axis", axis}})));
  Shape kept = s;
  kept[axis] = 1;
  CC_ASSIGN(argK, im.reshape(arg, kept));
  Shape iotaShape(rank, 1);
  iotaShape[axis] = s[axis];
  Tensor iota(DType::i32, iotaShape);
  for (int64_t i = 0; i < s[axis]; ++i)
    iota.setI(i, i);
  CC_ASSIGN(iv, im.constant(iota));
  Ops o{im};
  CC_ASSIGN(hit, o.bin(OpId::Equal, argK, iv));
  CC_ASSIGN(one, o.k(x, 1));
  CC_ASSIGN(zero, o.k(x, 0));
  CC_ASSIGN(ab, im.equalRanks({hit, one, zero}));
  CC_ASSIGN(sel, im.op(OpId::Select, ab));
  CC_ASSIGN(r, broadcastTo(im, sel, s));
  return im.define(0, r);
}

// ReduceMean, ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum,
// ReduceLogSumExp: an elementwise prefix, a sum (or mean), a suffix.
enum class Reduction { Mean, L1, L2, SumSquare, LogSum, LogSumExp };
OpHandler reduction(Reduction kind) {
  return [kind](I &im) -> Error {
    CC_ASSIGN(x, im.in(0));
    Shape shape = im.typeOf(x).shape;
    bool flt = isFloat(im.typeOf(x).dtype);
    if (!flt && kind != Reduction::L1 && kind != Reduction::SumSquare)
      return unsupported(std::string(im.node->opType) + " of integers");
    CC_ASSIGN(axes, reduceAxes(im, 18, int64_t(shape.size())));
    Ops o{im};
    ValueId v = x;
    if (kind == Reduction::L1) {
      CC_ASSIGN(a, o.un(OpId::Abs, x));
      v = a;
    } else if (kind == Reduction::L2 || kind == Reduction::SumSquare) {
      CC_ASSIGN(sq, o.bin(OpId::Mul, x, x));
      v = sq;
    } else if (kind == Reduction::LogSumExp) {
      CC_ASSIGN(e, o.un(OpId::Exp, x));
      v = e;
    }
    auto summed = kind == Reduction::Mean
                      ? o.mean(v, axes)
                      : reduceOver(im, OpId::ReduceSum, v, axes);
    if (!summed)
      return summed.error();
    v = *summed;
    if (kind == Reduction::L2) {
      CC_ASSIGN(r, o.sqrt(v));
      v = r;
    } else if (kind == Reduction::LogSum || kind == Reduction::LogSumExp) {
      CC_ASSIGN(r, o.un(OpId::Log, v));
      v = r;
    }
    if (!im.attrInt("keepdims", 1)) {
      CC_ASSIGN(r, dropAxes(im, v, shape, axes));
      v = r;
    }
    return im.define(0, v);
  };
}

// Mean of any number of operands: their sum times 1/n.
Error meanOp(I &im) {
  CC_ASSIGN(acc, im.in(0));
  CC_TRY(requireFloat(im, acc, "Mean"));
  Ops o{im};
  for (size_t i = 1; i < im.numInputs(); ++i) {
    CC_ASSIGN(x, im.in(i));
    CC_ASSIGN(r, o.bin(OpId::Add, acc, x));
    acc = r;
  }
  CC_ASSIGN(r, o.mulK(acc, 1.0 / double(im.numInputs())));
  return im.define(0, r);
}

// LRN: x * (bias + alpha / size * sum of x^2 over `size` neighbouring
// channels)^-beta; the window sum as shifted slices of zero-padded x^2.
Error lrn(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "LRN"));
  Shape s = im.typeOf(x).shape;
  int64_t size = im.attrInt("size", 0);
  if (s.size() < 3 || size <= 0)
    return makeError("LRN needs rank 3 or more and a positive size");
  Ops o{im};
  CC_ASSIGN(x2, o.bin(OpId::Mul, x, x));
  std::vector<int64_t> padding(2 * s.size(), 0);
  padding[2] = (size - 1) / 2;
  padding[3] = size - 1 - padding[2];
  CC_ASSIGN(padded, im.op(OpId::Pad, {x2}, attrs({{"padding", padding}})));
  ValueId sum = -1;
  for (int64_t i = 0; i < size; ++i) {
    std::vector<int64_t> start(s.size(), 0), extent(s.begin(), s.end());
    start[1] = i;
    CC_ASSIGN(part, im.op(OpId::Slice, {padded},
                          attrs({{"start", start}, {"size", extent}})));
    if (sum < 0) {
      sum = part;
      continue;
    }
    CC_ASSIGN(r, im.op(OpId::Add, {sum, part}));
    sum = r;
  }
  CC_ASSIGN(scaled, o.mulK(sum, im.attrFloat("alpha", 1e-4) / double(size)));
  CC_ASSIGN(base, o.addK(scaled, im.attrFloat("bias", 1)));
  CC_ASSIGN(e, o.k(base, -im.attrFloat("beta", 0.75)));
  CC_ASSIGN(p, o.bin(OpId::Pow, base, e));
  CC_ASSIGN(y, o.bin(OpId::Mul, x, p));
  return im.define(0, y);
}

// A per-channel [C] operand as [1, C, 1, ...] against rank `rank`.
Expected<ValueId> perChannel(I &im, size_t i, int64_t rank) {
  CC_ASSIGN(v, im.in(i));
  Shape s(rank, 1);
  s[1] = im.typeOf(v).shape.at(0);
  return im.reshape(v, s);
}

// (x - mean) * rsqrt(var + eps) over `axes`, with the mean and the inverse
// standard deviation (both keep the axes with size 1).
struct Normalized {
  ValueId y, mean, invStd;
};
Expected<Normalized> normalize(I &im, ValueId x,
                               const std::vector<int64_t> &axes, double eps) {
  Ops o{im};
  CC_ASSIGN(mean, o.mean(x, axes));
  CC_ASSIGN(d, o.bin(OpId::Sub, x, mean));
  CC_ASSIGN(d2, o.bin(OpId::Mul, d, d));
  CC_ASSIGN(var, o.mean(d2, axes));
  CC_ASSIGN(ve, o.addK(var, eps));
  CC_ASSIGN(inv, o.un(OpId::Rsqrt, ve));
  CC_ASSIGN(y, o.bin(OpId::Mul, d, inv));
  return Normalized{y, mean, inv};
}

// y * scale + B, per channel (operands 1 and 2).
Expected<ValueId> scaleAndShift(I &im, ValueId y, int64_t rank) {
  CC_ASSIGN(scale, perChannel(im, 1, rank));
  CC_ASSIGN(bias, perChannel(im, 2, rank));
  Ops o{im};
  CC_ASSIGN(s, o.bin(OpId::Mul, y, scale));
  return o.bin(OpId::Add, s, bias);
}

// Training mode: normalized by the batch's statistics (over every axis
// but the channel), with the running mean and variance updated by
// `momentum` as outputs 1 and 2.
Error batchNormTraining(I &im, ValueId x) {
  int64_t rank = im.typeOf(x).rank();
  std::vector<int64_t> axes{0};
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  CC_ASSIGN(n, normalize(im, x, axes, im.attrFloat("epsilon", 1e-5)));
  CC_ASSIGN(y, scaleAndShift(im, n.y, rank));
  CC_TRY(im.define(0, y));
  Ops o{im};
  double momentum = im.attrFloat("momentum", 0.9);
  // The batch variance again (normalize() keeps only its rsqrt).
  CC_ASSIGN(d, o.bin(OpId::Sub, x, n.mean));
  CC_ASSIGN(d2, o.bin(OpId::Mul, d, d));
  CC_ASSIGN(var, o.mean(d2, axes));
  for (auto [out, stat] : {std::pair{1, n.mean}, std::pair{2, var}}) {
    CC_ASSIGN(running, im.in(size_t(out + 2)));
    CC_ASSIGN(flat, im.reshape(stat, im.typeOf(running).shape));
    CC_ASSIGN(old, o.mulK(running, momentum));
    CC_ASSIGN(cur, o.mulK(flat, 1 - momentum));
    CC_ASSIGN(r, o.bin(OpId::Add, old, cur));
    CC_TRY(im.define(size_t(out), r));
  }
  return Error::success();
}

// Inference BatchNormalization: (x - mean) * (scale * rsqrt(var + eps)) + B.
Error batchNorm(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "BatchNormalization"));
  int64_t rank = im.typeOf(x).rank();
  if (rank < 2)
    return makeError("BatchNormalization needs an input of rank 2 or more");
  if (im.attrInt("training_mode", 0))
    return batchNormTraining(im, x);
  CC_ASSIGN(scale, perChannel(im, 1, rank));
  CC_ASSIGN(bias, perChannel(im, 2, rank));
  CC_ASSIGN(mean, perChannel(im, 3, rank));
  CC_ASSIGN(var, perChannel(im, 4, rank));
  Ops o{im};
  CC_ASSIGN(ve, o.addK(var, im.attrFloat("epsilon", 1e-5)));
  CC_ASSIGN(inv, o.un(OpId::Rsqrt, ve));
  CC_ASSIGN(k, o.bin(OpId::Mul, scale, inv));
  CC_ASSIGN(centered, o.bin(OpId::Sub, x, mean));
  CC_ASSIGN(scaled, o.bin(OpId::Mul, centered, k));
  CC_ASSIGN(y, o.bin(OpId::Add, scaled, bias));
  return im.define(0, y);
}

Error instanceNorm(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "InstanceNormalization"));
  int64_t rank = im.typeOf(x).rank();
  if (rank < 3)
    return makeError("InstanceNormalization needs an input of rank 3 or more");
  std::vector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  CC_ASSIGN(n, normalize(im, x, axes, im.attrFloat("epsilon", 1e-5)));
  CC_ASSIGN(y, scaleAndShift(im, n.y, rank));
  return im.define(0, y);
}

// Over the axes from `axis` on; Scale and B broadcast to X; the optional
// Mean and InvStdDev outputs keep the normalized axes with size 1.
Error layerNorm(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "LayerNormalization"));
  int64_t rank = im.typeOf(x).rank();
  CC_ASSIGN(axis, normalizeAxis(im.attrInt("axis", -1), rank));
  std::vector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  CC_ASSIGN(n, normalize(im, x, axes, im.attrFloat("epsilon", 1e-5)));
  Ops o{im};
  CC_ASSIGN(scale, im.in(1));
  CC_ASSIGN(y, o.bin(OpId::Mul, n.y, scale));
  if (im.hasInput(2)) {
    CC_ASSIGN(b, im.in(2));
    CC_ASSIGN(r, o.bin(OpId::Add, y, b));
    y = r;
  }
  CC_TRY(im.define(0, y));
  CC_TRY(im.define(1, n.mean));
  return im.define(2, n.invStd);
}

// (x - mean) / (sqrt(var) + 1e-9) over `axes` (default N, H, W), with the
// variance as E(x^2) - E(x)^2, as ONNX's function body computes it.
Error meanVarianceNorm(I &im) {
  CC_ASSIGN(x, im.in(0));
  CC_TRY(requireFloat(im, x, "MeanVarianceNormalization"));
  int64_t rank = im.typeOf(x).rank();
  std::vector<int64_t> axes =
      im.attrInts("axes").value_or(std::vector<int64_t>{0, 2, 3});
  for (int64_t &a : axes) {
    CC_ASSIGN(n, normalizeAxis(a, rank));
    a = n;
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  Ops o{im};
  CC_ASSIGN(mean, o.mean(x, axes));
  CC_ASSIGN(x2, o.bin(OpId::Mul, x, x));
  CC_ASSIGN(meanX2, o.mean(x2, axes));
  CC_ASSIGN(mean2, o.bin(OpId::Mul, mean, mean));
  CC_ASSIGN(var, o.bin(OpId::Sub, meanX2, mean2));
  CC_ASSIGN(sd, o.sqrt(var));
  CC_ASSIGN(sde, o.addK(sd, 1e-9));
  CC_ASSIGN(d, o.bin(OpId::Sub, x, mean));
  CC_ASSIGN(y, o.div(d, sde));
  return im.define(0, y);
}

} // namespace

void addNnHandlers(OpHandlers &h) {
  h["Div"] = div;
  h["Sqrt"] = sqrtOp;
  h["LeakyRelu"] = activation("LeakyRelu", leakyRelu);
  h["Elu"] = activation("Elu", elu);
  h["Selu"] = activation("Selu", selu);
  h["Celu"] = activation("Celu", celu);
  h["Softplus"] = activation("Softplus", softplus);
  h["Softsign"] = activation("Softsign", softsign);
  h["HardSigmoid"] = activation("HardSigmoid", hardSigmoid);
  h["HardSwish"] = activation("HardSwish", hardSwish);
  h["ThresholdedRelu"] = activation("ThresholdedRelu", thresholdedRelu);
  h["Shrink"] = activation("Shrink", shrink);
  h["Gelu"] = activation("Gelu", gelu);
  h["PRelu"] = prelu;
  h["Softmax"] = softmax(false);
  h["LogSoftmax"] = softmax(true);
  h["Hardmax"] = hardmax;
  h["ReduceMean"] = reduction(Reduction::Mean);
  h["ReduceL1"] = reduction(Reduction::L1);
  h["ReduceL2"] = reduction(Reduction::L2);
  h["ReduceSumSquare"] = reduction(Reduction::SumSquare);
  h["ReduceLogSum"] = reduction(Reduction::LogSum);
  h["ReduceLogSumExp"] = reduction(Reduction::LogSumExp);
  h["Mean"] = meanOp;
  h["LRN"] = lrn;
  h["BatchNormalization"] = batchNorm;
  h["InstanceNormalization"] = instanceNorm;
  h["LayerNormalization"] = layerNorm;
  h["MeanVarianceNormalization"] = meanVarianceNorm;
}

} // namespace cc::onnx
