// Topology families: the structures real models are made of, built from the
// builder's placements (so each node is still checked by its type rule).
#include "generators/Builder.h"

namespace cc::gen {

namespace {

// The enabled ops among `names`, drawn uniformly; nullptr if none.
const OpDef *pickOp(Builder &b, std::initializer_list<OpId> ids) {
  std::vector<const OpDef *> ok;
  for (OpId id : ids)
    if (const OpDef *op = b.enabled(id))
      ok.push_back(op);
  return ok.empty() ? nullptr : b.random().pick(ok);
}

// Elementwise merges of two values of one type.
const std::initializer_list<OpId> kMerges = {OpId::Add, OpId::Sub, OpId::Mul,
                                             OpId::Maximum, OpId::Minimum};
const std::initializer_list<OpId> kActivations = {OpId::Clamp, OpId::Sigmoid,
                                                  OpId::Tanh, OpId::Erf};

// An existing value of rank `rank` and a dtype in `dtypes`, or a fresh input
// of that shape; -1 when the knobs allow neither.
ValueId source(Builder &b, std::initializer_list<DType> dtypes,
               const Shape &fresh) {
  std::vector<DType> ok;
  for (DType d : dtypes)
    if (b.allowsDType(d))
      ok.push_back(d);
  if (ok.empty())
    return -1;
  if (b.random().chance(kReuseChance)) {
    ValueId v = b.pickValue([&](const TensorType &t, ValueId) {
      return t.rank() == int64_t(fresh.size()) &&
             std::find(ok.begin(), ok.end(), t.dtype) != ok.end();
    });
    if (v >= 0)
      return v;
  }
  auto l = b.leaf({b.random().pick(ok), fresh});
  return l ? *l : -1;
}

// Merges two values with an elementwise op (broadcasting) or a concat.
std::optional<ValueId> merge(Builder &b, ValueId x, ValueId y) {
  for (int attempt = 0; attempt < kMergeAttempts; ++attempt) {
    const OpDef *op = b.random().chance(kConcatMergeChance)
                          ? b.enabled(OpId::Concat)
                          : pickOp(b, kMerges);
    if (!op)
      continue;
    if (auto v = b.placeOn(*op, {x, y}))
      return v;
  }
  return std::nullopt;
}

ValueId current(Builder &b) {
  return b.pickValue([](const TensorType &, ValueId) { return true; });
}

} // namespace

void chainBlock(Builder &b) {
  ValueId cur = current(b);
  for (int64_t i = 0, n = b.random().uniformInt(2, 5); i < n && b.room(); ++i)
    if (auto v = b.randomStep(cur))
      cur = *v;
}

void residualBlock(Builder &b) {
  ValueId start = current(b);
  if (start < 0)
    return;
  ValueId cur = start;
  for (int64_t i = 0, n = b.random().uniformInt(1, 3); i < n && b.room(); ++i)
    if (auto v = b.randomStep(cur, /*sameType=*/true))
      cur = *v;
  if (cur != start && b.room())
    merge(b, cur, start); // the skip connection
}

void branchBlock(Builder &b) {
  ValueId root = current(b);
  if (root < 0)
    return;
  std::vector<ValueId> ends;
  for (int64_t k = 0, n = b.random().uniformInt(2, 3); k < n && b.room(); ++k) {
    ValueId cur = root;
    for (int64_t i = 0, len = b.random().uniformInt(1, 2); i < len && b.room();
         ++i)
      if (auto v = b.randomStep(cur, /*sameType=*/true))
        cur = *v;
    if (cur != root)
      ends.push_back(cur);
  }
  while (ends.size() > 1 && b.room()) {
    auto m = merge(b, ends[ends.size() - 2], ends.back());
    if (!m)
      break; // unmerged branches stay outputs: a multi-output graph
    ends.pop_back();
    ends.back() = *m;
  }
}

// softmax(q . k^T) . v, with softmax from primitives.
void attentionBlock(Builder &b) {
  const OpDef *mm = b.enabled(OpId::MatMul), *tr = b.enabled(OpId::Transpose),
              *rmax = b.enabled(OpId::ReduceMax), *sub = b.enabled(OpId::Sub),
              *exp = b.enabled(OpId::Exp), *rsum = b.enabled(OpId::ReduceSum),
              *rcp = b.enabled(OpId::Reciprocal), *mul = b.enabled(OpId::Mul);
  if (!mm || !tr || !rmax || !sub || !exp || !rsum || !rcp || !mul)
    return;
  Rng &r = b.random();
  ValueId q =
      source(b, {DType::f32, DType::f16, DType::bf16},
             {r.uniformInt(1, 2), r.uniformInt(2, 6), r.uniformInt(2, 8)});
  if (q < 0)
    return;
  TensorType qt = b.graph().typeOf(q);
  auto k = b.leaf(qt);
  if (!k)
    return;
  Attrs perm;
  perm.set("perms", std::vector<int64_t>{0, 2, 1});
  auto kt = b.placeOn(*tr, {*k}, perm);
  auto s = kt ? b.placeOn(*mm, {q, *kt}) : std::nullopt;
  if (!s)
    return;
  Attrs axis;
  axis.set("axis", int64_t(2));
  auto mx = b.room() ? b.placeOn(*rmax, {*s}, axis) : std::nullopt;
  auto sh = mx && b.room() ? b.placeOn(*sub, {*s, *mx}) : std::nullopt;
  auto e = sh && b.room() ? b.placeOn(*exp, {*sh}) : std::nullopt;
  auto sum = e && b.room() ? b.placeOn(*rsum, {*e}, axis) : std::nullopt;
  auto inv = sum && b.room() ? b.placeOn(*rcp, {*sum}) : std::nullopt;
  auto p = inv && b.room() ? b.placeOn(*mul, {*e, *inv}) : std::nullopt;
  if (!p || !b.room())
    return;
  TensorType pt = b.graph().typeOf(*p);
  if (auto v = b.leaf({pt.dtype, {pt.shape[0], pt.shape[2], qt.shape[2]}}))
    b.placeOn(*mm, {*p, *v});
}

// conv -> activation -> pooling, repeated; quantized (i8) stacks requantize
// the i32 accumulators with rescale.
void convStackBlock(Builder &b) {
  Rng &r = b.random();
  ValueId cur =
      source(b, {DType::f32, DType::f16, DType::bf16, DType::i8},
             {1, r.uniformInt(3, 8), r.uniformInt(3, 8), r.uniformInt(1, 3)});
  for (int64_t i = 0, n = r.uniformInt(1, 2); i < n && cur >= 0 && b.room();
       ++i) {
    const OpDef *conv =
        pickOp(b, {OpId::Conv2d, OpId::DepthwiseConv2d, OpId::TransposeConv2d});
    auto c = conv ? b.step(*conv, cur) : std::nullopt;
    if (!c)
      return;
    cur = *c;
    if (b.graph().typeOf(cur).dtype == DType::i32 && b.enabled(OpId::Rescale) &&
        b.room())
      if (auto q = b.step(*b.enabled(OpId::Rescale), cur))
        cur = *q;
    if (const OpDef *act = pickOp(b, kActivations); act && b.room())
      if (auto a = b.step(*act, cur, /*sameType=*/true))
        cur = *a;
    if (const OpDef *pool = pickOp(b, {OpId::MaxPool2d, OpId::AvgPool2d});
        pool && b.room() && r.chance(kPoolChance))
      if (auto p = b.step(*pool, cur))
        cur = *p;
  }
}

// Dense layers: x [1,B,K] . w [1,K,H] + bias [1,1,H], then an activation.
void mlpBlock(Builder &b) {
  const OpDef *mm = b.enabled(OpId::MatMul), *add = b.enabled(OpId::Add);
  if (!mm)
    return;
  Rng &r = b.random();
  ValueId cur = source(b, {DType::f32, DType::f16, DType::bf16, DType::i8},
                       {1, r.uniformInt(1, 4), r.uniformInt(2, 12)});
  for (int64_t i = 0, n = r.uniformInt(1, 3); i < n && cur >= 0 && b.room();
       ++i) {
    TensorType x = b.graph().typeOf(cur);
    auto w = b.leaf({x.dtype, {x.shape[0], x.shape[2], r.uniformInt(2, 12)}});
    auto h = w ? b.placeOn(*mm, {cur, *w}) : std::nullopt;
    if (!h)
      return;
    cur = *h;
    TensorType ht = b.graph().typeOf(cur);
    if (add && b.room())
      if (auto bias = b.leaf({ht.dtype, {1, 1, ht.shape[2]}}))
        if (auto y = b.placeOn(*add, {cur, *bias}))
          cur = *y;
    if (const OpDef *act = pickOp(b, kActivations); act && b.room())
      if (auto a = b.step(*act, cur, /*sameType=*/true))
        cur = *a;
  }
}

} // namespace cc::gen
