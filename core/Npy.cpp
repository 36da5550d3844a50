#include "core/Npy.h"
#include "core/File.h"
#include "core/Json.h"
#include "core/Limits.h"

#include <charconv>
#include <cstring>

namespace cc {

namespace {
// NumPy descr of the storage we write for each dtype.
const char *descrOf(DType t) {
  switch (t) {
  case DType::i1:
    return "|b1";
  case DType::i8:
    return "|i1";
  case DType::i16:
    return "<i2";
  case DType::i32:
    return "<i4";
  case DType::i64:
    return "<i8";
  case DType::f16:
    return "<f2";
  case DType::bf16:
    return "<f4"; // NumPy has no bf16: f32 holds it exactly
  case DType::f32:
    return "<f4";
  case DType::f64:
    return "<f8";
  }
  return "";
}

std::optional<DType> dtypeOfDescr(const std::string &d) {
  if (d == "|b1")
    return DType::i1;
  if (d == "|i1")
    return DType::i8;
  if (d == "<i2")
    return DType::i16;
  if (d == "<i4")
    return DType::i32;
  if (d == "<i8")
    return DType::i64;
  if (d == "<f2")
    return DType::f16;
  if (d == "<f4")
    return DType::f32;
  if (d == "<f8")
    return DType::f64;
  return std::nullopt;
}

// Value of `key` in the header dict: the text after "'key':" up to the next
// top-level comma or closing brace.
std::string headerField(const std::string &h, const std::string &key) {
  size_t p = h.find("'" + key + "'");
  if (p == std::string::npos)
    return "";
  p = h.find(':', p);
  if (p == std::string::npos)
    return "";
  ++p;
  int depth = 0;
  size_t e = p;
  for (; e < h.size(); ++e) {
    char c = h[e];
    if (c == '(')
      ++depth;
    if (c == ')')
      --depth;
    if (depth == 0 && (c == ',' || c == '}'))
      break;
    if (depth < 0)
      break;
  }
  std::string v = h.substr(p, e - p + (h[e] == ')' ? 1 : 0));
  size_t a = v.find_first_not_of(" ");
  size_t b = v.find_last_not_of(" ");
  return a == std::string::npos ? "" : v.substr(a, b - a + 1);
}
} // namespace

std::string npyBytes(const Tensor &t) {
  Tensor stored = t.dtype() == DType::bf16 ? t.convertTo(DType::f32) : t;
  std::string shape = "(";
  for (int64_t d : t.shape())
    shape += std::to_string(d) + ",";
  if (t.shape().size() > 1)
    shape.pop_back(); // (3,) keeps its comma, (2,3) does not need one
  shape += ")";
  std::string header = "{'descr': '" + std::string(descrOf(t.dtype())) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  uint16_t len = uint16_t(header.size());
  out += char(len & 0xff);
  out += char(len >> 8);
  out += header;
  out.append(reinterpret_cast<const char *>(stored.data()), stored.byteCount());
  return out;
}

Expected<Tensor> parseNpy(const std::string &bytes) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return makeError("not a .npy file (bad magic)");
  int major = uint8_t(bytes[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (size_t(uint8_t(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError("truncated .npy header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    offset = 12;
  } else {
    return makeError(".npy version " + std::to_string(major) +
                     " is not supported");
  }
  if (bytes.size() < offset + headerLen)
    return makeError("truncated .npy header");
  std::string h = bytes.substr(offset, headerLen);
  std::string descr = headerField(h, "descr");
  if (descr.size() >= 2)
    descr = descr.substr(1, descr.size() - 2);
  if (descr == "<u2" || descr == "=f2")
    descr = "<f2";
  auto dt = dtypeOfDescr(descr == "=f4"   ? "<f4"
                         : descr == "|u1" ? "|b1"
                                          : descr);
  if (!dt)
    return makeError(".npy dtype '" + descr + "' is not supported");
  if (headerField(h, "fortran_order") != "False")
    return makeError(".npy in Fortran order is not supported");
  std::string shapeText = headerField(h, "shape");
  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')')
    return makeError("bad .npy shape '" + shapeText + "'");
  Shape shape;
  std::string inner = shapeText.substr(1, shapeText.size() - 2);
  size_t p = 0;
  while (p < inner.size()) {
    size_t c = inner.find(',', p);
    std::string item =
        inner.substr(p, c == std::string::npos ? std::string::npos : c - p);
    size_t a = item.find_first_not_of(' ');
    if (a != std::string::npos) {
      item = item.substr(a);
      int64_t d = 0;
      auto [end, ec] =
          std::from_chars(item.data(), item.data() + item.size(), d);
      if (ec != std::errc() ||
          item.find_first_not_of(" L", size_t(end - item.data())) !=
              std::string::npos)
        return makeError("bad .npy shape '" + shapeText + "'");
      shape.push_back(d);
    }
    if (c == std::string::npos)
      break;
    p = c + 1;
  }
  auto n = checkedNumElements(shape);
  if (!n)
    return n.error().withContext(".npy shape " + shapeText);
  // Checked before allocating: a small file cannot claim a large tensor.
  size_t data = offset + headerLen, need = size_t(*n) * byteSize(*dt);
  if (bytes.size() - data != need)
    return makeError(".npy data holds " + std::to_string(bytes.size() - data) +
                     " bytes, shape " + shapeText + " needs " +
                     std::to_string(need));
  Tensor t(*dt, shape);
  if (t.byteCount()) // an empty tensor's data() may be null
    std::memcpy(t.data(), bytes.data() + data, t.byteCount());
  if (*dt == DType::i1)
    for (int64_t i = 0; i < t.size(); ++i)
      if (t.data()[i] > 1)
        return makeError(".npy bool element " + std::to_string(i) +
                         " is not 0 or 1");
  return t;
}

Error writeNpy(const std::string &path, const Tensor &t) {
  return writeFile(path, npyBytes(t));
}

Expected<Tensor> readNpy(const std::string &path) {
  CC_ASSIGN(bytes, readFile(path));
  auto t = parseNpy(bytes);
  if (!t)
    return t.error().withContext(path);
  return t;
}

Expected<Tensor> readNpyAs(const std::string &path, const TensorType &type) {
  CC_ASSIGN(t, readNpy(path));
  if (t.shape() != type.shape)
    return makeError(path + ": shape " + t.type().str() + " does not match " +
                     type.str());
  if (t.dtype() == type.dtype)
    return t;
  Tensor out = t.convertTo(type.dtype);
  for (int64_t i = 0; i < t.size(); ++i) {
    double a = t.asDouble(i), b = out.asDouble(i);
    if (!(a == b || (a != a && b != b)))
      return makeError(path + ": element " + std::to_string(i) + " (" +
                       std::to_string(a) +
                       ") is not exactly representable in " +
                       std::string(dtypeName(type.dtype)));
  }
  return out;
}

} // namespace cc
