// The one translation unit that includes ONNX's generated protobuf classes.
#include "backends/onnx/Proto.h"
#include "core/Limits.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>

namespace cc::onnx {

namespace pb = ::onnx;

int onnxElemType(DType t) {
  switch (t) {
  case DType::i1:
    return pb::TensorProto::BOOL;
  case DType::i8:
    return pb::TensorProto::INT8;
  case DType::i16:
    return pb::TensorProto::INT16;
  case DType::i32:
    return pb::TensorProto::INT32;
  case DType::i64:
    return pb::TensorProto::INT64;
  case DType::f16:
    return pb::TensorProto::FLOAT16;
  case DType::bf16:
    return pb::TensorProto::BFLOAT16;
  case DType::f32:
    return pb::TensorProto::FLOAT;
  case DType::f64:
    return pb::TensorProto::DOUBLE;
  }
  return pb::TensorProto::UNDEFINED;
}

std::optional<DType> dtypeOfOnnx(int elemType) {
  for (DType t : kAllDTypes)
    if (onnxElemType(t) == elemType)
      return t;
  return std::nullopt;
}

namespace {

std::string elemTypeName(int elemType) {
  return pb::TensorProto::DataType_IsValid(elemType)
             ? pb::TensorProto::DataType_Name(
                   pb::TensorProto::DataType(elemType))
             : "type " + std::to_string(elemType);
}

// Elements the tensor's data holds: raw bytes, or the typed field of its dtype.
int64_t heldElements(const pb::TensorProto &p, DType dt) {
  if (p.has_raw_data())
    return int64_t(p.raw_data().size() / byteSize(dt));
  switch (dt) {
  case DType::f32:
    return p.float_data_size();
  case DType::f64:
    return p.double_data_size();
  case DType::i64:
    return p.int64_data_size();
  default:
    return p.int32_data_size(); // f16 and bf16 as bit patterns too
  }
}

Expected<Tensor> fromProto(const pb::TensorProto &p) {
  std::string what = "tensor '" + p.name() + "'";
  std::optional<DType> dt = dtypeOfOnnx(p.data_type());
  if (!dt)
    return Error::failure(what + ": element type " +
                              elemTypeName(p.data_type()) + " is not supported",
                          ErrorCode::Unsupported);
  if (p.data_location() == pb::TensorProto::EXTERNAL)
    return makeError(what + ": external data is not supported");
  Shape shape(p.dims().begin(), p.dims().end());
  // Dimensions come from the file: refuse absurd sizes, and sizes the data
  // does not hold, before allocating.
  auto count = checkedNumElements(shape);
  if (!count)
    return count.error().withContext(what);
  int64_t n = *count;
  size_t raw = p.raw_data().size();
  if (heldElements(p, *dt) != n || raw % byteSize(*dt) != 0)
    return makeError(what + ": holds " + std::to_string(heldElements(p, *dt)) +
                     " elements, its shape needs " + std::to_string(n));
  Tensor t(*dt, shape);
  if (p.has_raw_data()) {
    if (raw) // an empty tensor's data() may be null
      std::memcpy(t.data(), p.raw_data().data(), raw);
    if (*dt == DType::i1)
      for (int64_t i = 0; i < n; ++i)
        t.data()[i] = t.data()[i] != 0;
    return t;
  }
  for (int64_t i = 0; i < n; ++i) {
    switch (*dt) {
    case DType::f32:
      t.setF(i, p.float_data(int(i)));
      break;
    case DType::f64:
      t.setF(i, p.double_data(int(i)));
      break;
    case DType::i64:
      t.setI(i, p.int64_data(int(i)));
      break;
    case DType::f16:
    case DType::bf16: { // bit patterns in int32_data
      uint16_t bits = uint16_t(p.int32_data(int(i)));
      std::memcpy(t.data() + 2 * i, &bits, 2);
      break;
    }
    default:
      t.setI(i, p.int32_data(int(i)));
    }
  }
  return t;
}

void toProto(const Tensor &t, const std::string &name, pb::TensorProto &p) {
  p.set_name(name);
  p.set_data_type(onnxElemType(t.dtype()));
  for (int64_t d : t.shape())
    p.add_dims(d);
  p.set_raw_data(
      std::string(reinterpret_cast<const char *>(t.data()), t.byteCount()));
}

ValueProto fromValueInfo(const pb::ValueInfoProto &v) {
  ValueProto out;
  out.name = v.name();
  if (!v.type().has_tensor_type()) {
    out.whyNoType = "it is not a tensor";
    return out;
  }
  const pb::TypeProto::Tensor &tt = v.type().tensor_type();
  std::optional<DType> dt = dtypeOfOnnx(tt.elem_type());
  if (!dt) {
    out.whyNoType =
        "element type " + elemTypeName(tt.elem_type()) + " is not supported";
    return out;
  }
  if (!tt.has_shape()) {
    out.whyNoType = "its shape is unknown (static shapes only)";
    return out;
  }
  TensorType type{*dt, {}};
  for (const auto &d : tt.shape().dim()) {
    if (!d.has_dim_value()) {
      out.whyNoType =
          "dimension " + std::to_string(type.shape.size()) +
          (d.has_dim_param() ? " is symbolic ('" + d.dim_param() + "')"
                             : " is unknown") +
          " (static shapes only)";
      return out;
    }
    type.shape.push_back(d.dim_value());
  }
  out.type = type;
  return out;
}

void toValueInfo(const ValueProto &v, pb::ValueInfoProto &p) {
  p.set_name(v.name);
  if (!v.type) // a value parsed without a usable type keeps only its name
    return;
  auto *tt = p.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnxElemType(v.type->dtype));
  auto *shape = tt->mutable_shape();
  for (int64_t d : v.type->shape)
    if (d < 0) // symbolic (only tests write such models)
      shape->add_dim()->set_dim_param("N");
    else
      shape->add_dim()->set_dim_value(d);
}

Expected<Attribute> fromAttr(const pb::AttributeProto &a) {
  Attribute out;
  switch (a.type()) {
  case pb::AttributeProto::FLOAT:
    out.kind = Attribute::Float;
    out.f = a.f();
    break;
  case pb::AttributeProto::INT:
    out.kind = Attribute::Int;
    out.i = a.i();
    break;
  case pb::AttributeProto::STRING:
    out.kind = Attribute::String;
    out.s = a.s();
    break;
  case pb::AttributeProto::TENSOR: {
    out.kind = Attribute::TensorKind;
    auto t = fromProto(a.t());
    if (!t)
      return t.error().withContext("attribute '" + a.name() + "'");
    out.t = std::move(*t);
    break;
  }
  case pb::AttributeProto::FLOATS:
    out.kind = Attribute::Floats;
    out.floats.assign(a.floats().begin(), a.floats().end());
    break;
  case pb::AttributeProto::INTS:
    out.kind = Attribute::Ints;
    out.ints.assign(a.ints().begin(), a.ints().end());
    break;
  case pb::AttributeProto::STRINGS:
    out.kind = Attribute::Strings;
    out.strings.assign(a.strings().begin(), a.strings().end());
    break;
  default:
    break; // graphs, sparse tensors: the op that needs it says so
  }
  return out;
}

void toAttr(const std::string &name, const Attribute &a,
            pb::AttributeProto &p) {
  p.set_name(name);
  switch (a.kind) {
  case Attribute::Float:
    p.set_type(pb::AttributeProto::FLOAT);
    p.set_f(float(a.f));
    break;
  case Attribute::Int:
    p.set_type(pb::AttributeProto::INT);
    p.set_i(a.i);
    break;
  case Attribute::String:
    p.set_type(pb::AttributeProto::STRING);
    p.set_s(a.s);
    break;
  case Attribute::TensorKind:
    p.set_type(pb::AttributeProto::TENSOR);
    toProto(*a.t, "", *p.mutable_t());
    break;
  case Attribute::Floats:
    p.set_type(pb::AttributeProto::FLOATS);
    for (double f : a.floats)
      p.add_floats(float(f));
    break;
  case Attribute::Ints:
    p.set_type(pb::AttributeProto::INTS);
    for (int64_t i : a.ints)
      p.add_ints(i);
    break;
  case Attribute::Strings:
    p.set_type(pb::AttributeProto::STRINGS);
    for (const std::string &s : a.strings)
      p.add_strings(s);
    break;
  case Attribute::Other:
    break;
  }
}

} // namespace

// Names end up in messages and in the graph: a control character in one
// means a corrupt file, said once here rather than printed raw later.
Error checkNames(const ModelProto &m) {
  auto bad = [](const std::string &s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
  };
  std::vector<const std::string *> names{&m.graphName};
  for (const auto *list : {&m.inputs, &m.outputs})
    for (const ValueProto &v : *list)
      names.push_back(&v.name);
  for (const auto &[name, t] : m.initializers)
    names.push_back(&name);
  for (const NodeProto &n : m.nodes) {
    names.push_back(&n.opType);
    for (const auto *list : {&n.inputs, &n.outputs})
      for (const std::string &s : *list)
        names.push_back(&s);
  }
  for (const std::string *s : names)
    if (bad(*s))
      return makeError(
          "not a valid ONNX model (a name holds control characters: "
          "the file is corrupt)");
  return Error::success();
}

Expected<ModelProto> parseModel(const std::string &bytes) {
  pb::ModelProto p;
  if (!p.ParseFromString(bytes))
    return makeError("not a valid ONNX model (protobuf parse failed: the file "
                     "is truncated or not an ONNX ModelProto)");
  if (!p.has_graph())
    return makeError("not a valid ONNX model (it has no graph)");
  ModelProto m;
  for (const auto &o : p.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      m.opset = o.version();
  const pb::GraphProto &g = p.graph();
  m.graphName = g.name();
  for (const auto &init : g.initializer()) {
    auto t = fromProto(init);
    if (!t)
      return t.error().withContext("initializer");
    m.initializers.emplace_back(init.name(), std::move(*t));
  }
  for (const auto &v : g.input()) {
    bool isInit = false;
    for (const auto &[name, t] : m.initializers)
      isInit |= name == v.name();
    if (!isInit) // older models list initializers among the inputs
      m.inputs.push_back(fromValueInfo(v));
  }
  for (const auto &v : g.output())
    m.outputs.push_back(fromValueInfo(v));
  for (const auto &n : g.node()) {
    NodeProto node;
    node.opType = n.op_type();
    node.domain = n.domain();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto &a : n.attribute()) {
      auto attr = fromAttr(a);
      if (!attr)
        return attr.error().withContext("node " + n.op_type());
      node.attrs[a.name()] = std::move(*attr);
    }
    m.nodes.push_back(std::move(node));
  }
  if (Error e = checkNames(m))
    return e;
  return m;
}

std::string serializeModel(const ModelProto &m) {
  pb::ModelProto p;
  p.set_ir_version(8); // ONNX 1.10+; opset 13 ops below
  p.set_producer_name("crosscheck");
  auto *opset = p.add_opset_import();
  opset->set_domain("");
  opset->set_version(m.opset);
  pb::GraphProto &g = *p.mutable_graph();
  g.set_name(m.graphName);
  for (const auto &[name, t] : m.initializers)
    toProto(t, name, *g.add_initializer());
  for (const ValueProto &v : m.inputs)
    toValueInfo(v, *g.add_input());
  for (const ValueProto &v : m.outputs)
    toValueInfo(v, *g.add_output());
  for (const NodeProto &n : m.nodes) {
    pb::NodeProto &pn = *g.add_node();
    pn.set_op_type(n.opType);
    pn.set_domain(n.domain);
    for (const std::string &i : n.inputs)
      pn.add_input(i);
    for (const std::string &o : n.outputs)
      pn.add_output(o);
    for (const auto &[name, a] : n.attrs)
      toAttr(name, a, *pn.add_attribute());
  }
  return p.SerializeAsString();
}

Expected<Tensor> parseTensor(const std::string &bytes,
                             std::optional<DType> declared) {
  pb::TensorProto p;
  if (!p.ParseFromString(bytes))
    return makeError("not a valid ONNX TensorProto (protobuf parse failed)");
  // ONNX's node tests (1.12) store bfloat16 data as its uint16 bit patterns.
  if (declared == DType::bf16 && p.data_type() == pb::TensorProto::UINT16)
    p.set_data_type(pb::TensorProto::BFLOAT16);
  return fromProto(p);
}

std::string serializeTensor(const Tensor &t, const std::string &name) {
  pb::TensorProto p;
  toProto(t, name, p);
  return p.SerializeAsString();
}

} // namespace cc::onnx
