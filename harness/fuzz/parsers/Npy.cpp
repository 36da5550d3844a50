// libFuzzer target cc_fuzz_npy: any bytes as a .npy file. The reader must
// give a tensor or one error, never crash; a tensor it accepts writes and
// reads back bit for bit.
#include "core/Npy.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto t =
      cc::parseNpy(std::string(reinterpret_cast<const char *>(data), size));
  if (!t)
    return 0;
  auto again = cc::parseNpy(cc::npyBytes(*t));
  if (!again || !(*again == *t))
    std::abort();
  return 0;
}
