#include "core/ops/Indexing.h"
#include "core/Limits.h"

#include <algorithm>

namespace cc {

int64_t flatIndex(const std::vector<int64_t> &strides,
                  const std::vector<int64_t> &idx) {
  int64_t f = 0;
  for (size_t i = 0; i < idx.size(); ++i)
    f += strides[i] * idx[i];
  return f;
}

Error undefinedError(const std::string &why) {
  return Error::failure(why, ErrorCode::Undefined);
}

Error unsupported(const std::string &why) {
  return Error::failure(why, ErrorCode::Unsupported);
}

std::string listStr(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

Error checkAxis(int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return makeError("axis " + std::to_string(axis) +
                     " is out of range for rank " + std::to_string(rank));
  return Error();
}

Error checkRank(const TensorType &t, int64_t rank, const char *what) {
  if (t.rank() != rank)
    return makeError(std::string(what) + " must have rank " +
                     std::to_string(rank) + ", got " + t.str());
  return Error();
}

void NanFold::add(double v) {
  if (nan)
    return;
  if (std::isnan(v)) {
    if (!ignore) {
      nan = seen = true;
      acc = v;
    }
    return;
  }
  // acc = apply_max_s(acc, v) = (acc >= v ? acc : v), and apply_min_s(acc,
  // v) = (acc < v ? acc : v): of two equal values (-0 and +0) max keeps the
  // accumulator and min takes the new value.
  if (!seen || (isMax ? !(acc >= v) : !(acc < v)))
    acc = v;
  seen = true;
}

Expected<int64_t> applyScale(int64_t value, int64_t mult, int64_t shift,
                             bool scale32, bool doubleRound) {
  if (mult < 0)
    return undefinedError("rescale multiplier " + std::to_string(mult) +
                          " is negative");
  if (shift < 2 || shift > 62)
    return undefinedError("rescale shift " + std::to_string(shift) +
                          " is outside [2, 62]");
  if (scale32 && (value < -(int64_t(1) << (shift - 1)) ||
                  value >= (int64_t(1) << (shift - 1))))
    return undefinedError("rescale value " + std::to_string(value) +
                          " is outside the range allowed by shift " +
                          std::to_string(shift));
  int64_t round = int64_t(1) << (shift - 1);
  if (doubleRound && shift > 31)
    round += value >= 0 ? (int64_t(1) << 30) : -(int64_t(1) << 30);
  // |value| < 2^48 and |mult| < 2^31: the product fits in 128 bits only,
  // so compute it in __int128 before the shift.
  __int128 r = (__int128(value) * mult + round) >> shift;
  if (r < intMin(DType::i32) || r > intMax(DType::i32))
    return undefinedError("rescale result exceeds the i32 range");
  return int64_t(r);
}

Expected<int64_t> windowExtent(int64_t in, int64_t padLo, int64_t padHi,
                               int64_t kernel, int64_t stride, int64_t dilation,
                               const std::string &dim) {
  int64_t span = in - 1 + padLo + padHi - (kernel - 1) * dilation;
  if (span < 0)
    return makeError("output " + dim + " is non-positive: input " +
                     std::to_string(in) + " with padding " +
                     std::to_string(padLo) + "+" + std::to_string(padHi) +
                     " is smaller than the kernel extent " +
                     std::to_string((kernel - 1) * dilation + 1));
  if (span % stride != 0)
    return makeError("output " + dim +
                     ": (input - 1 + padding - (kernel - 1) * "
                     "dilation) = " +
                     std::to_string(span) + " is not divisible by stride " +
                     std::to_string(stride) +
                     " (TOSA requires exact division)");
  return span / stride + 1;
}

Error checkIntsAttr(const std::vector<int64_t> &v, size_t n, int64_t min,
                    const char *name) {
  if (v.size() != n)
    return makeError(std::string(name) + " must have " + std::to_string(n) +
                     " values, got " + listStr(v));
  // No sensible size, pad or stride is larger than a tensor: the bound
  // keeps the shape arithmetic of every type rule far from overflow.
  for (int64_t x : v)
    if (x < std::max(min, -kMaxTensorElements) || x > kMaxTensorElements)
      return makeError(std::string(name) + " values must be in [" +
                       std::to_string(std::max(min, -kMaxTensorElements)) +
                       ", " + std::to_string(kMaxTensorElements) + "], got " +
                       listStr(v));
  return Error();
}

std::string denseArray(const char *elem, const std::vector<int64_t> &v) {
  std::string s = std::string("array<") + elem;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : ": ") + std::to_string(v[i]);
  return s + ">";
}

std::string shapeType(size_t n) {
  return "!tosa.shape<" + std::to_string(n) + ">";
}

std::string shapeConst(EmitContext &ctx, const std::vector<int64_t> &v) {
  std::string n = ctx.fresh();
  std::string elems;
  for (size_t i = 0; i < v.size(); ++i)
    elems += (i ? ", " : "") + std::to_string(v[i]);
  ctx.line(n + " = \"tosa.const_shape\"() <{values = dense<" +
           (v.empty() ? "" : "[" + elems + "]") + "> : tensor<" +
           std::to_string(v.size()) + "xindex>}> : () -> " +
           shapeType(v.size()));
  return n;
}

std::string scalarType(DType t) { return TensorType{t, {1}}.mlir(); }

std::string scalarConst(EmitContext &ctx, DType t, double v) {
  return ctx.constant(Tensor::splat(TensorType{t, {1}}, v));
}

void emitTosa(EmitContext &ctx, const Node &node, const std::string &op,
              const std::vector<std::pair<std::string, std::string>> &extra,
              const std::string &props) {
  std::string args, types;
  auto addArg = [&](const std::string &n, const std::string &t) {
    args += (args.empty() ? "" : ", ") + n;
    types += (types.empty() ? "" : ", ") + t;
  };
  for (ValueId v : node.operands)
    addArg(ctx.name(v), ctx.type(v));
  for (const auto &[n, t] : extra)
    addArg(n, t);
  ValueId r = node.results.at(0);
  ctx.line(ctx.name(r) + " = \"tosa." + op + "\"(" + args + ")" +
           (props.empty() ? "" : " <{" + props + "}>") + " : (" + types +
           ") -> " + ctx.type(r));
}

Expected<std::string> nanModeSuffix(const EmitContext &ctx, const Node &node) {
  CC_ASSIGN(attr, nanModeAttr(ctx, node));
  return attr.empty() ? attr : ", " + attr;
}

} // namespace cc
