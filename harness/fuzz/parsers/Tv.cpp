// libFuzzer target cc_fuzz_tv: the front end of `crosscheck tv` on any
// text. The input is a source module, optionally followed by a line
// "// -----" and a target module (else the source is its own target).
// checkRefinement must give verdicts or one error, never crash. Solver
// queries are short and counterexamples are not replayed (no JIT).
#include "smt/Validate.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace {
// Deepest bracket nesting of the text, a bound on its attribute nesting.
int nesting(const std::string &text) {
  int depth = 0, deepest = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{' || c == '<')
      deepest = std::max(deepest, ++depth);
    else if (c == ')' || c == ']' || c == '}' || c == '>')
      depth = std::max(0, depth - 1);
  }
  return deepest;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  // MLIR's parser recurses once per nesting level and overflows the stack
  // on deep attributes; the bound for MLIR input belongs to smt/Driver.cpp
  // (issue 29, in progress), so such inputs are left out here until then.
  if (nesting(text) > 100)
    return 0;
  const std::string split = "\n// -----\n";
  size_t cut = text.find(split);
  std::string src = text.substr(0, cut);
  std::string tgt = cut == std::string::npos ? src : text.substr(cut + split.size());
  cc::smt::TvOptions options;
  options.timeoutMs = 200;
  options.confirm = false;
  (void)cc::smt::checkRefinement(src, tgt, options);
  return 0;
}
