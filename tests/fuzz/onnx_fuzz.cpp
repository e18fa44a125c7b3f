// Any bytes as an ONNX model: import_onnx_bytes either returns a graph or throws InputError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.hpp"
#include "graph/onnx_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    (void)dlsim::graph::import_onnx_bytes(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
  } catch (const dlsim::InputError&) {
  }
  return 0;
}
