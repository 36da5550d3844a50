// Limits on the tensors and graphs crosscheck accepts from a file or a flag.
// Inputs are checked against them where they are read (tensor types, .npy
// and ONNX files, op attributes, generator flags), so that a size never
// overflows int64 and never ends in bad_alloc: too large is one clear error.
#pragma once

#include "core/Error.h"
#include "core/Tensor.h"

#include <cstdint>

namespace cc {

// The reference keeps every value of a graph in memory, floats as f64: one
// tensor at the limit is 1 GiB, a whole graph at most 4 GiB. Differential
// tests of compilers need far less; more would not run on a test machine.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 27;
inline constexpr int64_t kMaxGraphElements = int64_t(1) << 29;
// Files are read whole into memory; the largest tensor as .npy is 1 GiB.
inline constexpr int64_t kMaxFileBytes = int64_t(1) << 31;
// TOSA's 8K level allows rank 6; a little more exercises deeper loop nests.
inline constexpr int64_t kMaxTensorRank = 16;

// The element count of `shape`, or an error when a dimension is negative,
// the rank exceeds kMaxTensorRank or the count exceeds kMaxTensorElements.
// Never overflows, whatever the dimensions.
Expected<int64_t> checkedNumElements(const Shape &shape);

} // namespace cc
