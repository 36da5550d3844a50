// Tensor types and tensor buffers.
#pragma once

#include "core/DType.h"
#include "core/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cc {

using Shape = std::vector<int64_t>;

int64_t numElements(const Shape &shape);
// Row-major strides in elements.
std::vector<int64_t> rowMajorStrides(const Shape &shape);

// A statically shaped tensor type, written "f32[2,3]" (rank 0: "f32[]").
struct TensorType {
  DType dtype = DType::f32;
  Shape shape;

  int64_t rank() const { return int64_t(shape.size()); }
  int64_t numElements() const { return cc::numElements(shape); }
  std::string str() const;
  // The MLIR spelling, "tensor<2x3xf32>".
  std::string mlir() const;
  bool operator==(const TensorType &) const = default;
};

Expected<TensorType> parseTensorType(const std::string &text);

// A dense row-major buffer whose bytes are exactly the elements of `dtype`
// (f16/bf16 as their bit patterns, i1 as one byte 0 or 1).
//
// Element access goes through doubles for floats and int64 for integers;
// setters round (floats, ties to even) or wrap (integers) to the storage
// dtype, so kernels written once serve every precision.
class Tensor {
public:
  Tensor() = default;
  explicit Tensor(TensorType type);
  Tensor(DType dtype, Shape shape)
      : Tensor(TensorType{dtype, std::move(shape)}) {}

  const TensorType &type() const { return ty; }
  DType dtype() const { return ty.dtype; }
  const Shape &shape() const { return ty.shape; }
  int64_t size() const { return ty.numElements(); }

  double getF(int64_t i) const;
  void setF(int64_t i, double v);
  int64_t getI(int64_t i) const;
  void setI(int64_t i, int64_t v);
  // Reads any element as a double (integers converted exactly).
  double asDouble(int64_t i) const {
    return isFloat(ty.dtype) ? getF(i) : double(getI(i));
  }

  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }
  size_t byteCount() const { return bytes.size(); }

  // Same elements converted to another dtype (rounding / wrapping).
  Tensor convertTo(DType to) const;
  // Same bytes, other shape (element counts must match).
  Tensor reshaped(Shape shape) const;

  static Tensor splat(TensorType type, double v);
  // Bitwise equality of dtype, shape and bytes.
  bool operator==(const Tensor &o) const {
    return ty == o.ty && bytes == o.bytes;
  }

private:
  TensorType ty;
  std::vector<uint8_t> bytes;
};

} // namespace cc
