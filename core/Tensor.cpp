#include "core/Tensor.h"
#include "core/Limits.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace cc {

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Expected<int64_t> checkedNumElements(const Shape &shape) {
  if (int64_t(shape.size()) > kMaxTensorRank)
    return makeError("rank " + std::to_string(shape.size()) +
                     " exceeds the limit of " + std::to_string(kMaxTensorRank));
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return makeError("dimension " + std::to_string(d) + " is negative");
    // Stops at the first product beyond the limit, so it cannot overflow.
    if (__builtin_mul_overflow(n, d, &n) || n > kMaxTensorElements)
      return makeError("more than " + std::to_string(kMaxTensorElements) +
                       " elements (the limit per tensor)");
  }
  return n;
}

std::vector<int64_t> rowMajorStrides(const Shape &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

std::string TensorType::str() const {
  std::string s(dtypeName(dtype));
  s += '[';
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + ']';
}

std::string TensorType::mlir() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + std::string(dtypeName(dtype)) + ">";
}

Expected<TensorType> parseTensorType(const std::string &text) {
  auto bad = [&](const std::string &why) {
    return makeError("bad tensor type '" + text + "': " + why +
                     " (expected e.g. \"f32[2,3]\")");
  };
  size_t lb = text.find('[');
  if (lb == std::string::npos || text.back() != ']')
    return bad("missing [shape]");
  auto dt = parseDType(text.substr(0, lb));
  if (!dt)
    return bad("unknown dtype '" + text.substr(0, lb) + "'");
  TensorType t{*dt, {}};
  std::string dims = text.substr(lb + 1, text.size() - lb - 2);
  if (dims.empty())
    return t;
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty() ||
        item.find_first_not_of("0123456789") != std::string::npos)
      return bad("dimension '" + item + "' is not a non-negative integer");
    if (item.size() > 12)
      return bad("dimension '" + item + "' is too large");
    t.shape.push_back(std::stoll(item));
  }
  if (auto n = checkedNumElements(t.shape); !n)
    return n.error().withContext("tensor type '" + text + "'");
  return t;
}

Tensor::Tensor(TensorType type) : ty(std::move(type)) {
  bytes.assign(size_t(ty.numElements()) * byteSize(ty.dtype), 0);
}

double Tensor::getF(int64_t i) const {
  const uint8_t *p = bytes.data() + i * byteSize(ty.dtype);
  switch (ty.dtype) {
  case DType::f16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return f16BitsToF64(b);
  }
  case DType::bf16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bf16BitsToF64(b);
  }
  case DType::f32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::f64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  default:
    return double(getI(i));
  }
}

void Tensor::setF(int64_t i, double v) {
  uint8_t *p = bytes.data() + i * byteSize(ty.dtype);
  switch (ty.dtype) {
  case DType::f16: {
    uint16_t b = f64ToF16Bits(v);
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::bf16: {
    uint16_t b = f64ToBF16Bits(v);
    std::memcpy(p, &b, 2);
    return;
  }
  case DType::f32: {
    float f = f64ToF32(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::f64:
    std::memcpy(p, &v, 8);
    return;
  default:
    // Float-to-int through setF is a programming error in a kernel; store
    // the truncated value so it is at least deterministic.
    setI(i, int64_t(v));
  }
}

int64_t Tensor::getI(int64_t i) const {
  const uint8_t *p = bytes.data() + i * byteSize(ty.dtype);
  switch (ty.dtype) {
  case DType::i1:
    return p[0] & 1;
  case DType::i8: {
    int8_t v;
    std::memcpy(&v, p, 1);
    return v;
  }
  case DType::i16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case DType::i32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::i64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  default:
    return int64_t(getF(i));
  }
}

void Tensor::setI(int64_t i, int64_t v) {
  uint8_t *p = bytes.data() + i * byteSize(ty.dtype);
  int64_t w = wrapInt(ty.dtype, v);
  switch (ty.dtype) {
  case DType::i1:
    p[0] = uint8_t(w);
    return;
  case DType::i8: {
    int8_t x = int8_t(w);
    std::memcpy(p, &x, 1);
    return;
  }
  case DType::i16: {
    int16_t x = int16_t(w);
    std::memcpy(p, &x, 2);
    return;
  }
  case DType::i32: {
    int32_t x = int32_t(w);
    std::memcpy(p, &x, 4);
    return;
  }
  case DType::i64:
    std::memcpy(p, &w, 8);
    return;
  default:
    setF(i, double(v));
  }
}

Tensor Tensor::convertTo(DType to) const {
  Tensor out(to, ty.shape);
  for (int64_t i = 0, n = size(); i < n; ++i) {
    if (isFloat(to))
      out.setF(i, asDouble(i));
    else
      out.setI(i, isFloat(ty.dtype) ? int64_t(getF(i)) : getI(i));
  }
  return out;
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor out = *this;
  out.ty.shape = std::move(shape);
  return out;
}

Tensor Tensor::splat(TensorType type, double v) {
  Tensor t(std::move(type));
  for (int64_t i = 0, n = t.size(); i < n; ++i) {
    if (isFloat(t.dtype()))
      t.setF(i, v);
    else
      t.setI(i, int64_t(v));
  }
  return t;
}

} // namespace cc
