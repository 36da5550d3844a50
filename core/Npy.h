// NumPy .npy files for inputs and outputs (version 1.0, little-endian,
// C order). bf16 has no NumPy dtype and is written as f4 (exact); reading
// converts to the requested dtype, exactly when the values fit.
#pragma once

#include "core/Error.h"
#include "core/Tensor.h"

#include <string>

namespace cc {

std::string npyBytes(const Tensor &t);
Expected<Tensor> parseNpy(const std::string &bytes);
Error writeNpy(const std::string &path, const Tensor &t);
Expected<Tensor> readNpy(const std::string &path);
// Reads a .npy file as a tensor of exactly `type`: the shape must match and
// every value must convert to type's dtype without change.
Expected<Tensor> readNpyAs(const std::string &path, const TensorType &type);

} // namespace cc
