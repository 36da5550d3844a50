// The nesting bound on MLIR text (MlirBackend.h): a linear scan, no MLIR.
#include "backends/mlir/MlirBackend.h"

#include <algorithm>

namespace cc {

Error checkMlirNesting(const std::string &text, const std::string &what) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '"') { // a string literal: skip it, escapes included
      for (++i; i < text.size() && text[i] != '"'; ++i)
        i += text[i] == '\\';
    } else if (c == '/' && next == '/') { // a comment: to the end of line
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '(' || c == '[' || c == '{' || (c == '<' && next != '=')) {
      if (++depth > kMaxMlirNesting)
        return makeError(what + " nests brackets deeper than " +
                         std::to_string(kMaxMlirNesting) + " levels");
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && next != '=' && (i == 0 || text[i - 1] != '-'))) {
      depth = depth > 0 ? depth - 1 : 0;
    }
  }
  return Error::success();
}

} // namespace cc
