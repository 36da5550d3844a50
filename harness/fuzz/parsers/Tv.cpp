// libFuzzer target cc_fuzz_tv: the front end of `crosscheck tv` on any
// text. The input is a source module, optionally followed by a line
// "// -----" and a target module (else the source is its own target).
// checkRefinement must give verdicts or one error, never crash. Solver
// queries are short and counterexamples are not replayed (no JIT). Deeply
// nested text is fuzzed too: checkMlirNesting must refuse it before MLIR's
// recursive parser sees it.
#include "smt/Validate.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  const std::string split = "\n// -----\n";
  size_t cut = text.find(split);
  std::string src = text.substr(0, cut);
  std::string tgt =
      cut == std::string::npos ? src : text.substr(cut + split.size());
  cc::smt::TvOptions options;
  options.timeoutMs = 200;
  options.confirm = false;
  (void)cc::smt::checkRefinement(src, tgt, options);
  return 0;
}
