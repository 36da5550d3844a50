// libFuzzer target cc_fuzz_finding: any bytes as a finding file (what
// `report --finding` and `reduce` read, from anyone). The reader must give a
// finding or one error, never crash or throw; a finding it accepts writes
// and reads back as the same finding.
#include "core/Json.h"
#include "oracles/FindingFile.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto j = cc::parseJson(
      std::string_view(reinterpret_cast<const char *>(data), size));
  if (!j)
    return 0;
  auto f = cc::findingFromJson(*j);
  if (!f)
    return 0;
  std::string text = cc::jsonText(cc::findingToJson(*f));
  auto reread = cc::parseJson(text);
  if (!reread)
    std::abort();
  auto again = cc::findingFromJson(*reread);
  if (!again || cc::jsonText(cc::findingToJson(*again)) != text)
    std::abort();
  (void)f->finding.signature.str();
  return 0;
}
