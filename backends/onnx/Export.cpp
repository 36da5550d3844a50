// The graph IR as an ONNX model (opset 13) and ONNX's test data layout.
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/OpTable.h"

#include <filesystem>
#include <functional>
#include <limits>
#include <set>

namespace cc {

namespace {

using onnx::Attribute;
using onnx::NodeProto;

constexpr int64_t kOpset = 13;

Attribute intAttr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Int;
  a.i = v;
  return a;
}
Attribute intsAttr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Ints;
  a.ints = std::move(v);
  return a;
}
Attribute stringAttr(std::string s) {
  Attribute a;
  a.kind = Attribute::String;
  a.s = std::move(s);
  return a;
}

// Writes a graph as ONNX; the export rules below (exportRules) use its
// helpers, one node at a time.
class Exporter {
public:
  explicit Exporter(const Graph &g) : g(g) {}
  Expected<std::string> run();

  const Graph &g;
  onnx::ModelProto m;
  int counter = 0;
  const Node *node = nullptr;

  std::string name(ValueId v) const { return g.values.at(v).name; }
  std::string in(size_t i) const { return name(node->operands.at(i)); }
  std::string out() const { return name(node->results.at(0)); }
  const TensorType &inType(size_t i) const {
    return g.typeOf(node->operands.at(i));
  }
  std::string fresh() { return out() + "_onnx" + std::to_string(counter++); }
  std::string emit(std::string op, std::vector<std::string> inputs,
                   std::map<std::string, Attribute> attrs = {},
                   std::string result = "") {
    if (result.empty())
      result = fresh();
    m.nodes.push_back(
        {std::move(op), "", std::move(inputs), {result}, std::move(attrs)});
    return result;
  }
  std::string initializer(Tensor t) {
    std::string n = fresh();
    m.initializers.emplace_back(n, std::move(t));
    return n;
  }
  std::string ints(const std::vector<int64_t> &v) {
    Tensor t(DType::i64, {int64_t(v.size())});
    for (size_t i = 0; i < v.size(); ++i)
      t.setI(int64_t(i), v[i]);
    return initializer(std::move(t));
  }
  std::string scalar(DType t, double v) {
    return initializer(Tensor::splat({t, {}}, v));
  }

  // Why this node has no ONNX equivalent, or "" when it has one.
  std::string whyNot(const Node &n) const;
  void window(const std::string &op, std::map<std::string, Attribute> attrs,
              std::vector<std::string> extra);
  std::vector<std::string> operands() const {
    std::vector<std::string> names;
    for (size_t i = 0; i < node->operands.size(); ++i)
      names.push_back(in(i));
    return names;
  }
  const Attrs &attrs() const { return node->attrs; }
  void same(const char *onnxOp) { emit(onnxOp, operands(), {}, out()); }
};

// How one op is written in ONNX: `write` emits it at the exporter's node;
// without one, `never` says why ONNX cannot express it. Every op has a
// rule (tests/unit/coverage/OpCoverageTest.cpp).
struct ExportRule {
  using Refuse = std::function<std::string(const Exporter &, const Node &)>;
  ExportRule(std::function<void(Exporter &)> write, const char *never = nullptr,
             Refuse refuse = {})
      : write(std::move(write)), never(never), refuse(std::move(refuse)) {}
  std::function<void(Exporter &)> write;
  const char *never;
  Refuse refuse; // node-specific reasons (attributes, dtypes)
};

ExportRule same(const char *onnxOp) {
  return {[onnxOp](Exporter &x) { x.same(onnxOp); }};
}
ExportRule never(const char *why) { return {nullptr, why}; }

// Reduces with ONNX's axes as an attribute (opset 13; ReduceSum takes them
// as an input).
ExportRule reduceAlong(const char *onnxOp) {
  return {[onnxOp](Exporter &x) {
    x.emit(onnxOp, {x.in(0)}, {{"axes", intsAttr({x.attrs().getInt("axis")})}},
           x.out());
  }};
}

const std::map<OpId, ExportRule> &exportRules() {
  using E = Exporter;
  auto exactDType = [](const E &x, const Node &n) -> std::string {
    DType in = x.g.typeOf(n.operands[0]).dtype;
    DType res = x.g.typeOf(n.results[0]).dtype;
    return in == res ? ""
                     : std::string(dtypeName(in)) + " -> " +
                           std::string(dtypeName(res));
  };
  auto floatOnly = [](const char *why) {
    return [why](const E &x, const Node &n) -> std::string {
      return isFloat(x.g.typeOf(n.operands[0]).dtype) ? "" : why;
    };
  };
  static const std::map<OpId, ExportRule> rules = {
      {OpId::Add, same("Add")},
      {OpId::Sub, same("Sub")},
      {OpId::Mul,
       {[](E &x) { x.same("Mul"); }, nullptr,
        [](const E &, const Node &n) -> std::string {
          return n.attrs.getInt("shift") != 0 ? "shift" : "";
        }}},
      {OpId::IntDiv, same("Div")},
      {OpId::Maximum, same("Max")},
      {OpId::Minimum, same("Min")},
      {OpId::Pow, same("Pow")},
      {OpId::Abs, same("Abs")},
      {OpId::Negate, same("Neg")},
      {OpId::Exp, same("Exp")},
      {OpId::Log, same("Log")},
      {OpId::Tanh, same("Tanh")},
      {OpId::Sigmoid, same("Sigmoid")},
      {OpId::Erf, same("Erf")},
      {OpId::Rsqrt, never("no single ONNX op (not exported)")},
      {OpId::Reciprocal, same("Reciprocal")},
      {OpId::Floor, same("Floor")},
      {OpId::Ceil, same("Ceil")},
      {OpId::Clamp, {[](E &x) {
         DType t = x.inType(0).dtype;
         x.emit("Clip",
                {x.in(0), x.scalar(t, x.attrs().getFloat("min")),
                 x.scalar(t, x.attrs().getFloat("max"))},
                {}, x.out());
       }}},
      {OpId::Select, same("Where")},
      {OpId::Equal, same("Equal")},
      {OpId::Greater, same("Greater")},
      {OpId::GreaterEqual, same("GreaterOrEqual")},
      {OpId::LogicalAnd, same("And")},
      {OpId::LogicalOr, same("Or")},
      {OpId::LogicalNot, same("Not")},
      {OpId::BitwiseAnd, never("no ONNX op in opset 13")},
      {OpId::BitwiseOr, never("no ONNX op in opset 13")},
      {OpId::BitwiseXor, never("no ONNX op in opset 13")},
      {OpId::ArithmeticRightShift,
       never("ONNX's BitShift is unsigned and does not round")},
      {OpId::LogicalLeftShift, never("ONNX's BitShift takes unsigned types")},
      {OpId::Const, {[](E &x) {
         x.m.initializers.emplace_back(x.out(), x.attrs().getTensor("value"));
       }}},
      {OpId::Cast,
       {[](E &x) {
          x.emit("Cast", {x.in(0)},
                 {{"to", intAttr(onnx::onnxElemType(x.attrs().getType("to")))}},
                 x.out());
        },
        nullptr,
        [](const E &x, const Node &n) -> std::string {
          DType in = x.g.typeOf(n.operands[0]).dtype;
          DType res = x.g.typeOf(n.results[0]).dtype;
          return isFloat(in) && !isFloat(res) && !isBool(res)
                     ? "float to int: ONNX Cast truncates, TOSA rounds to "
                       "nearest even"
                     : "";
        }}},
      {OpId::Rescale, never("no ONNX equivalent of TOSA's integer rescale")},
      {OpId::ReduceSum, {[](E &x) {
         x.emit("ReduceSum", {x.in(0), x.ints({x.attrs().getInt("axis")})}, {},
                x.out());
       }}},
      {OpId::ReduceProduct, reduceAlong("ReduceProd")},
      {OpId::ReduceMax, reduceAlong("ReduceMax")},
      {OpId::ReduceMin, reduceAlong("ReduceMin")},
      {OpId::ArgMax, {[](E &x) {
         std::string i = x.emit("ArgMax", {x.in(0)},
                                {{"axis", intAttr(x.attrs().getInt("axis"))},
                                 {"keepdims", intAttr(0)}});
         x.emit("Cast", {i}, {{"to", intAttr(onnx::onnxElemType(DType::i32))}},
                x.out());
       }}},
      {OpId::MatMul, {[](E &x) { x.same("MatMul"); }, nullptr, exactDType}},
      {OpId::Conv2d,
       {[](E &x) {
          std::string w = x.emit("Transpose", {x.in(1)},
                                 {{"perm", intsAttr({0, 3, 1, 2})}});
          x.window("Conv",
                   {{"dilations", intsAttr(x.attrs().getInts("dilation"))}},
                   {w, x.in(2)});
        },
        nullptr, floatOnly("integer convolution")}},
      {OpId::DepthwiseConv2d,
       {[](E &x) {
          const Shape &ws = x.inType(1).shape; // KH, KW, C, M
          std::string w = x.emit("Transpose", {x.in(1)},
                                 {{"perm", intsAttr({2, 3, 0, 1})}});
          std::string w4 =
              x.emit("Reshape", {w, x.ints({ws[2] * ws[3], 1, ws[0], ws[1]})});
          x.window("Conv",
                   {{"dilations", intsAttr(x.attrs().getInts("dilation"))},
                    {"group", intAttr(ws[2])}},
                   {w4, x.in(2)});
        },
        nullptr, floatOnly("integer convolution")}},
      {OpId::TransposeConv2d,
       never("ONNX's ConvTranspose pads differently (not exported)")},
      {OpId::AvgPool2d,
       {[](E &x) {
          x.window("AveragePool",
                   {{"kernel_shape", intsAttr(x.attrs().getInts("kernel"))}},
                   {});
        },
        nullptr, floatOnly("integer average")}},
      {OpId::MaxPool2d, {[](E &x) {
         x.window("MaxPool",
                  {{"kernel_shape", intsAttr(x.attrs().getInts("kernel"))}},
                  {});
       }}},
      {OpId::Reshape, {[](E &x) {
         x.emit("Reshape", {x.in(0), x.ints(x.attrs().getInts("shape"))}, {},
                x.out());
       }}},
      {OpId::Transpose, {[](E &x) {
         x.emit("Transpose", {x.in(0)},
                {{"perm", intsAttr(x.attrs().getInts("perms"))}}, x.out());
       }}},
      {OpId::Slice, {[](E &x) {
         std::vector<int64_t> start = x.attrs().getInts("start"), end = start;
         for (size_t d = 0; d < end.size(); ++d)
           end[d] += x.attrs().getInts("size")[d];
         x.emit("Slice", {x.in(0), x.ints(start), x.ints(end)}, {}, x.out());
       }}},
      {OpId::Concat, {[](E &x) {
         x.emit("Concat", x.operands(),
                {{"axis", intAttr(x.attrs().getInt("axis"))}}, x.out());
       }}},
      {OpId::Pad, {[](E &x) {
         const std::vector<int64_t> &p = x.attrs().getInts("padding");
         std::vector<int64_t> pads(p.size());
         size_t rank = p.size() / 2;
         for (size_t d = 0; d < rank; ++d)
           pads[d] = p[2 * d], pads[rank + d] = p[2 * d + 1];
         x.emit("Pad",
                {x.in(0), x.ints(pads),
                 x.scalar(x.inType(0).dtype, x.attrs().getFloat("pad_const"))},
                {{"mode", stringAttr("constant")}}, x.out());
       }}},
      {OpId::Tile, {[](E &x) {
         x.emit("Tile", {x.in(0), x.ints(x.attrs().getInts("multiples"))}, {},
                x.out());
       }}},
      {OpId::Reverse, {[](E &x) {
         int64_t axis = x.attrs().getInt("axis");
         x.emit("Slice",
                {x.in(0), x.ints({-1}),
                 x.ints({std::numeric_limits<int64_t>::min()}), x.ints({axis}),
                 x.ints({-1})},
                {}, x.out());
       }}},
      {OpId::Gather, never("ONNX's Gather indexes one axis (not exported)")},
  };
  return rules;
}

std::string Exporter::whyNot(const Node &n) const {
  auto it = exportRules().find(n.op);
  if (it == exportRules().end() || !it->second.write)
    return it == exportRules().end() || !it->second.never ? "no ONNX equivalent"
                                                          : it->second.never;
  const Attrs &a = n.attrs;
  if (a.has("nan_mode") && a.getString("nan_mode") != "PROPAGATE")
    return "nan_mode IGNORE";
  for (const char *zp : {"input_zp", "weight_zp", "a_zp", "b_zp", "output_zp"})
    if (a.has(zp) && a.getInt(zp) != 0)
      return "zero point";
  return it->second.refuse ? it->second.refuse(*this, n) : "";
}

// Window ops run in NCHW in ONNX: transposes around them.
void Exporter::window(const std::string &op,
                      std::map<std::string, Attribute> attrs,
                      std::vector<std::string> extra) {
  const std::vector<int64_t> &p = node->attrs.getInts("pad");
  attrs["pads"] = intsAttr({p[0], p[2], p[1], p[3]});
  attrs["strides"] = intsAttr(node->attrs.getInts("stride"));
  std::string x =
      emit("Transpose", {in(0)}, {{"perm", intsAttr({0, 3, 1, 2})}});
  extra.insert(extra.begin(), x);
  std::string y = emit(op, extra, std::move(attrs));
  emit("Transpose", {y}, {{"perm", intsAttr({0, 2, 3, 1})}}, out());
}

Expected<std::string> Exporter::run() {
  std::set<std::string> refused;
  for (const Node &n : g.nodes)
    if (std::string why = whyNot(n); !why.empty())
      refused.insert(std::string(opName(n.op)) + " (" + why + ")");
  if (!refused.empty()) {
    std::string list;
    for (const std::string &r : refused)
      list += (list.empty() ? "" : ", ") + r;
    return Error::failure("graph '" + g.name +
                              "' has ops ONNX cannot express: " + list,
                          ErrorCode::Unsupported);
  }
  m.opset = kOpset;
  m.graphName = g.name;
  for (ValueId v : g.inputs)
    m.inputs.push_back({name(v), g.typeOf(v), ""});
  for (const Node &n : g.nodes) {
    node = &n;
    counter = 0;
    exportRules().at(n.op).write(*this);
  }
  // An output that is an input or another output needs its own name in
  // ONNX: route it through Identity.
  std::set<std::string> seen;
  for (ValueId v : g.outputs) {
    std::string n = name(v);
    bool isInput = g.values[v].producer < 0;
    if (isInput || !seen.insert(n).second) {
      std::string copy = n + "_out" + std::to_string(seen.size());
      m.nodes.push_back({"Identity", "", {n}, {copy}, {}});
      n = copy;
      seen.insert(n);
    }
    m.outputs.push_back({n, g.typeOf(v), ""});
  }
  return onnx::serializeModel(m);
}

} // namespace

Expected<std::string> exportOnnxModel(const Graph &g) {
  return Exporter(g).run();
}

std::string onnxExportGap(OpId op) {
  auto it = exportRules().find(op);
  if (it == exportRules().end())
    return "no export rule";
  return it->second.write ? "" : it->second.never;
}

Error exportOnnx(const Graph &g, const Inputs &inputs, const Outputs &outputs,
                 const std::string &dir) {
  CC_ASSIGN(model, exportOnnxModel(g));
  CC_TRY(makeDirectory(dir));
  CC_TRY(makeDirectory(dir + "/test_data_set_0"));
  CC_TRY(writeFile(dir + "/model.onnx", model));
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(writeFile(
        dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb",
        onnx::serializeTensor(inputs[i], g.values[g.inputs[i]].name)));
  for (size_t i = 0; i < outputs.size(); ++i) {
    // The f64 reference is stored in the declared dtype.
    DType t = g.typeOf(g.outputs[i]).dtype;
    CC_TRY(
        writeFile(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb",
                  onnx::serializeTensor(outputs[i].convertTo(t),
                                        g.values[g.outputs[i]].name)));
  }
  return Error::success();
}

} // namespace cc
