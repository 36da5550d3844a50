// reshape transpose slice concat pad tile reverse gather (TOSA 1.0).
#include "core/Limits.h"
#include "core/ops/Families.h"
#include "core/ops/Indexing.h"

#include <cstring>

namespace cc {

namespace {

using Types = std::vector<TensorType>;
using Result = Expected<std::vector<TensorType>>;

const std::vector<DType> kAll = {DType::f32, DType::f16, DType::bf16, DType::i8,
                                 DType::i16, DType::i32, DType::i1};

// Builds the result by mapping every output index to a source element:
// src(outIndex, inIndex) fills inIndex and returns the operand to read, or
// -1 for the pad value (written by `pad`).
template <typename Src, typename Pad>
std::vector<Tensor> remap(const EvalArgs &a, Src src, Pad pad) {
  Tensor out = a.makeResult();
  size_t bytes = byteSize(out.dtype());
  std::vector<std::vector<int64_t>> strides;
  for (const Tensor *t : a.operands)
    strides.push_back(rowMajorStrides(t->shape()));
  std::vector<int64_t> inIdx;
  int64_t o = 0;
  forEachIndex(out.shape(), [&](const std::vector<int64_t> &outIdx) {
    inIdx.assign(outIdx.size(), 0);
    int k = src(outIdx, inIdx);
    if (k < 0)
      pad(out, o);
    else
      std::memcpy(out.data() + o * bytes,
                  a.in(size_t(k)).data() +
                      flatIndex(strides[size_t(k)], inIdx) * bytes,
                  bytes);
    ++o;
  });
  return {std::move(out)};
}

auto noPad = [](Tensor &, int64_t) {};

Error needRank1(const TensorType &t) {
  return t.rank() < 1 ? makeError("input must have rank >= 1, got " + t.str())
                      : Error();
}

Error emitPlain(EmitContext &ctx, const Node &node, const std::string &op,
                const std::string &props) {
  emitTosa(ctx, node, op, {}, props);
  return Error();
}

std::string axisProp(const Node &node) {
  return "axis = " + std::to_string(node.attrs.getInt("axis")) + " : i32";
}

// Emits an op whose int-list attribute became a !tosa.shape operand in
// MLIR 20+ and was an i64 array property before.
Error emitShapeOperands(EmitContext &ctx, const Node &node,
                        const std::string &op,
                        const std::vector<std::string> &attrNames,
                        const std::vector<std::string> &oldNames) {
  if (ctx.syntaxVersion < 20) {
    std::string props;
    for (size_t i = 0; i < attrNames.size(); ++i)
      props += (i ? ", " : "") + oldNames[i] + " = " +
               denseArray("i64", node.attrs.getInts(attrNames[i]));
    return emitPlain(ctx, node, op, props);
  }
  std::vector<std::pair<std::string, std::string>> extra;
  for (const std::string &n : attrNames) {
    const auto &v = node.attrs.getInts(n);
    extra.push_back({shapeConst(ctx, v), shapeType(v.size())});
  }
  emitTosa(ctx, node, op, extra, "");
  return Error();
}

std::vector<int64_t> randomPermutation(Rng &rng, int64_t n) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    p[size_t(i)] = i;
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(p[size_t(i)], p[size_t(rng.uniformInt(0, i))]);
  return p;
}

// A random shape with `count` elements: its prime factors spread over 1-4
// dimensions.
std::vector<int64_t> randomShape(Rng &rng, int64_t count) {
  std::vector<int64_t> s(static_cast<size_t>(rng.uniformInt(1, 4)), 1);
  for (int64_t f = 2, n = count; n > 1; f = f * f > n ? n : f) {
    if (n % f) {
      ++f;
      continue;
    }
    s[size_t(rng.uniformInt(0, int64_t(s.size()) - 1))] *= f;
    n /= f;
  }
  return s;
}

// --- type rules ------------------------------------------------------------

Result inferReshape(const Types &ops, const Attrs &at) {
  const auto &shape = at.getInts("shape");
  for (int64_t d : shape)
    if (d < 1)
      return makeError("shape " + listStr(shape) +
                       " has a non-positive dimension");
  if (auto n = checkedNumElements(shape); !n)
    return n.error().withContext("reshape to " + listStr(shape));
  if (numElements(shape) != ops[0].numElements())
    return makeError("reshape element count mismatch: " + ops[0].str() +
                     " has " + std::to_string(ops[0].numElements()) +
                     " elements, shape " + listStr(shape) + " has " +
                     std::to_string(numElements(shape)));
  return oneType({ops[0].dtype, shape});
}

Result inferTranspose(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  const auto &perms = at.getInts("perms");
  std::vector<bool> seen(size_t(ops[0].rank()), false);
  bool ok = int64_t(perms.size()) == ops[0].rank();
  for (int64_t p : perms) {
    ok = ok && p >= 0 && p < ops[0].rank() && !seen[size_t(p)];
    if (ok)
      seen[size_t(p)] = true;
  }
  if (!ok)
    return makeError("perms " + listStr(perms) +
                     " is not a permutation of rank " +
                     std::to_string(ops[0].rank()));
  TensorType t{ops[0].dtype, {}};
  for (int64_t p : perms)
    t.shape.push_back(ops[0].shape[size_t(p)]);
  return oneType(t);
}

Result inferSlice(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  const auto &start = at.getInts("start");
  const auto &size = at.getInts("size");
  size_t r = size_t(ops[0].rank());
  if (start.size() != r || size.size() != r)
    return makeError("start " + listStr(start) + " and size " + listStr(size) +
                     " must have one value per dimension of " + ops[0].str());
  for (size_t d = 0; d < r; ++d)
    // Written so that no start or size, however large, overflows.
    if (start[d] < 0 || size[d] < 1 || start[d] > ops[0].shape[d] - size[d])
      return makeError("slice out of bounds in dimension " + std::to_string(d) +
                       ": start " + listStr(start) + ", size " + listStr(size) +
                       " on " + ops[0].str());
  return oneType({ops[0].dtype, size});
}

Result inferConcat(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  int64_t axis = at.getInt("axis");
  CC_TRY(checkAxis(axis, ops[0].rank()));
  TensorType t = ops[0];
  for (size_t k = 1; k < ops.size(); ++k) {
    bool ok = ops[k].dtype == t.dtype && ops[k].rank() == t.rank();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = d == axis || ops[k].shape[size_t(d)] == t.shape[size_t(d)];
    if (!ok)
      return makeError("concat operand " + std::to_string(k) + " " +
                       ops[k].str() + " does not match " + ops[0].str() +
                       " outside axis " + std::to_string(axis));
    t.shape[size_t(axis)] += ops[k].shape[size_t(axis)];
  }
  return oneType(t);
}

Result inferPad(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  const auto &padding = at.getInts("padding");
  CC_TRY(checkIntsAttr(padding, size_t(2 * ops[0].rank()), 0, "padding"));
  double c = at.getFloat("pad_const");
  DType dt = ops[0].dtype;
  if (isInt(dt) &&
      (c != std::floor(c) || c < double(intMin(dt)) || c > double(intMax(dt))))
    return makeError("pad_const " + std::to_string(c) + " is not a value of " +
                     std::string(dtypeName(dt)));
  TensorType t = ops[0];
  for (size_t d = 0; d < t.shape.size(); ++d)
    t.shape[d] += padding[2 * d] + padding[2 * d + 1];
  return oneType(t);
}

Result inferTile(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  const auto &m = at.getInts("multiples");
  CC_TRY(checkIntsAttr(m, size_t(ops[0].rank()), 1, "multiples"));
  TensorType t = ops[0];
  for (size_t d = 0; d < t.shape.size(); ++d)
    t.shape[d] *= m[d];
  return oneType(t);
}

Result inferReverse(const Types &ops, const Attrs &at) {
  CC_TRY(needRank1(ops[0]));
  CC_TRY(checkAxis(at.getInt("axis"), ops[0].rank()));
  return oneType(ops[0]);
}

Result inferGather(const Types &ops, const Attrs &) {
  CC_TRY(checkRank(ops[0], 3, "values"));
  CC_TRY(checkRank(ops[1], 2, "indices"));
  if (ops[1].dtype != DType::i32)
    return makeError("indices must be i32, got " + ops[1].str());
  if (ops[1].shape[0] != ops[0].shape[0])
    return makeError("batch of indices " + ops[1].str() +
                     " does not match values " + ops[0].str());
  return oneType(
      {ops[0].dtype, {ops[0].shape[0], ops[1].shape[1], ops[0].shape[2]}});
}

// --- reference semantics -----------------------------------------------------

using Out = Expected<std::vector<Tensor>>;
using Idx = std::vector<int64_t>;

Out evalTranspose(const EvalArgs &a) {
  const auto &perms = a.attrs().getInts("perms");
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        for (size_t d = 0; d < o.size(); ++d)
          i[size_t(perms[d])] = o[d];
        return 0;
      },
      noPad);
}

Out evalSlice(const EvalArgs &a) {
  const auto &start = a.attrs().getInts("start");
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        for (size_t d = 0; d < o.size(); ++d)
          i[d] = o[d] + start[d];
        return 0;
      },
      noPad);
}

Out evalConcat(const EvalArgs &a) {
  size_t axis = size_t(a.attrs().getInt("axis"));
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        i = o;
        int k = 0;
        while (i[axis] >= a.in(size_t(k)).shape()[axis])
          i[axis] -= a.in(size_t(k++)).shape()[axis];
        return k;
      },
      noPad);
}

Out evalPad(const EvalArgs &a) {
  const auto &padding = a.attrs().getInts("padding");
  // The pad value as the declared dtype holds it.
  double c = roundToFloat(
      isFloat(a.resultTypes[0].dtype) ? a.resultTypes[0].dtype : DType::f64,
      a.attrs().getFloat("pad_const"));
  const Shape &in = a.in(0).shape();
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        for (size_t d = 0; d < o.size(); ++d) {
          i[d] = o[d] - padding[2 * d];
          if (i[d] < 0 || i[d] >= in[d])
            return -1;
        }
        return 0;
      },
      [&](Tensor &out, int64_t at) {
        isFloat(out.dtype()) ? out.setF(at, c) : out.setI(at, int64_t(c));
      });
}

Out evalTile(const EvalArgs &a) {
  const Shape &in = a.in(0).shape();
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        for (size_t d = 0; d < o.size(); ++d)
          i[d] = o[d] % in[d];
        return 0;
      },
      noPad);
}

Out evalReverse(const EvalArgs &a) {
  size_t axis = size_t(a.attrs().getInt("axis"));
  int64_t n = a.in(0).shape()[axis];
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        i = o;
        i[axis] = n - 1 - o[axis];
        return 0;
      },
      noPad);
}

Out evalGather(const EvalArgs &a) {
  const Tensor &idx = a.in(1);
  int64_t k = a.in(0).shape()[1], w = idx.shape()[1];
  for (int64_t j = 0; j < idx.size(); ++j)
    if (idx.getI(j) < 0 || idx.getI(j) >= k)
      return undefinedError("gather index " + std::to_string(idx.getI(j)) +
                            " is outside [0, " + std::to_string(k) + ")");
  return remap(
      a,
      [&](const Idx &o, Idx &i) {
        i = {o[0], idx.getI(o[0] * w + o[1]), o[2]};
        return 0;
      },
      noPad);
}

} // namespace

void addDataMovementOps(std::vector<OpDef> &ops) {
  auto add = [&](OpId id, const char *summary, std::vector<DType> dtypes,
                 std::vector<AttrSpec> attrs) -> OpDef & {
    OpDef d;
    d.id = id;
    d.summary = summary;
    d.dtypes = std::move(dtypes);
    d.attrs = std::move(attrs);
    d.rounding = Rounding::fixed(0); // moves values, never rounds
    d.range = hullRange();           // values are moved, never changed
    d.intExtremes = IntExtremes::AllOperands;
    d.magnitude = Magnitude::OfOperands;
    d.keepsQuantScale = true;
    ops.push_back(std::move(d));
    return ops.back();
  };
  auto axisAttr = AttrSpec{"axis", AttrKind::Int, std::nullopt, "axis"};
  auto sampleAxis = [](Rng &rng, const Types &ops) {
    Attrs at;
    at.set("axis", rng.uniformInt(0, std::max<int64_t>(0, ops[0].rank() - 1)));
    return at;
  };

  OpDef &reshape =
      add(OpId::Reshape, "same elements, new shape", kAll,
          {{"shape", AttrKind::Ints, std::nullopt, "result shape"}});
  reshape.infer = inferReshape;
  reshape.eval = [](const EvalArgs &a) -> Out {
    return std::vector<Tensor>{a.in(0).reshaped(a.resultTypes[0].shape)};
  };
  reshape.emit = [](EmitContext &ctx, const Node &node) {
    return emitShapeOperands(ctx, node, "reshape", {"shape"}, {"new_shape"});
  };
  reshape.sampleAttrs = [](Rng &rng, const Types &ops) {
    Attrs at;
    at.set("shape", randomShape(rng, ops[0].numElements()));
    return at;
  };

  OpDef &transpose =
      add(OpId::Transpose,
          "permutes dimensions: out.shape[i] = "
          "in.shape[perms[i]]",
          kAll, {{"perms", AttrKind::Ints, std::nullopt, "permutation"}});
  transpose.infer = inferTranspose;
  transpose.eval = evalTranspose;
  transpose.emit = [](EmitContext &ctx, const Node &node) -> Error {
    const auto &perms = node.attrs.getInts("perms");
    if (ctx.syntaxVersion >= 20)
      return emitPlain(ctx, node, "transpose",
                       "perms = " + denseArray("i32", perms));
    Tensor p(DType::i32, {int64_t(perms.size())});
    for (size_t i = 0; i < perms.size(); ++i)
      p.setI(int64_t(i), perms[i]);
    emitTosa(ctx, node, "transpose", {{ctx.constant(p), p.type().mlir()}}, "");
    return Error();
  };
  transpose.sampleAttrs = [](Rng &rng, const Types &ops) {
    Attrs at;
    at.set("perms", randomPermutation(rng, ops[0].rank()));
    return at;
  };

  OpDef &slice = add(OpId::Slice, "a static window [start, start + size)", kAll,
                     {{"start", AttrKind::Ints, std::nullopt, "first index"},
                      {"size", AttrKind::Ints, std::nullopt, "extent"}});
  slice.infer = inferSlice;
  slice.eval = evalSlice;
  slice.emit = [](EmitContext &ctx, const Node &node) {
    return emitShapeOperands(ctx, node, "slice", {"start", "size"},
                             {"start", "size"});
  };
  slice.sampleAttrs = [](Rng &rng, const Types &ops) {
    std::vector<int64_t> start, size;
    for (int64_t d : ops[0].shape) {
      start.push_back(rng.uniformInt(0, d - 1));
      size.push_back(rng.uniformInt(1, d - start.back()));
    }
    Attrs at;
    at.set("start", start);
    at.set("size", size);
    return at;
  };

  OpDef &concat =
      add(OpId::Concat, "joins operands along an axis", kAll, {axisAttr});
  concat.maxOperands = -1;
  concat.operandDoc = "x1, x2, ...";
  concat.example = [](DType d) {
    return std::vector<TensorType>{{d, {2, 3}}, {d, {1, 3}}};
  };
  concat.keepsQuantScale = false; // the operands' scales differ
  concat.infer = inferConcat;
  concat.eval = evalConcat;
  concat.emit = [](EmitContext &ctx, const Node &node) {
    return emitPlain(ctx, node, "concat", axisProp(node));
  };
  concat.sampleAttrs = [](Rng &rng, const Types &ops) {
    // An axis outside which all operands agree.
    std::vector<int64_t> axes;
    for (int64_t ax = 0; ax < ops[0].rank(); ++ax) {
      Attrs at;
      at.set("axis", ax);
      if (inferConcat(ops, at))
        axes.push_back(ax);
    }
    Attrs at;
    at.set("axis", axes.empty() ? int64_t(0) : rng.pick(axes));
    return at;
  };

  concat.sampleOperands = [](Rng &rng, DType d, const Shape &hint) {
    // Two or three operands that differ only along one axis.
    OperandSample s;
    size_t axis =
        hint.empty() ? 0 : size_t(rng.uniformInt(0, int64_t(hint.size()) - 1));
    for (int64_t i = 0, n = rng.uniformInt(2, 3); i < n; ++i) {
      Shape shape = hint;
      if (i > 0 && !shape.empty() && rng.chance(0.5))
        shape[axis] = rng.uniformInt(1, 4);
      s.types.push_back({d, std::move(shape)});
    }
    return std::optional<OperandSample>(std::move(s));
  };

  OpDef &pad =
      add(OpId::Pad, "pads with pad_const (integer value for ints)", kAll,
          {{"padding", AttrKind::Ints, std::nullopt, "[lo0,hi0,lo1,hi1,...]"},
           {"pad_const", AttrKind::Float, 0.0, "pad value"}});
  pad.infer = inferPad;
  pad.keepsQuantScale = false; // pad_const is a new value
  pad.range = [](const std::vector<Interval> &x,
                 const std::vector<TensorType> &t, const Attrs &at) {
    double c = at.getFloat("pad_const");
    double r = isFloat(t[0].dtype) ? roundToFloat(t[0].dtype, c) : c;
    return hull(x[0], {std::min(c, r), std::max(c, r), false});
  };
  pad.eval = evalPad;
  pad.emit = [](EmitContext &ctx, const Node &node) -> Error {
    DType dt = ctx.graph().typeOf(node.operands[0]).dtype;
    double c = node.attrs.getFloat("pad_const");
    const auto &padding = node.attrs.getInts("padding");
    if (ctx.syntaxVersion >= 20) {
      std::string p = shapeConst(ctx, padding);
      std::string v = scalarConst(ctx, dt, c);
      emitTosa(ctx, node, "pad",
               {{p, shapeType(padding.size())}, {v, scalarType(dt)}}, "");
      return Error();
    }
    Tensor p(DType::i64, {int64_t(padding.size() / 2), 2});
    for (size_t i = 0; i < padding.size(); ++i)
      p.setI(int64_t(i), padding[i]);
    Tensor v = Tensor::splat(TensorType{dt, {}}, c);
    std::string pn = ctx.constant(p), vn = ctx.constant(v);
    emitTosa(ctx, node, "pad", {{pn, p.type().mlir()}, {vn, v.type().mlir()}},
             "");
    return Error();
  };
  pad.sampleAttrs = [](Rng &rng, const Types &ops) {
    std::vector<int64_t> padding;
    for (int64_t d = 0; d < 2 * ops[0].rank(); ++d)
      padding.push_back(rng.uniformInt(0, 2));
    DType dt = ops[0].dtype;
    Attrs at;
    at.set("padding", padding);
    at.set("pad_const", isBool(dt) ? double(rng.uniformInt(0, 1))
                        : isInt(dt)
                            ? double(rng.uniformInt(intMin(dt), intMax(dt)))
                            : rng.uniform(-2, 2));
    return at;
  };

  OpDef &tile =
      add(OpId::Tile, "repeats the input multiples[d] times per dimension",
          kAll, {{"multiples", AttrKind::Ints, std::nullopt, "repeats"}});
  tile.infer = inferTile;
  tile.eval = evalTile;
  tile.emit = [](EmitContext &ctx, const Node &node) {
    return emitShapeOperands(ctx, node, "tile", {"multiples"}, {"multiples"});
  };
  tile.sampleAttrs = [](Rng &rng, const Types &ops) {
    std::vector<int64_t> m;
    for (int64_t d = 0; d < ops[0].rank(); ++d)
      m.push_back(rng.uniformInt(1, 3));
    Attrs at;
    at.set("multiples", m);
    return at;
  };

  OpDef &reverse =
      add(OpId::Reverse, "reverses the order along an axis", kAll, {axisAttr});
  reverse.infer = inferReverse;
  reverse.eval = evalReverse;
  reverse.emit = [](EmitContext &ctx, const Node &node) {
    return emitPlain(ctx, node, "reverse", axisProp(node));
  };
  reverse.sampleAttrs = sampleAxis;

  OpDef &gather = add(
      OpId::Gather, "out[n,w,c] = values[n, indices[n,w], c]",
      {DType::f32, DType::f16, DType::bf16, DType::i8, DType::i16, DType::i32},
      {});
  gather.minOperands = gather.maxOperands = 2;
  gather.operandDoc = "values [N,K,C], indices [N,W] (i32)";
  gather.notes = "result [N,W,C]; indices in [0,K)";
  gather.example = [](DType d) {
    return std::vector<TensorType>{{d, {2, 4, 3}}, {DType::i32, {2, 5}}};
  };
  gather.domains = {Domain::Any, Domain::Index};
  gather.intExtremes = IntExtremes::FirstOperand; // the values, not the indices
  gather.range = identityRange();                 // the values, not the indices
  gather.infer = inferGather;
  gather.sampleOperands = [](Rng &rng, DType d, const Shape &hint) {
    Shape values = hint;
    if (values.size() != 3)
      values = {rng.uniformInt(1, 2), rng.uniformInt(1, 6),
                rng.uniformInt(1, 4)};
    // Indices are leaves: the input generator keeps them in [0, K).
    return std::optional<OperandSample>(OperandSample{
        {{d, values}, {DType::i32, {values[0], rng.uniformInt(1, 6)}}}, 0b10});
  };
  gather.eval = evalGather;
  gather.emit = [](EmitContext &ctx, const Node &node) {
    return emitPlain(ctx, node, "gather", "");
  };
}

} // namespace cc
