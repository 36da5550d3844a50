// An op's identity: what a graph node holds instead of its name, resolved
// once where a graph comes in (JSON, ONNX, a generator) and compared as a
// value everywhere else. The ops are listed in core/Ops.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace cc {

enum class OpId : uint8_t {
#define CC_OP(id, name) id,
#include "core/Ops.def"
#undef CC_OP
};

inline constexpr std::string_view kOpNames[] = {
#define CC_OP(id, name) name,
#include "core/Ops.def"
#undef CC_OP
};
inline constexpr size_t kOpCount = std::size(kOpNames);

// "add", as in graph JSON.
constexpr std::string_view opName(OpId op) { return kOpNames[size_t(op)]; }
// The op of that name; nullopt when there is none.
constexpr std::optional<OpId> parseOpId(std::string_view name) {
  for (size_t i = 0; i < kOpCount; ++i)
    if (kOpNames[i] == name)
      return OpId(i);
  return std::nullopt;
}

// Prints the op's name (messages, test failures).
inline std::ostream &operator<<(std::ostream &os, OpId op) {
  return os << opName(op);
}

} // namespace cc
