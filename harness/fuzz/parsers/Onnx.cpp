// libFuzzer target cc_fuzz_onnx: any bytes as a serialized ONNX model and
// as a TensorProto (test_data_set_*/input_0.pb). The importer must give a
// graph or one error, never crash.
#include "backends/onnx/Onnx.h"
#include "backends/onnx/Proto.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  (void)cc::importOnnx(bytes);
  (void)cc::onnx::parseTensor(bytes);
  return 0;
}
