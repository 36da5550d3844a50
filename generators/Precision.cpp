#include "generators/Precision.h"

#include "backends/ref/Interpreter.h"
#include "core/OpTable.h"
#include "core/Rng.h"
#include "generators/Inputs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace cc {

namespace {

// Assigns the value of an Expected to an existing variable or propagates
// its failure.
#define ASSIGN_TO(var, expr)                                                   \
  do {                                                                         \
    auto assignTo_ = (expr);                                                   \
    if (!assignTo_)                                                            \
      return assignTo_.error();                                                \
    var = *assignTo_;                                                          \
  } while (0)

const std::vector<std::pair<PrecisionKind, std::string_view>> kNames = {
    {PrecisionKind::F16, "f16"},
    {PrecisionKind::BF16, "bf16"},
    {PrecisionKind::Mixed, "mixed"},
    {PrecisionKind::Int8, "int8"},
    {PrecisionKind::Int16, "int16"}};

Attrs attrsWith(Attrs a, const std::string &name, AttrValue v) {
  a.set(name, std::move(v));
  return a;
}

// Rebuilding state shared by both kinds of variant: the new graph, the map
// from old to new values, and casts already made.
struct Rebuild {
  const Graph &src;
  Graph dst;
  std::vector<ValueId> map; // src value -> dst value (-1: none yet)
  std::map<std::pair<ValueId, DType>, ValueId> casts;
  Rng rng;

  Rebuild(const Graph &g, uint64_t seed)
      : src(g), map(g.values.size(), -1), rng(seed) {
    dst.name = g.name;
  }

  // v converted to float dtype `to`; f16 <-> bf16 goes through f32, the
  // only float casts TOSA allows.
  Expected<ValueId> toFloat(ValueId v, DType to) {
    DType from = dst.typeOf(v).dtype;
    if (from == to)
      return v;
    auto key = std::make_pair(v, to);
    if (auto it = casts.find(key); it != casts.end())
      return it->second;
    if (isFloat(from) && from != DType::f32 && to != DType::f32) {
      CC_ASSIGN(mid, toFloat(v, DType::f32));
      v = mid;
    }
    Attrs a;
    a.set("to", to);
    CC_ASSIGN(r, dst.add(OpId::Cast, {v}, a));
    casts[key] = r;
    return r;
  }

  // Drops nodes and values added after a checkpoint (a failed attempt).
  std::pair<size_t, size_t> checkpoint() const {
    return {dst.nodes.size(), dst.values.size()};
  }
  void rollback(std::pair<size_t, size_t> cp) {
    dst.nodes.resize(cp.first);
    dst.values.resize(cp.second);
    for (auto it = casts.begin(); it != casts.end();)
      it = size_t(it->second) >= cp.second ? casts.erase(it) : std::next(it);
  }
};

// --- float variants ---------------------------------------------------------

class FloatVariant : Rebuild {
public:
  FloatVariant(const Graph &g, PrecisionKind kind, uint64_t seed)
      : Rebuild(g, seed), kind(kind) {
    low = kind == PrecisionKind::F16    ? DType::f16
          : kind == PrecisionKind::BF16 ? DType::bf16
          : rng.chance(0.5)             ? DType::f16
                                        : DType::bf16;
  }

  Expected<Graph> build() {
    for (ValueId v : src.inputs) {
      TensorType t = src.typeOf(v);
      if (isFloat(t.dtype))
        t.dtype =
            kind == PrecisionKind::Mixed && rng.chance(0.4) ? DType::f32 : low;
      map[v] = dst.addInput(src.values[v].name, t);
    }
    for (const Node &n : src.nodes)
      CC_TRY(node(n).withContext("rebuilding " + std::string(opName(n.op))));
    for (ValueId v : src.outputs) {
      ValueId r = map[v];
      if (kind != PrecisionKind::Mixed && isFloat(dst.typeOf(r).dtype))
        ASSIGN_TO(r, toFloat(r, low));
      dst.addOutput(r);
    }
    return dst;
  }

private:
  PrecisionKind kind;
  DType low;

  // The dtype a node computes in.
  DType computeType(const Node &n) {
    if (kind != PrecisionKind::Mixed)
      return low;
    if (opDef(n.op).accumulates)
      return DType::f32;
    for (ValueId v : n.operands)
      if (DType t = dst.typeOf(map[v]).dtype; isFloat(t))
        return rng.chance(0.75) ? t : t == DType::f32 ? low : DType::f32;
    return rng.chance(0.5) ? low : DType::f32;
  }

  Error node(const Node &n) {
    DType t = computeType(n);
    if (n.op == OpId::Const) {
      const Tensor &value = n.attrs.getTensor("value");
      Attrs a = isFloat(value.dtype())
                    ? attrsWith(n.attrs, "value", value.convertTo(t))
                    : n.attrs;
      CC_ASSIGN(r, dst.add(OpId::Const, {}, a));
      map[n.results[0]] = r;
      return Error();
    }
    if (n.op == OpId::Cast && isFloat(n.attrs.getType("to"))) {
      ValueId x = map[n.operands[0]];
      if (dst.typeOf(x).dtype == t) { // both ends in one dtype now
        map[n.results[0]] = x;
        return Error();
      }
      if (isFloat(dst.typeOf(x).dtype)) {
        CC_ASSIGN(r, toFloat(x, t));
        map[n.results[0]] = r;
        return Error();
      }
      CC_ASSIGN(r, dst.add(OpId::Cast, {x}, attrsWith(n.attrs, "to", t)));
      map[n.results[0]] = r;
      return Error();
    }
    // In t, else in f32 where the op table does not allow t for this op.
    Error last;
    for (DType ct : {t, DType::f32}) {
      auto cp = checkpoint();
      auto r = tryIn(n, ct);
      if (r) {
        for (size_t i = 0; i < r->size(); ++i)
          map[n.results[i]] = (*r)[i];
        return Error();
      }
      last = r.error();
      rollback(cp);
    }
    return last;
  }

  Expected<std::vector<ValueId>> tryIn(const Node &n, DType t) {
    std::vector<ValueId> ops;
    for (ValueId v : n.operands) {
      ValueId m = map[v];
      if (isFloat(dst.typeOf(m).dtype))
        ASSIGN_TO(m, toFloat(m, t));
      ops.push_back(m);
    }
    return dst.addNode(n.op, ops, n.attrs);
  }
};

// --- quantized variants -----------------------------------------------------

struct QParams {
  double scale = 1;
  int64_t zp = 0;
};

struct QValue {
  ValueId id;
  QParams p;
};

// Per float value of a graph: the smallest and largest finite value it takes
// on the reference for inputs drawn with `seed`.
Expected<std::vector<std::pair<double, double>>> calibrate(const Graph &g,
                                                           uint64_t seed) {
  Graph probe = g;
  probe.outputs.clear();
  for (size_t v = 0; v < g.values.size(); ++v)
    if (isFloat(g.values[v].type.dtype))
      probe.addOutput(ValueId(v));
  CC_ASSIGN(out, interpret(probe, makeInputs(g, seed)));
  std::vector<std::pair<double, double>> range(g.values.size(), {0.0, 0.0});
  for (size_t k = 0; k < probe.outputs.size(); ++k) {
    auto &[lo, hi] = range[size_t(probe.outputs[k])];
    for (int64_t i = 0; i < out[k].size(); ++i)
      if (double x = out[k].getF(i); std::isfinite(x))
        lo = std::min(lo, x), hi = std::max(hi, x);
  }
  return range;
}

class QuantVariant : Rebuild {
public:
  QuantVariant(const Graph &g, DType q, uint64_t seed,
               std::vector<std::pair<double, double>> range)
      : Rebuild(g, seed), q(q), range(std::move(range)),
        quant(g.values.size()) {}

  Expected<Graph> build() {
    for (ValueId v : src.inputs) {
      TensorType t = src.typeOf(v);
      if (isFloat(t.dtype)) {
        quant[v] =
            QValue{dst.addInput(src.values[v].name, {q, t.shape}), paramsOf(v)};
      } else {
        map[v] = dst.addInput(src.values[v].name, t);
      }
    }
    for (const Node &n : src.nodes)
      CC_TRY(node(n).withContext("quantizing " + std::string(opName(n.op))));
    for (ValueId v : src.outputs) {
      if (isFloat(src.typeOf(v).dtype)) {
        CC_ASSIGN(x, get(v));
        dst.addOutput(x.id);
      } else {
        dst.addOutput(map[v]);
      }
    }
    return dst;
  }

private:
  DType q;
  std::vector<std::pair<double, double>> range;
  std::vector<std::optional<QValue>> quant; // float src values
  int64_t qMin() const { return intMin(q); }
  int64_t qMax() const { return intMax(q); }

  QParams paramsFor(double lo, double hi) const {
    lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
    if (q == DType::i16) {
      double m = std::max({-lo, hi, 1e-6});
      return {m / double(qMax()), 0};
    }
    if (hi - lo < 1e-6)
      hi = lo + 1e-6;
    double s = (hi - lo) / 255;
    return {s, std::clamp<int64_t>(std::llround(-128 - lo / s), -128, 127)};
  }
  QParams paramsOf(ValueId v) const {
    return paramsFor(range[v].first, range[v].second);
  }
  int64_t quantize(double x, QParams p) const {
    if (std::isnan(x))
      return p.zp;
    double r =
        std::nearbyint(std::clamp(x / p.scale, -1e9, 1e9)) + double(p.zp);
    return int64_t(std::clamp(r, double(qMin()), double(qMax())));
  }

  const Node *producer(ValueId v) const {
    int32_t p = src.values[v].producer;
    return p < 0 ? nullptr : &src.nodes[size_t(p)];
  }

  // The quantized form of a float src value; constants are quantized on
  // first use (convolutions quantize their own weights).
  Expected<QValue> get(ValueId v) {
    if (quant[v])
      return *quant[v];
    const Node *p = producer(v);
    if (!p || p->op != OpId::Const)
      return makeError("float value " + src.values[v].name +
                       " has no quantized form");
    const Tensor &value = p->attrs.getTensor("value");
    QParams qp = paramsOf(v);
    Tensor t(q, value.shape());
    for (int64_t i = 0; i < t.size(); ++i)
      t.setI(i, quantize(value.getF(i), qp));
    Attrs a;
    a.set("value", t);
    CC_ASSIGN(r, dst.add(OpId::Const, {}, a));
    quant[v] = QValue{r, qp};
    return *quant[v];
  }

  // rescale with the real multipliers m (one, or one per last-dim channel).
  Expected<ValueId> rescale(ValueId x, DType to, const std::vector<double> &m,
                            int64_t inZp, int64_t outZp) {
    bool scale32 = rng.chance(0.75);
    int bits = scale32 ? 30 : 14;
    std::vector<int64_t> mult, shift;
    for (double real : m) {
      int e = real > 0 ? int(std::floor(std::log2(real))) : 0;
      int64_t s = std::min<int64_t>(bits - e, 62);
      int64_t k = std::llround(std::ldexp(real, int(s)));
      if (k >= (int64_t(1) << (bits + 1)) && s > 2)
        k /= 2, --s; // rounding reached the next power of two
      if (s < 2 || k >= (int64_t(1) << (bits + 1)))
        return makeError("rescale multiplier " + std::to_string(real) +
                         " is too large");
      mult.push_back(k);
      shift.push_back(s);
    }
    Attrs a;
    a.set("to", to);
    a.set("multiplier", mult);
    a.set("shift", shift);
    a.set("input_zp", inZp);
    a.set("output_zp", outZp);
    a.set("scale32", scale32);
    a.set("rounding_mode",
          std::string(scale32 && rng.chance(0.5) ? "DOUBLE_ROUND"
                                                 : "SINGLE_ROUND"));
    a.set("per_channel", m.size() > 1);
    return dst.add(OpId::Rescale, {x}, a);
  }

  Expected<ValueId> scaleBy(ValueId x, double factor) {
    Tensor c(DType::f32, Shape(size_t(dst.typeOf(x).rank()), 1));
    c.setF(0, roundToFloat(DType::f32, factor));
    Attrs a;
    a.set("value", c);
    CC_ASSIGN(k, dst.add(OpId::Const, {}, a));
    return dst.add(OpId::Mul, {x, k});
  }

  Expected<ValueId> dequantize(const QValue &v) {
    CC_ASSIGN(wide, rescale(v.id, DType::i32, {1.0}, v.p.zp, 0));
    Attrs a;
    a.set("to", DType::f32);
    CC_ASSIGN(f, dst.add(OpId::Cast, {wide}, a));
    return scaleBy(f, v.p.scale);
  }

  Expected<QValue> quantizeValue(ValueId x, QParams p) {
    if (dst.typeOf(x).dtype != DType::f32)
      ASSIGN_TO(x, toFloat(x, DType::f32));
    CC_ASSIGN(scaled, scaleBy(x, 1 / p.scale));
    Attrs c;
    c.set("min", -1048576.0); // keeps the i32 rescale inside its REQUIREs
    c.set("max", 1048576.0);
    CC_ASSIGN(clamped, dst.add(OpId::Clamp, {scaled}, c));
    Attrs a;
    a.set("to", DType::i32);
    CC_ASSIGN(i, dst.add(OpId::Cast, {clamped}, a));
    CC_ASSIGN(r, rescale(i, q, {1.0}, 0, p.zp));
    return QValue{r, p};
  }

  // b requantized to the parameters of a.
  Expected<ValueId> align(const QValue &b, QParams p) {
    if (b.p.scale == p.scale && b.p.zp == p.zp)
      return b.id;
    return rescale(b.id, q, {b.p.scale / p.scale}, b.p.zp, p.zp);
  }

  Error node(const Node &n) {
    bool floats = false;
    for (ValueId v : n.operands)
      floats |= isFloat(src.typeOf(v).dtype);
    for (ValueId v : n.results)
      floats |= isFloat(src.typeOf(v).dtype);
    if (n.op == OpId::Const && floats)
      return Error(); // quantized on first use
    if (!floats) {
      std::vector<ValueId> ops;
      for (ValueId v : n.operands)
        ops.push_back(map[v]);
      CC_ASSIGN(r, dst.addNode(n.op, ops, n.attrs));
      for (size_t i = 0; i < r.size(); ++i)
        map[n.results[i]] = r[i];
      return Error();
    }
    auto cp = checkpoint();
    auto native = integerForm(n);
    if (native && *native)
      return Error();
    rollback(cp);
    for (auto &qv : quant) // forget constants quantized by the failed attempt
      if (qv && size_t(qv->id) >= cp.second)
        qv.reset();
    return floatForm(n);
  }

  // The op on integers; false (nothing added) where it has none here.
  Expected<bool> integerForm(const Node &n) {
    OpId op = n.op;
    ValueId res = n.results[0];
    if (opDef(op).keepsQuantScale) {
      CC_ASSIGN(a, get(n.operands[0]));
      std::vector<ValueId> ops = {a.id};
      for (size_t i = 1; i < n.operands.size(); ++i)
        ops.push_back(map[n.operands[i]]);
      CC_ASSIGN(r, dst.add(op, ops, n.attrs));
      quant[res] = QValue{r, a.p};
      return true;
    }
    if (op == OpId::Clamp) {
      CC_ASSIGN(a, get(n.operands[0]));
      Attrs at = n.attrs;
      at.set("min",
             double(quantize(std::max(n.attrs.getFloat("min"), -1e30), a.p)));
      at.set("max",
             double(quantize(std::min(n.attrs.getFloat("max"), 1e30), a.p)));
      CC_ASSIGN(r, dst.add(op, {a.id}, at));
      quant[res] = QValue{r, a.p};
      return true;
    }
    if (op == OpId::Concat) {
      CC_ASSIGN(a, get(n.operands[0]));
      std::vector<ValueId> ops = {a.id};
      for (size_t i = 1; i < n.operands.size(); ++i) {
        CC_ASSIGN(b, get(n.operands[i]));
        CC_ASSIGN(aligned, align(b, a.p));
        ops.push_back(aligned);
      }
      CC_ASSIGN(r, dst.add(op, ops, n.attrs));
      quant[res] = QValue{r, a.p};
      return true;
    }
    if (op == OpId::Add || op == OpId::Sub) {
      CC_ASSIGN(a, get(n.operands[0]));
      CC_ASSIGN(b, get(n.operands[1]));
      // A common scale fine enough for both; sums stay far inside i32.
      double t =
          std::max(a.p.scale, b.p.scale) / (q == DType::i8 ? 65536 : 4096);
      CC_ASSIGN(wa, rescale(a.id, DType::i32, {a.p.scale / t}, a.p.zp, 0));
      CC_ASSIGN(wb, rescale(b.id, DType::i32, {b.p.scale / t}, b.p.zp, 0));
      CC_ASSIGN(sum, dst.add(op, {wa, wb}));
      QParams out = paramsOf(res);
      CC_ASSIGN(r, rescale(sum, q, {t / out.scale}, 0, out.zp));
      quant[res] = QValue{r, out};
      return true;
    }
    if (q == DType::i8 && op == OpId::MatMul) {
      CC_ASSIGN(a, get(n.operands[0]));
      CC_ASSIGN(b, get(n.operands[1]));
      Attrs at;
      at.set("a_zp", a.p.zp);
      at.set("b_zp", b.p.zp);
      CC_ASSIGN(acc, dst.add(op, {a.id, b.id}, at));
      QParams out = paramsOf(res);
      CC_ASSIGN(
          r, rescale(acc, q, {a.p.scale * b.p.scale / out.scale}, 0, out.zp));
      quant[res] = QValue{r, out};
      return true;
    }
    if (q == DType::i8 && (op == OpId::Conv2d || op == OpId::DepthwiseConv2d))
      return conv(n);
    return false;
  }

  // Quantized convolution with constant weights and bias: i8 x i8 -> i32
  // with zero points, per-channel weight scales for conv2d.
  Expected<bool> conv(const Node &n) {
    const Node *wNode = producer(n.operands[1]),
               *bNode = producer(n.operands[2]);
    if (!wNode || wNode->op != OpId::Const || !bNode ||
        bNode->op != OpId::Const)
      return false;
    const Tensor &w = wNode->attrs.getTensor("value");
    const Tensor &bias = bNode->attrs.getTensor("value");
    CC_ASSIGN(in, get(n.operands[0]));
    bool perChannel = n.op == OpId::Conv2d && rng.chance(0.7);
    int64_t outC =
        n.op == OpId::Conv2d ? w.shape()[0] : w.shape()[2] * w.shape()[3];
    int64_t per = w.size() / w.shape()[0]; // conv2d weight elements per channel
    std::vector<QParams> wp(size_t(perChannel ? outC : 1));
    for (size_t c = 0; c < wp.size(); ++c) {
      double lo = 0, hi = 0;
      for (int64_t i = 0; i < w.size(); ++i)
        if (!perChannel || i / per == int64_t(c))
          if (double x = w.getF(i); std::isfinite(x))
            lo = std::min(lo, x), hi = std::max(hi, x);
      wp[c] = perChannel ? QParams{std::max({-lo, hi, 1e-6}) / 127, 0}
                         : paramsFor(lo, hi);
    }
    Tensor qw(q, w.shape());
    for (int64_t i = 0; i < w.size(); ++i)
      qw.setI(i, quantize(w.getF(i), wp[perChannel ? size_t(i / per) : 0]));
    Tensor qb(DType::i32, {outC});
    std::vector<double> mult;
    QParams out = paramsOf(n.results[0]);
    for (int64_t o = 0; o < outC; ++o) {
      double s = in.p.scale * wp[perChannel ? size_t(o) : 0].scale;
      double b = bias.getF(bias.size() == 1 ? 0 : o);
      qb.setI(o, std::isfinite(b) ? std::llround(std::clamp(b / s, -1e8, 1e8))
                                  : 0);
      if (perChannel || o == 0)
        mult.push_back(s / out.scale);
    }
    Attrs wa, ba;
    wa.set("value", qw);
    ba.set("value", qb);
    CC_ASSIGN(wId, dst.add(OpId::Const, {}, wa));
    CC_ASSIGN(bId, dst.add(OpId::Const, {}, ba));
    Attrs at = n.attrs;
    at.set("input_zp", in.p.zp);
    at.set("weight_zp", wp[0].zp);
    CC_ASSIGN(acc, dst.add(n.op, {in.id, wId, bId}, at));
    CC_ASSIGN(r, rescale(acc, q, mult, 0, out.zp));
    quant[n.results[0]] = QValue{r, out};
    return true;
  }

  // Dequantize -> the op in f32 -> quantize.
  Error floatForm(const Node &n) {
    const OpDef *def = &opDef(n.op);
    std::vector<ValueId> ops;
    for (size_t i = 0; i < n.operands.size(); ++i) {
      ValueId v = n.operands[i];
      if (!isFloat(src.typeOf(v).dtype)) {
        ops.push_back(map[v]);
        continue;
      }
      CC_ASSIGN(qv, get(v));
      CC_ASSIGN(f, dequantize(qv));
      if (def && def->domain(i) == Domain::Positive) {
        // Quantization may round a small positive value to 0 or below.
        Attrs c;
        c.set("min", roundToFloat(DType::f32, std::max(range[v].first, 1e-3)));
        c.set("max", roundToFloat(DType::f32, std::max(range[v].second, 1e-3)));
        ASSIGN_TO(f, dst.add(OpId::Clamp, {f}, c));
      }
      ops.push_back(f);
    }
    Attrs at = n.attrs;
    if (n.op == OpId::Cast && isFloat(at.getType("to"))) {
      if (isFloat(
              src.typeOf(n.operands[0]).dtype)) { // float -> float: same value
        quant[n.results[0]] = *quant[n.operands[0]];
        return Error();
      }
      at.set("to", DType::f32);
    }
    CC_ASSIGN(r, dst.addNode(n.op, ops, at));
    for (size_t i = 0; i < r.size(); ++i) {
      ValueId res = n.results[i];
      if (!isFloat(src.typeOf(res).dtype)) {
        map[res] = r[i];
        continue;
      }
      CC_ASSIGN(qv, quantizeValue(r[i], paramsOf(res)));
      quant[res] = qv;
    }
    return Error();
  }
};

} // namespace

std::string_view precisionKindName(PrecisionKind k) {
  for (const auto &[kind, name] : kNames)
    if (kind == k)
      return name;
  return "?";
}

Expected<PrecisionKind> parsePrecisionKind(std::string_view name) {
  std::string known;
  for (const auto &[kind, n] : kNames) {
    if (n == name)
      return kind;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  return makeError("unknown precision '" + std::string(name) +
                   "' (expected one of " + known + ")");
}

const std::vector<PrecisionKind> &allPrecisionKinds() {
  static const std::vector<PrecisionKind> kinds = [] {
    std::vector<PrecisionKind> k;
    for (const auto &e : kNames)
      k.push_back(e.first);
    return k;
  }();
  return kinds;
}

bool hasFloatValues(const Graph &g) {
  return std::any_of(g.values.begin(), g.values.end(),
                     [](const ValueInfo &v) { return isFloat(v.type.dtype); });
}

Expected<Graph> makePrecisionVariant(const Graph &floatGraph,
                                     PrecisionKind kind, uint64_t seed) {
  if (!hasFloatValues(floatGraph))
    return makeError("graph '" + floatGraph.name +
                     "' has no float values to change the precision of");
  CC_TRY(verify(floatGraph));
  Expected<Graph> g = makeError("");
  if (kind == PrecisionKind::Int8 || kind == PrecisionKind::Int16) {
    CC_ASSIGN(range, calibrate(floatGraph, seed));
    g = QuantVariant(floatGraph,
                     kind == PrecisionKind::Int8 ? DType::i8 : DType::i16, seed,
                     std::move(range))
            .build();
  } else {
    g = FloatVariant(floatGraph, kind, seed).build();
  }
  if (!g)
    return g.error().withContext(std::string(precisionKindName(kind)) +
                                 " variant");
  CC_TRY(verify(*g));
  return g;
}

} // namespace cc
