// libFuzzer target cc_fuzz_graph_json: any bytes as a graph JSON file. The
// loader must give a graph or one error, never crash; a graph it accepts
// prints and loads again as the same graph.
#include "core/Json.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto g =
      cc::parseGraph(std::string(reinterpret_cast<const char *>(data), size));
  if (!g)
    return 0;
  std::string text = cc::printGraph(*g);
  auto again = cc::parseGraph(text);
  if (!again || cc::printGraph(*again) != text)
    std::abort();
  return 0;
}
