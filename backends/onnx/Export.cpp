// The graph IR as an ONNX model (opset 13) and ONNX's test data layout.
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"
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

Attribute intAttr(int64_t v) { Attribute a; a.kind = Attribute::Int; a.i = v; return a; }
Attribute intsAttr(std::vector<int64_t> v) {
  Attribute a; a.kind = Attribute::Ints; a.ints = std::move(v); return a;
}
Attribute stringAttr(std::string s) {
  Attribute a; a.kind = Attribute::String; a.s = std::move(s); return a;
}

class Exporter {
public:
  explicit Exporter(const Graph &g) : g(g) {}
  Expected<std::string> run();

private:
  const Graph &g;
  onnx::ModelProto m;
  int counter = 0;
  const Node *node = nullptr;

  std::string name(ValueId v) const { return g.values.at(v).name; }
  std::string in(size_t i) const { return name(node->operands.at(i)); }
  std::string out() const { return name(node->results.at(0)); }
  const TensorType &inType(size_t i) const { return g.typeOf(node->operands.at(i)); }
  std::string fresh() { return out() + "_onnx" + std::to_string(counter++); }
  std::string emit(std::string op, std::vector<std::string> inputs,
                   std::map<std::string, Attribute> attrs = {},
                   std::string result = "") {
    if (result.empty())
      result = fresh();
    m.nodes.push_back({std::move(op), "", std::move(inputs), {result}, std::move(attrs)});
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
  std::string scalar(DType t, double v) { return initializer(Tensor::splat({t, {}}, v)); }

  // Why this node has no ONNX equivalent, or "" when it has one.
  std::string whyNot(const Node &n) const;
  void exportNode();
  void window(const std::string &op, std::map<std::string, Attribute> attrs,
              std::vector<std::string> extra);
};


std::string Exporter::whyNot(const Node &n) const {
  static const std::set<std::string> direct = {
      "const", "add", "sub", "pow", "abs", "negate", "exp", "log", "tanh",
      "sigmoid", "erf", "reciprocal", "floor", "ceil", "select", "equal",
      "greater", "greater_equal", "logical_and", "logical_or", "logical_not",
      "cast", "reduce_sum", "reduce_product", "reduce_max", "reduce_min",
      "argmax", "matmul", "conv2d", "depthwise_conv2d", "avg_pool2d",
      "max_pool2d", "reshape", "transpose", "slice", "concat", "pad", "tile",
      "reverse", "maximum", "minimum", "clamp", "mul", "intdiv"};
  if (!direct.count(n.op))
    return "no ONNX equivalent";
  const Attrs &a = n.attrs;
  if (a.has("nan_mode") && a.getString("nan_mode") != "PROPAGATE")
    return "nan_mode IGNORE";
  if (n.op == "mul" && a.getInt("shift") != 0)
    return "shift";
  for (const char *zp : {"input_zp", "weight_zp", "a_zp", "b_zp", "output_zp"})
    if (a.has(zp) && a.getInt(zp) != 0)
      return "zero point";
  DType in = n.operands.empty() ? DType::f32 : g.typeOf(n.operands[0]).dtype;
  DType res = g.typeOf(n.results[0]).dtype;
  if (n.op == "matmul" && in != res)
    return std::string(dtypeName(in)) + " -> " + std::string(dtypeName(res));
  if ((n.op == "conv2d" || n.op == "depthwise_conv2d") && !isFloat(in))
    return "integer convolution";
  if (n.op == "cast" && isFloat(in) && !isFloat(res) && !isBool(res))
    return "float to int: ONNX Cast truncates, TOSA rounds to nearest even";
  if (n.op == "avg_pool2d" && !isFloat(in))
    return "integer average";
  return "";
}

// Window ops run in NCHW in ONNX: transposes around them.
void Exporter::window(const std::string &op, std::map<std::string, Attribute> attrs,
                      std::vector<std::string> extra) {
  const std::vector<int64_t> &p = node->attrs.getInts("pad");
  attrs["pads"] = intsAttr({p[0], p[2], p[1], p[3]});
  attrs["strides"] = intsAttr(node->attrs.getInts("stride"));
  std::string x = emit("Transpose", {in(0)}, {{"perm", intsAttr({0, 3, 1, 2})}});
  extra.insert(extra.begin(), x);
  std::string y = emit(op, extra, std::move(attrs));
  emit("Transpose", {y}, {{"perm", intsAttr({0, 2, 3, 1})}}, out());
}

void Exporter::exportNode() {
  const std::string &op = node->op;
  const Attrs &a = node->attrs;
  static const std::map<std::string, std::string> same = {
      {"add", "Add"}, {"sub", "Sub"}, {"mul", "Mul"}, {"intdiv", "Div"},
      {"pow", "Pow"}, {"maximum", "Max"}, {"minimum", "Min"}, {"abs", "Abs"},
      {"negate", "Neg"}, {"exp", "Exp"}, {"log", "Log"}, {"tanh", "Tanh"},
      {"sigmoid", "Sigmoid"}, {"erf", "Erf"}, {"reciprocal", "Reciprocal"},
      {"floor", "Floor"}, {"ceil", "Ceil"}, {"select", "Where"},
      {"equal", "Equal"}, {"greater", "Greater"},
      {"greater_equal", "GreaterOrEqual"}, {"logical_and", "And"},
      {"logical_or", "Or"}, {"logical_not", "Not"}};
  std::vector<std::string> operands;
  for (size_t i = 0; i < node->operands.size(); ++i)
    operands.push_back(in(i));
  if (auto it = same.find(op); it != same.end()) {
    emit(it->second, operands, {}, out());
  } else if (op == "const") {
    m.initializers.emplace_back(out(), a.getTensor("value"));
  } else if (op == "clamp") {
    DType t = inType(0).dtype;
    emit("Clip", {in(0), scalar(t, a.getFloat("min")), scalar(t, a.getFloat("max"))},
         {}, out());
  } else if (op == "cast") {
    emit("Cast", {in(0)}, {{"to", intAttr(onnx::onnxElemType(a.getType("to")))}},
         out());
  } else if (op == "reduce_sum") {
    emit("ReduceSum", {in(0), ints({a.getInt("axis")})}, {}, out());
  } else if (op.starts_with("reduce_")) {
    std::string onnxOp = op == "reduce_product" ? "ReduceProd"
                         : op == "reduce_max"   ? "ReduceMax"
                                                : "ReduceMin";
    emit(onnxOp, {in(0)}, {{"axes", intsAttr({a.getInt("axis")})}}, out());
  } else if (op == "argmax") {
    std::string i = emit("ArgMax", {in(0)},
                         {{"axis", intAttr(a.getInt("axis"))}, {"keepdims", intAttr(0)}});
    emit("Cast", {i}, {{"to", intAttr(onnx::onnxElemType(DType::i32))}}, out());
  } else if (op == "matmul") {
    emit("MatMul", operands, {}, out());
  } else if (op == "conv2d") {
    std::string w = emit("Transpose", {in(1)}, {{"perm", intsAttr({0, 3, 1, 2})}});
    window("Conv", {{"dilations", intsAttr(a.getInts("dilation"))}}, {w, in(2)});
  } else if (op == "depthwise_conv2d") {
    const Shape &ws = inType(1).shape; // KH, KW, C, M
    std::string w = emit("Transpose", {in(1)}, {{"perm", intsAttr({2, 3, 0, 1})}});
    std::string w4 = emit("Reshape", {w, ints({ws[2] * ws[3], 1, ws[0], ws[1]})});
    window("Conv", {{"dilations", intsAttr(a.getInts("dilation"))},
                    {"group", intAttr(ws[2])}}, {w4, in(2)});
  } else if (op == "avg_pool2d" || op == "max_pool2d") {
    window(op == "avg_pool2d" ? "AveragePool" : "MaxPool",
           {{"kernel_shape", intsAttr(a.getInts("kernel"))}}, {});
  } else if (op == "reshape") {
    emit("Reshape", {in(0), ints(a.getInts("shape"))}, {}, out());
  } else if (op == "transpose") {
    emit("Transpose", {in(0)}, {{"perm", intsAttr(a.getInts("perms"))}}, out());
  } else if (op == "slice") {
    std::vector<int64_t> start = a.getInts("start"), end = start;
    for (size_t d = 0; d < end.size(); ++d)
      end[d] += a.getInts("size")[d];
    emit("Slice", {in(0), ints(start), ints(end)}, {}, out());
  } else if (op == "reverse") {
    int64_t axis = a.getInt("axis");
    emit("Slice", {in(0), ints({-1}), ints({std::numeric_limits<int64_t>::min()}),
                   ints({axis}), ints({-1})}, {}, out());
  } else if (op == "concat") {
    emit("Concat", operands, {{"axis", intAttr(a.getInt("axis"))}}, out());
  } else if (op == "pad") {
    const std::vector<int64_t> &p = a.getInts("padding");
    std::vector<int64_t> pads(p.size());
    size_t rank = p.size() / 2;
    for (size_t d = 0; d < rank; ++d)
      pads[d] = p[2 * d], pads[rank + d] = p[2 * d + 1];
    emit("Pad", {in(0), ints(pads), scalar(inType(0).dtype, a.getFloat("pad_const"))},
         {{"mode", stringAttr("constant")}}, out());
  } else if (op == "tile") {
    emit("Tile", {in(0), ints(a.getInts("multiples"))}, {}, out());
  }
}

Expected<std::string> Exporter::run() {
  std::set<std::string> refused;
  for (const Node &n : g.nodes)
    if (std::string why = whyNot(n); !why.empty())
      refused.insert(n.op + " (" + why + ")");
  if (!refused.empty()) {
    std::string list;
    for (const std::string &r : refused)
      list += (list.empty() ? "" : ", ") + r;
    return Error::failure("graph '" + g.name + "' has ops ONNX cannot express: " + list,
                          ErrorCode::Unsupported);
  }
  m.opset = kOpset;
  m.graphName = g.name;
  for (ValueId v : g.inputs)
    m.inputs.push_back({name(v), g.typeOf(v), ""});
  for (const Node &n : g.nodes) {
    node = &n;
    counter = 0;
    exportNode();
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

Expected<std::string> exportOnnxModel(const Graph &g) { return Exporter(g).run(); }

Error exportOnnx(const Graph &g, const Inputs &inputs, const Outputs &outputs,
                 const std::string &dir) {
  CC_ASSIGN(model, exportOnnxModel(g));
  std::error_code ec;
  std::filesystem::create_directories(dir + "/test_data_set_0", ec);
  if (ec)
    return makeError("cannot create " + dir + ": " + ec.message());
  CC_TRY(writeFile(dir + "/model.onnx", model));
  for (size_t i = 0; i < inputs.size(); ++i)
    CC_TRY(writeFile(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb",
                     onnx::serializeTensor(inputs[i], g.values[g.inputs[i]].name)));
  for (size_t i = 0; i < outputs.size(); ++i) {
    // The f64 reference is stored in the declared dtype.
    DType t = g.typeOf(g.outputs[i]).dtype;
    CC_TRY(writeFile(dir + "/test_data_set_0/output_" + std::to_string(i) + ".pb",
                     onnx::serializeTensor(outputs[i].convertTo(t),
                                           g.values[g.outputs[i]].name)));
  }
  return Error::success();
}

} // namespace cc
